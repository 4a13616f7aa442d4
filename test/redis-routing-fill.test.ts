/**
 * A GET stream held on B whose events come out of the log's order while B cannot read the log
 * (h3 v2 and v1): "two" is kept by A but A's word to B is lost (its publish fails after the append,
 * as when Redis goes away between the two), then "three" reaches B on the bus while B's connection
 * to the event log is cut (a real TCP relay in front of Redis; the bus and the session store stay
 * up). B cannot fill in "two": it must not write "three" (the client's Last-Event-ID would pass
 * "two", which no resumption would then replay), but close the connection, so that the client
 * resumes from "one" and gets "two" and "three" in order, once each. Raw HTTP, then both real
 * clients, which resume by themselves.
 */
import { afterAll, afterEach, beforeAll, describe as vitestDescribe, expect, it } from "vitest";
import { CLIENTS } from "./helpers/clients.ts";
import { HOSTS } from "./helpers/hosts.ts";
import type { LiveSse } from "./helpers/live-sse.ts";
import { startRedis, type RunningRedis } from "./helpers/redis-server.ts";
import {
  callTool,
  getStream,
  openSession,
  resultText,
  startInstance,
  toldText,
  type Instance,
} from "./helpers/routing-instances.ts";
import type { SseEvent } from "./helpers/sse.ts";
import { startSwitchProxy } from "./helpers/switch-proxy.ts";
import { startTcpCut, type TcpCut } from "./helpers/tcp-cut.ts";
import { REDIS, unavailable } from "./helpers/services.ts";

// Every suite of this file needs redis-server: skipped, said loudly, where it is missing (helpers/services.ts).
const describe = vitestDescribe.skipIf(unavailable(REDIS));

let redis: RunningRedis;
beforeAll(async () => {
  redis = await startRedis();
});
afterAll(async () => {
  await redis?.stop();
});

/** Connection options for the keys of `prefix` on this file's Redis. */
const oneRedis = (prefix: string) => ({ url: redis.url, prefix });

let prefixes = 0;

/** The told messages a stream delivers until `last` is among them, it ends, or nothing comes for `quietMs`. */
async function readTold(sse: LiveSse, last: string, quietMs = 2_000): Promise<SseEvent[]> {
  const events: SseEvent[] = [];
  for (;;) {
    let event: SseEvent;
    try {
      event = await sse.next(/notifications\/message/, quietMs);
    } catch {
      return events; // ended, or quiet
    }
    events.push(event);
    if (toldText(event.data) === last) return events;
  }
}

