/**
 * A legacy session's GET stream and lifetime across two instances on one Redis (h3 v2 and v1): a
 * GET stream begun on A and dropped resumes on B with `Last-Event-ID` — A alive or dead — every
 * missed event once, in order, and B holds it from then on; a DELETE on B ends what A holds of
 * the session; a session whose only activity is a GET stream open on A does not expire.
 */
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { CLIENTS } from "./helpers/clients.ts";
import { HOSTS } from "./helpers/hosts.ts";
import { startRedis, type RunningRedis } from "./helpers/redis-server.ts";
import {
  callTool,
  getStream,
  openCall,
  openSession,
  resultText,
  startInstance,
  toldText,
  type Instance,
  type InstanceOptions,
} from "./helpers/routing-instances.ts";
import { startRoundRobin } from "./helpers/round-robin.ts";
import { startSwitchProxy } from "./helpers/switch-proxy.ts";
import { post, send } from "./helpers/rpc.ts";
import { sleep } from "./helpers/wait.ts";
import { createClient } from "redis";

let redis: RunningRedis;
beforeAll(async () => {
  redis = await startRedis();
});
afterAll(async () => {
  await redis?.stop();
});

let prefixes = 0;

describe.each(HOSTS)("legacy GET streams and session ends across two %s instances", (host) => {
  const open: { close(): Promise<void> }[] = [];
  afterEach(async () => {
    for (const item of open.splice(0).reverse()) await item.close().catch(() => {});
  });

  async function pair(options?: InstanceOptions): Promise<{ a: Instance; b: Instance; prefix: string }> {
    const prefix = `s${++prefixes}:`;
    const a = await startInstance(host, redis.url, prefix, "A", options);
    const b = await startInstance(host, redis.url, prefix, "B", options);
    open.push({ close: a.stop }, { close: b.stop });
    return { a, b, prefix };
  }

  async function tell(instance: Instance, headers: Record<string, string>, text: string): Promise<void> {
    const sessionId = headers["mcp-session-id"]!;
    expect(resultText(await callTool(instance.url, headers, "tell", { sessionId, text }))).toBe("true");
  }

  for (const aDies of [false, true]) {
    it(`a GET stream begun on A resumes on B, which holds it from then on (A ${aDies ? "dead" : "alive"})`, async () => {
      const { a, b } = await pair();
      const headers = await openSession(a.url);
      const sessionId = headers["mcp-session-id"]!;
      const first = await getStream(a.url, headers);
      await tell(b, headers, "one");
      const seen = await first.sse.next(/notifications\/message/);
      expect(toldText(seen.data)).toBe("one");
      first.sse.close();
      await expect
        .poll(() => a.handler.engine.services.sessions!.live.get(sessionId)?.getStream?.connected)
        .toBe(false);
      if (aDies) await a.stop();
      // Missed while no connection was open: sent from B (kept, then told to the holder) and, while
      // A lives, from A itself.
      await tell(b, headers, "two");
      if (!aDies) await tell(a, headers, "three");
      await tell(b, headers, "four");

      const resumed = await getStream(b.url, headers, seen.id);
      open.push({ close: async () => resumed.sse.close() });
      expect(resumed.response.status).toBe(200);
      const missed = aDies ? ["two", "four"] : ["two", "three", "four"];
      const replayed = [];
      for (const _ of missed) replayed.push(await resumed.sse.next(/notifications\/message/));
      expect(replayed.map((event) => toldText(event.data))).toEqual(missed);
      const first_seq = Number(seen.id!.split("/")[1]);
      expect(replayed.map((event) => Number(event.id!.split("/")[1]))).toEqual(missed.map((_, i) => first_seq + 1 + i));

      // B holds the stream now: live events from either instance continue on it, and A let its channel go.
      const bSessions = b.handler.engine.services.sessions!;
      expect((await b.sessionData(sessionId))?.streamInstance).toBe(bSessions.instance);
      if (!aDies) {
        await expect.poll(() => a.handler.engine.services.sessions!.live.get(sessionId)?.getStream).toBeUndefined();
        await tell(a, headers, "five");
      }
      await tell(b, headers, "six");
      const live = aDies ? ["six"] : ["five", "six"];
      for (const text of live) expect(toldText((await resumed.sse.next(/notifications\/message/)).data)).toBe(text);
      await expect(resumed.sse.next(/notifications\/message/, 300)).rejects.toThrow(/within/);
      // The stream did not end after the replay.
      expect(await resumed.sse.endedWithin(100)).toBe(false);
    });
  }

  it.each(CLIENTS)(
    "a $name client whose GET stream on A drops resumes it on B with Last-Event-ID, missing nothing",
    async (factory) => {
      const { a, b } = await pair({ retryMs: 50 });
      const proxy = await startSwitchProxy([a.url, b.url]);
      open.push(proxy);
      const told: unknown[] = [];
      const client = await factory.connect(proxy.url, { onLog: (message) => void told.push(message.data) });
      open.push(client);
      const sessionId = client.sessionId!;
      const instanceOf = (instance: Instance) => instance.handler.engine.services.sessions!.instance;
      await expect.poll(async () => (await a.sessionData(sessionId))?.streamInstance).toBe(instanceOf(a));
      const caller = await openSession(b.url);
      const tellClient = async (instance: Instance, text: string) =>
        expect(resultText(await callTool(instance.url, caller, "tell", { sessionId, text }))).toBe("true");
      await tellClient(b, "one");
      await expect.poll(() => told).toEqual(["one"]);

      proxy.switchTo(1); // the client's GET stream through A breaks; it reconnects through B
      await tellClient(b, "two");
      await tellClient(a, "three");
      await expect.poll(() => told).toEqual(["one", "two", "three"]);
      await expect.poll(async () => (await b.sessionData(sessionId))?.streamInstance).toBe(instanceOf(b));
      expect(client.sent.some((sent) => sent.method === "GET" && sent.lastEventId !== null)).toBe(true);
      await tellClient(a, "four");
      await expect.poll(() => told).toEqual(["one", "two", "three", "four"]);
    },
  );

  it("a resumption on B from an id the log no longer has, or of another session, is refused", async () => {
    const { a, b } = await pair();
    const headers = await openSession(a.url);
    const other = await openSession(a.url);
    const first = await getStream(a.url, headers);
    open.push({ close: async () => first.sse.close() });
    await tell(b, headers, "one");
    const seen = await first.sse.next(/notifications\/message/);
    const foreign = await send(b.url, "GET", { accept: "text/event-stream", ...other, "last-event-id": seen.id! });
    expect(foreign.status).toBe(400);
    const unknown = await send(b.url, "GET", { accept: "text/event-stream", ...headers, "last-event-id": "get/999" });
    expect(unknown.status).toBe(400);
    // A still holds the stream.
    await tell(b, headers, "two");
    expect(toldText((await first.sse.next(/notifications\/message/)).data)).toBe("two");
  });

  it("a DELETE on B ends the session on A: its GET stream ends, its call is aborted, its elicitation rejected", async () => {
    const { a, b } = await pair();
    const headers = await openSession(a.url, { elicitation: {} });
    const sessionId = headers["mcp-session-id"]!;
    const stream = await getStream(a.url, headers);
    open.push({ close: async () => stream.sse.close() });
    const waiting = callTool(a.url, headers, "wait");
    await a.waitStarted.promise;
    const ask = await openCall(a.url, headers, "ask");
    open.push({ close: async () => ask.sse.close() });
    await ask.sse.next(/elicitation\/create/);
    const live = a.handler.engine.services.sessions!.live.get(sessionId)!;
    expect(live.pending.size).toBe(1);

    expect((await send(b.url, "DELETE", headers)).status).toBe(200);

    expect(await stream.sse.endedWithin(3000)).toBe(true);
    expect(await a.waitAborted.promise).toBeInstanceOf(Error);
    expect(await ask.sse.endedWithin(3000)).toBe(true);
    await waiting;
    expect(live.pending.size).toBe(0);
    expect(a.handler.engine.services.sessions!.live.get(sessionId)).toBeUndefined();
    expect((await callTool(a.url, headers, "where")).status).toBe(404);
  });

  it.each(CLIENTS)(
    "a $name client's terminateSession through a balancer ends the session on both instances",
    async (factory) => {
      const { a, b } = await pair();
      const balancer = await startRoundRobin([a.url, b.url]);
      open.push(balancer);
      const client = await factory.connect(balancer.url);
      open.push(client);
      const sessionId = client.sessionId!;
      // The client's own GET stream is held by one of the instances.
      await expect.poll(async () => (await a.sessionData(sessionId))?.streamInstance).toBeDefined();
      const holders = [a, b].filter((instance) => instance.handler.engine.services.sessions!.live.get(sessionId));
      expect(holders).toHaveLength(1);
      await client.terminateSession();
      for (const instance of [a, b]) {
        await expect.poll(() => instance.handler.engine.services.sessions!.live.get(sessionId)).toBeUndefined();
      }
      expect(await a.sessionData(sessionId)).toBeUndefined();
    },
  );

  it("a session whose GET stream stays open on A, with no request, outlives its idle TTL", async () => {
    const ttlMs = 600;
    const { a, b } = await pair({ sessionTtlMs: ttlMs });
    const kept = await openSession(a.url);
    const idle = await openSession(a.url);
    const stream = await getStream(a.url, kept);
    open.push({ close: async () => stream.sse.close() });
    expect(stream.response.status).toBe(200);
    await sleep(ttlMs * 3);
    // The idle session expired (the TTL is short indeed); the one with an open stream did not.
    expect((await callTool(b.url, idle, "where")).status).toBe(404);
    expect(resultText(await callTool(b.url, kept, "where"))).toBe("B");
    await tell(b, kept, "still here");
    expect(toldText((await stream.sse.next(/notifications\/message/)).data)).toBe("still here");
    // Once the stream closes, its idle time counts again.
    stream.sse.close();
    await sleep(ttlMs * 3);
    expect((await callTool(b.url, kept, "where")).status).toBe(404);
    expect((await post(b.url, { jsonrpc: "2.0", method: "notifications/initialized" }, kept)).status).toBe(404);
  });

  it("a GET stream open on A ends at A's next refresh when its session's key vanished (an end A did not hear of)", async () => {
    const ttlMs = 600;
    const { a, prefix } = await pair({ sessionTtlMs: ttlMs });
    const headers = await openSession(a.url);
    const stream = await getStream(a.url, headers);
    open.push({ close: async () => stream.sse.close() });
    expect(stream.response.status).toBe(200);
    const raw = createClient({ url: redis.url });
    await raw.connect();
    try {
      expect(await raw.del(`${prefix}session:${headers["mcp-session-id"]}`)).toBe(1);
    } finally {
      await raw.close();
    }
    expect(await stream.sse.endedWithin(ttlMs * 3)).toBe(true);
    expect(a.handler.engine.services.sessions!.live.get(headers["mcp-session-id"]!)).toBeUndefined();
  });
});
