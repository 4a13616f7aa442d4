/**
 * Event ids of a stream whose Redis log expired during a silence (h3 v2 and v1, a real Redis, the
 * event store's `ttlMs` at one second so the silence is short): the events after it still arrive,
 * with ids above every earlier one; a resumption from an id after the silence replays exactly what
 * was missed, one from before it gets 400 rather than events under reused ids. A GET stream (raw
 * SSE and both real clients) and a POST response stream.
 */
import { afterAll, afterEach, beforeAll, describe as vitestDescribe, expect, it } from "vitest";
import { z } from "zod";
import { defineMcpHandler, defineTool } from "../src/index.ts";
import { RedisConnection, RedisEventStore, RedisSessionStore } from "../src/_entries/redis.ts";
import { CLIENTS } from "./helpers/clients.ts";
import { deferred, type Deferred } from "./helpers/deferred.ts";
import { HOSTS, startHost, type HostName } from "./helpers/hosts.ts";
import type { LiveSse } from "./helpers/live-sse.ts";
import { startRedis, type RunningRedis } from "./helpers/redis-server.ts";
import { callTool, getStream, openCall, openSession, resultText, toldText } from "./helpers/routing-instances.ts";
import type { SseEvent } from "./helpers/sse.ts";
import { REDIS, unavailable } from "./helpers/services.ts";
import { redisKeyNames } from "./helpers/redis-key-names.ts";

// Every suite of this file needs redis-server: skipped, said loudly, where it is missing (helpers/services.ts).
const describe = vitestDescribe.skipIf(unavailable(REDIS));

let redis: RunningRedis;
beforeAll(async () => {
  redis = await startRedis();
});
afterAll(async () => {
  await redis?.stop();
});

/** The event log's TTL here: a silence longer than this empties it. */
const EVENT_TTL_MS = 1_000;
/** A hang guard for the log to expire, far above the TTL. */
const EXPIRY_GUARD_MS = 15_000;

let prefixes = 0;

interface Server {
  url: string;
  prefix: string;
  connection: RedisConnection;
  /** Lets step `step` of the running `paced` call send its progress. */
  release(step: number): void;
}

/** The sequence number of an event id of the library's stores. */
const seqOf = (id: string): number => Number(id.slice(id.lastIndexOf("/") + 1));

