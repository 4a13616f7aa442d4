/**
 * The Durable Object harness (test/helpers/workerd-durable.ts) and the platform facts the Cloudflare
 * adapter builds on, proven in real workerd, offline, with the smoke Worker of
 * test/fixtures/durable-smoke: storage survives a restart (workerd killed outright) and isolate
 * memory does not; SQLite storage on local disk; an SSE stream of an object reaches the client
 * through the Worker event by event, a push from another request reaches it, and a client's
 * disconnect reaches the object; alarms fire, across a restart too; objects of different names are
 * apart.
 */
import { readdir } from "node:fs/promises";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { liveSse, type LiveSse } from "./helpers/live-sse.ts";
import { startDurableWorker, type DurableWorker } from "./helpers/workerd-durable.ts";

const ENTRY = new URL("./fixtures/durable-smoke/worker.ts", import.meta.url).pathname;

interface Counted {
  stored: number;
  sqlRows: number | null;
  isolate: number;
}

interface State {
  stored: number;
  alarmSetFor: number | null;
  alarmRanAt: number | null;
  pendingAlarm: number | null;
  openStreams: number;
  /** true, or the message of the error `ctx.storage.sql.exec()` threw. */
  sql: true | string;
  isolate: number;
}

describe("Durable Objects in workerd (local disk storage, no nodejs_compat)", () => {
  let worker: DurableWorker;
  const open: LiveSse[] = [];

  beforeAll(async () => {
    worker = await startDurableWorker({
      entry: ENTRY,
      classes: [
        { className: "SmokeObject", binding: "SMOKE", enableSql: true },
        { className: "KvOnlyObject", binding: "KV_ONLY" },
      ],
    });
  }, 60_000);
  afterAll(async () => {
    for (const sse of open) sse.close();
    await worker?.close();
  });

  const call = async <T>(path: string, init?: RequestInit): Promise<T> => {
    const response = await fetch(`${worker.url}${path}`, init);
    expect(response.status, `${path}: ${await response.clone().text()}\n${worker.output()}`).toBe(200);
    return (await response.json()) as T;
  };
  const count = (name: string, prefix = "obj"): Promise<Counted> =>
    call<Counted>(`/${prefix}/${name}/count`, { method: "POST" });
  const state = (name: string): Promise<State> => call<State>(`/obj/${name}/state`);
  const openEvents = async (name: string): Promise<LiveSse> => {
    const abort = new AbortController();
    const response = await fetch(`${worker.url}/obj/${name}/events`, { signal: abort.signal });
    expect(response.headers.get("content-type")).toBe("text/event-stream");
    const sse = liveSse(response, abort);
    open.push(sse);
    return sse;
  };
  const until = async <T>(read: () => Promise<T>, done: (value: T) => boolean, timeoutMs = 5000): Promise<T> => {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const value = await read();
      if (done(value) || Date.now() > deadline) return value;
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
  };

  it("keeps storage (key-value and SQL) across a restart, and forgets isolate memory", async () => {
    expect(await count("restart")).toMatchObject({ stored: 1, sqlRows: 1 });
    const before = await count("restart");
    expect(before).toMatchObject({ stored: 2, sqlRows: 2 });
    expect(before.isolate).toBeGreaterThanOrEqual(2);

    await worker.restart();
    // The module's counter starts again; the object's storage goes on.
    expect(await count("restart")).toEqual({ stored: 3, sqlRows: 3, isolate: 1 });
  });

  it("stores each object as a SQLite file on the disk service, under its namespace's uniqueKey", async () => {
    await count("file");
    const files = await readdir(join(worker.storageDir, "SmokeObject"));
    expect(files.some((file) => file.endsWith(".sqlite"))).toBe(true);
  });

  it("lets ctx.storage.sql run only where the namespace enables SQL (elsewhere exec() throws)", async () => {
    expect((await state("sql")).sql).toBe(true);
    expect(await count("plain", "kv")).toMatchObject({ stored: 1, sqlRows: null });
    expect((await call<State>("/kv/plain/state")).sql).toMatch(/SQL is not enabled/);
  });

  it("keeps objects of different names apart", async () => {
    await count("left");
    await count("left");
    expect((await count("right")).stored).toBe(1);
    expect((await count("left")).stored).toBe(3);
  });

  it("streams an object's SSE through the Worker event by event, while it stays open", async () => {
    const sse = await openEvents("stream");
    const first = await sse.next(/^tick 1 /);
    const firstAt = Date.now();
    const second = await sse.next(/^tick 2 /);
    // Sent ~100 ms apart and received apart: nothing on the way held the first back.
    expect(Date.now() - firstAt).toBeGreaterThanOrEqual(50);
    expect(first.id).toBe("1");
    expect(second.id).toBe("2");
    expect(await sse.endedWithin(150)).toBe(false);
  });

  it("delivers a push from another request into the open stream of the same object only", async () => {
    const sse = await openEvents("fanout");
    const other = await openEvents("elsewhere");
    await sse.next(/^tick 1 /);
    await other.next(/^tick 1 /);
    expect(await call("/obj/fanout/push", { method: "POST", body: "hello from a second request" })).toEqual({
      delivered: 1,
    });
    expect((await sse.next(/^hello/)).event).toBe("push");
    await expect(other.next(/^hello/, 400)).rejects.toThrow(/no an event matching/);
  });

  it("tells the object when the client disconnects (the stream is cancelled through the Worker)", async () => {
    const sse = await openEvents("disconnect");
    await sse.next(/^tick 1 /);
    expect((await state("disconnect")).openStreams).toBe(1);
    sse.close();
    expect(
      (
        await until(
          () => state("disconnect"),
          (s) => s.openStreams === 0,
        )
      ).openStreams,
    ).toBe(0);
  });

  it("runs an alarm set 300 ms ahead, and records it in storage", async () => {
    const { at } = await call<{ at: number }>("/obj/alarm/alarm?in=300", { method: "POST" });
    expect((await state("alarm")).alarmRanAt).toBeNull();
    const after = await until(
      () => state("alarm"),
      (s) => s.alarmRanAt !== null,
    );
    expect(after.alarmRanAt).toBeGreaterThanOrEqual(at);
    expect(after.pendingAlarm).toBeNull();
  });

  it("runs an alarm that was pending when workerd was killed, once it is back", async () => {
    const { at } = await call<{ at: number }>("/obj/alarm-restart/alarm?in=1500", { method: "POST" });
    await worker.restart();
    const pending = await state("alarm-restart");
    expect(pending).toMatchObject({ alarmRanAt: null, pendingAlarm: at });
    const after = await until(
      () => state("alarm-restart"),
      (s) => s.alarmRanAt !== null,
    );
    expect(after.alarmRanAt).toBeGreaterThanOrEqual(at);
  });
});