describe.each(HOSTS)("a GET stream on %s that cannot read the events it missed from its log", (host) => {
  const open: { close(): Promise<void> }[] = [];
  afterEach(async () => {
    for (const item of open.splice(0).reverse()) await item.close().catch(() => {});
  });

  /** A and B on one Redis; B's event store reaches it through `relay`. */
  async function pair(): Promise<{ a: Instance; b: Instance; relay: TcpCut }> {
    const prefix = `f${++prefixes}:`;
    const relay = await startTcpCut(redis.port);
    open.push(relay);
    const a = await startInstance(host, oneRedis, prefix, "A");
    const b = await startInstance(host, oneRedis, prefix, "B", {
      eventsRedisUrl: `redis://127.0.0.1:${relay.port}`,
    });
    open.push({ close: a.stop }, { close: b.stop });
    return { a, b, relay };
  }

  const eventLogReady = async (instance: Instance): Promise<boolean> =>
    (await instance.eventsConnection.client()).isReady;

  /**
   * With B holding the session's GET stream and "one" delivered: "two" kept with A's word to B
   * lost, B's event log cut off, and "three" sent from A (kept, and handed to B on the bus).
   */
  async function loseTwoThenSendThree(a: Instance, b: Instance, relay: TcpCut, sessionId: string): Promise<void> {
    const caller = await openSession(a.url);
    a.beforePublish = async (message) => {
      if (message.kind === "event") throw new Error("the bus went away after the append");
    };
    const lost = await callTool(a.url, caller, "tell", { sessionId, text: "two" });
    expect(lost.json, lost.text).toMatchObject({ result: { isError: true } });
    a.beforePublish = undefined;

    relay.cut();
    await expect.poll(() => eventLogReady(b)).toBe(false);
    expect(resultText(await callTool(a.url, caller, "tell", { sessionId, text: "three" }))).toBe("true");
  }

  it("closes the connection instead of writing past them; the resumption gets them in order, once each", async () => {
    const { a, b, relay } = await pair();
    const headers = await openSession(b.url);
    const sessionId = headers["mcp-session-id"]!;
    const first = await getStream(b.url, headers);
    open.push({ close: async () => first.sse.close() });
    expect(first.response.status).toBe(200);
    expect(resultText(await callTool(a.url, headers, "tell", { sessionId, text: "one" }))).toBe("true");
    const one = await first.sse.next(/notifications\/message/);
    expect(toldText(one.data)).toBe("one");

    await loseTwoThenSendThree(a, b, relay, sessionId);
    const live = await readTold(first.sse, "three");
    expect(live.map((event) => toldText(event.data))).toEqual([]);
    expect(await first.sse.endedWithin(2_000)).toBe(true);
    // Closed, not finished: B still holds the stream, and the client comes back to it.
    const held = b.handler.engine.services.sessions!.live.get(sessionId)?.getStream;
    expect(held?.state).toBe("streaming");
    expect(held?.connected).toBe(false);

    relay.mend();
    await expect.poll(() => eventLogReady(b), { timeout: 5_000 }).toBe(true);
    const lastId = live.at(-1)?.id ?? one.id!;
    const resumed = await getStream(b.url, headers, lastId);
    open.push({ close: async () => resumed.sse.close() });
    expect(resumed.response.status).toBe(200);
    const replayed = await readTold(resumed.sse, "three");
    const all = [one, ...live, ...replayed];
    expect(all.map((event) => toldText(event.data))).toEqual(["one", "two", "three"]);
    const firstSeq = Number(one.id!.split("/")[1]);
    expect(all.map((event) => event.id)).toEqual([0, 1, 2].map((step) => `get/${firstSeq + step}`));

    // The stream goes on live on B.
    expect(resultText(await callTool(a.url, headers, "tell", { sessionId, text: "four" }))).toBe("true");
    expect(toldText((await resumed.sse.next(/notifications\/message/)).data)).toBe("four");
  });

  it("a fresh GET stream of a session without priming events (2025-06-18) reads a gap before its first event from the log", async () => {
    const { a, b } = await pair();
    const headers = await openSession(b.url, {}, "2025-06-18");
    const sessionId = headers["mcp-session-id"]!;
    const stream = await getStream(b.url, headers);
    open.push({ close: async () => stream.sse.close() });
    expect(stream.response.status).toBe(200);
    // B holds the stream: "one" is kept by A, but A's word to B is lost; "two" reaches B.
    await expect.poll(async () => (await b.sessionData(sessionId))?.streamInstance).toBeDefined();
    const caller = await openSession(a.url);
    a.beforePublish = async (message) => {
      if (message.kind === "event") throw new Error("the bus went away after the append");
    };
    expect((await callTool(a.url, caller, "tell", { sessionId, text: "one" })).json).toMatchObject({
      result: { isError: true },
    });
    a.beforePublish = undefined;
    expect(resultText(await callTool(a.url, caller, "tell", { sessionId, text: "two" }))).toBe("true");
    const told = await readTold(stream.sse, "two");
    expect(told.map((event) => toldText(event.data))).toEqual(["one", "two"]);
    const [first, second] = told.map((event) => Number(event.id!.split("/")[1]));
    expect(second).toBe(first! + 1);
  });

  it.each(CLIENTS)(
    "a $name client whose GET stream B closes for want of its log resumes on A and misses nothing",
    async (factory) => {
      const { a, b, relay } = await pair();
      // The client reaches B first; its resumption goes to A, whose event log is reachable.
      const proxy = await startSwitchProxy([b.url, a.url]);
      open.push(proxy);
      const told: unknown[] = [];
      const client = await factory.connect(proxy.url, { onLog: (message) => void told.push(message.data) });
      open.push(client);
      const sessionId = client.sessionId!;
      const instanceOf = (instance: Instance): string => instance.handler.engine.services.sessions!.instance;
      await expect.poll(async () => (await b.sessionData(sessionId))?.streamInstance).toBe(instanceOf(b));
      const caller = await openSession(a.url);
      expect(resultText(await callTool(a.url, caller, "tell", { sessionId, text: "one" }))).toBe("true");
      await expect.poll(() => told).toEqual(["one"]);

      proxy.routeTo(1);
      await loseTwoThenSendThree(a, b, relay, sessionId);
      await expect.poll(() => told, { timeout: 5_000 }).toEqual(["one", "two", "three"]);
      await expect.poll(async () => (await a.sessionData(sessionId))?.streamInstance).toBe(instanceOf(a));
      expect(client.sent.some((sent) => sent.method === "GET" && sent.lastEventId !== null)).toBe(true);
      expect(resultText(await callTool(a.url, caller, "tell", { sessionId, text: "four" }))).toBe("true");
      await expect.poll(() => told).toEqual(["one", "two", "three", "four"]);
    },
  );
});