describe.each(HOSTS)("a stream quiet for longer than its Redis event log's TTL, on %s", (host: HostName) => {
  const open: { close(): Promise<void> }[] = [];
  afterEach(async () => {
    for (const item of open.splice(0).reverse()) await item.close().catch(() => {});
  });

  async function start(): Promise<Server> {
    const prefix = `t${++prefixes}:`;
    const connection = new RedisConnection({ url: redis.url, prefix });
    const gates: Deferred[] = [];
    const gate = (step: number): Deferred => (gates[step] ??= deferred());
    const handler = defineMcpHandler({
      name: "quiet",
      version: "1.0.0",
      sessions: { store: new RedisSessionStore({ connection }) },
      events: new RedisEventStore({ connection, ttlMs: EVENT_TTL_MS }),
      tools: [
        defineTool({
          name: "tell",
          description: "Sends a log message to the GET stream of a session",
          input: z.object({ sessionId: z.string(), text: z.string() }),
          handler: async (event, { sessionId, text }) =>
            String(
              await event.context.mcp!.notifySession(sessionId, "notifications/message", { level: "info", data: text }),
            ),
        }),
        defineTool({
          name: "paced",
          description: "Reports progress 1..steps, each once the test releases it",
          input: z.object({ steps: z.number().int().min(1).max(10) }),
          handler: async (event, { steps }) => {
            for (let step = 1; step <= steps; step++) {
              await gate(step).promise;
              await event.context.mcp!.progress(step, steps);
            }
            return `${steps} steps`;
          },
        }),
      ],
    });
    const server = await startHost(host, handler);
    open.push(connection, { close: () => handler.close() }, server);
    return { url: server.url, prefix, connection, release: (step) => gate(step).resolve() };
  }

  /** Waits (a hang guard, not a timing) until the session has nothing left in the event log: its TTL ran out. */
  async function logExpired(server: Server, sessionId: string): Promise<void> {
    const client = await server.connection.client();
    const pattern = `${redisKeyNames(server.prefix).session(sessionId)}:*`;
    await expect.poll(async () => (await client.keys(pattern)).length, { timeout: EXPIRY_GUARD_MS }).toBe(0);
  }

  async function tell(server: Server, sessionId: string, text: string): Promise<void> {
    const caller = await openSession(server.url);
    expect(resultText(await callTool(server.url, caller, "tell", { sessionId, text }))).toBe("true");
  }

  /** The told messages `sse` delivers until `last`. */
  async function readTold(sse: LiveSse, last: string): Promise<SseEvent[]> {
    const events: SseEvent[] = [];
    for (;;) {
      const event = await sse.next(/notifications\/message/);
      events.push(event);
      if (toldText(event.data) === last) return events;
    }
  }

  /** A resumption expected to be refused: its status and body. */
  async function refusedResume(server: Server, headers: Record<string, string>, lastEventId: string) {
    const response = await fetch(server.url, {
      method: "GET",
      headers: { accept: "text/event-stream", ...headers, "last-event-id": lastEventId },
    });
    return { status: response.status, text: await response.text() };
  }

  it("a GET stream: events after the silence arrive with higher ids, and a resumption replays exactly the missed ones", async () => {
    const server = await start();
    const headers = await openSession(server.url);
    const sessionId = headers["mcp-session-id"]!;
    const first = await getStream(server.url, headers);
    open.push({ close: async () => first.sse.close() });
    expect(first.response.status).toBe(200);
    await tell(server, sessionId, "one");
    const one = await first.sse.next(/notifications\/message/);
    expect(toldText(one.data)).toBe("one");

    await logExpired(server, sessionId);
    await tell(server, sessionId, "two");
    const two = await first.sse.next(/notifications\/message/);
    expect(toldText(two.data)).toBe("two");
    expect(seqOf(two.id!)).toBeGreaterThan(seqOf(one.id!));

    // The client drops; three and four are kept for it.
    first.sse.close();
    await tell(server, sessionId, "three");
    await tell(server, sessionId, "four");
    // From before the silence: those events are gone, and that is said, rather than replaying others under reused ids.
    const stale = await refusedResume(server, headers, one.id!);
    expect(stale.status).toBe(400);
    expect(stale.text).toContain("no longer available");

    const resumed = await getStream(server.url, headers, two.id!);
    open.push({ close: async () => resumed.sse.close() });
    expect(resumed.response.status).toBe(200);
    const replayed = await readTold(resumed.sse, "four");
    expect(replayed.map((event) => toldText(event.data))).toEqual(["three", "four"]);
    expect(replayed.map((event) => event.id)).toEqual([1, 2].map((step) => `get/${seqOf(two.id!) + step}`));
    await tell(server, sessionId, "five");
    const five = await resumed.sse.next(/notifications\/message/);
    expect(toldText(five.data)).toBe("five");
    expect(seqOf(five.id!)).toBe(seqOf(two.id!) + 3);
  });

  it("a POST response stream: progress after the silence has higher ids, and a resumption replays the rest once", async () => {
    const server = await start();
    const headers = await openSession(server.url);
    const sessionId = headers["mcp-session-id"]!;
    // The answer turns into an event stream with its first progress.
    const calling = openCall(server.url, headers, "paced", undefined, { steps: 4 }, { progressToken: "p" });
    server.release(1);
    const call = await calling;
    open.push({ close: async () => call.sse.close() });
    const p1 = await call.sse.next(/notifications\/progress/);
    expect(JSON.parse(p1.data)).toMatchObject({ params: { progress: 1 } });

    await logExpired(server, sessionId);
    server.release(2);
    const p2 = await call.sse.next(/notifications\/progress/);
    expect(JSON.parse(p2.data)).toMatchObject({ params: { progress: 2 } });
    const streamId = p1.id!.slice(0, p1.id!.lastIndexOf("/"));
    expect(p2.id!.startsWith(`${streamId}/`)).toBe(true);
    expect(seqOf(p2.id!)).toBeGreaterThan(seqOf(p1.id!));

    // The client drops; the call goes on and its last events are kept.
    call.sse.close();
    server.release(3);
    server.release(4);
    const stale = await refusedResume(server, headers, p1.id!);
    expect(stale.status).toBe(400);
    expect(stale.text).toContain("no longer available");

    const resumed = await getStream(server.url, headers, p2.id!);
    open.push({ close: async () => resumed.sse.close() });
    expect(resumed.response.status).toBe(200);
    const rest: SseEvent[] = [];
    for (;;) {
      const event = await resumed.sse.next(/"(progress|result)"/);
      rest.push(event);
      if (event.data.includes('"result"')) break;
    }
    expect(rest.map((event) => JSON.parse(event.data) as Record<string, unknown>)).toEqual([
      expect.objectContaining({ params: expect.objectContaining({ progress: 3 }) }),
      expect.objectContaining({ params: expect.objectContaining({ progress: 4 }) }),
      expect.objectContaining({ id: call.id, result: expect.objectContaining({ content: [expect.anything()] }) }),
    ]);
    expect(rest.map((event) => event.id)).toEqual([1, 2, 3].map((step) => `${streamId}/${seqOf(p2.id!) + step}`));
    expect(await resumed.sse.endedWithin(5_000)).toBe(true);
  });

  it.each(CLIENTS)(
    "a $name client's GET stream still gets the notifications sent after the silence",
    async (factory) => {
      const server = await start();
      const told: unknown[] = [];
      const client = await factory.connect(server.url, { onLog: (message) => void told.push(message.data) });
      open.push(client);
      const sessionId = client.sessionId!;
      // The client opens its GET stream by itself.
      await expect.poll(() => client.sent.some((sent) => sent.method === "GET" && sent.status === 200)).toBe(true);
      await tell(server, sessionId, "one");
      await expect.poll(() => told).toEqual(["one"]);

      await logExpired(server, sessionId);
      await tell(server, sessionId, "two");
      await tell(server, sessionId, "three");
      await expect.poll(() => told).toEqual(["one", "two", "three"]);
    },
  );
});
