/**
 * A legacy session's streams and lifetime across instances on one Redis (h3 v2 and v1) and on a
 * 3-master Redis Cluster (h3 v2): a GET stream begun on A and dropped resumes on B with
 * `Last-Event-ID` — A alive or dead — every missed event once, in order, and B holds it from then
 * on; a POST response stream whose call runs on A, resumed on B, goes on there to the call's
 * response (the call finished first, A closed or killed, two resumptions racing, the client leaving
 * B, the session ending); a DELETE on B ends what A holds of the session; a session whose only
 * activity is a GET stream open on A does not expire.
 */
import { afterEach, describe as vitestDescribe, expect, it } from "vitest";
import { CLIENTS } from "./helpers/clients.ts";
import { HOSTS } from "./helpers/hosts.ts";
import { REDIS_TARGETS, useRedisTarget } from "./helpers/redis-target.ts";
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
import type { LiveSse } from "./helpers/live-sse.ts";
import { sleep } from "./helpers/wait.ts";
import { REDIS, unavailable } from "./helpers/services.ts";
import { redisKeyNames } from "./helpers/redis-key-names.ts";

// Every suite of this file needs redis-server: skipped, said loudly, where it is missing (helpers/services.ts).
const describe = vitestDescribe.skipIf(unavailable(REDIS));

/** This run's keys only: one Redis may be shared (`REDIS_URL`) and hold what other runs left there. */
const run = `${process.pid}-${Date.now()}`;
let prefixes = 0;

/** A followed stream's claim waits this long for the call's instance (`HANDOVER_WAIT_MS`). */
const HANDOVER_WAIT_MS = 3_000;

describe.each(REDIS_TARGETS)("over %s", (kind) => {
  // The host (h3 v2 or v1) never reaches the store: on the cluster one host shows the store's part,
  // and the suite stays affordable (this file is its longest Redis one).
  const hosts = kind === "one Redis" ? HOSTS : HOSTS.slice(0, 1);
  const redis = useRedisTarget(kind);

  describe.each(hosts)("legacy GET streams and session ends across two %s instances", (host) => {
    const open: { close(): Promise<void> }[] = [];
    afterEach(async () => {
      for (const item of open.splice(0).reverse()) await item.close().catch(() => {});
    });

    async function pair(options?: InstanceOptions): Promise<{ a: Instance; b: Instance; prefix: string }> {
      const prefix = `s-${run}-${++prefixes}:`;
      const a = await startInstance(host, redis.options, prefix, "A", options);
      const b = await startInstance(host, redis.options, prefix, "B", options);
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
        expect(replayed.map((event) => Number(event.id!.split("/")[1]))).toEqual(
          missed.map((_, i) => first_seq + 1 + i),
        );

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
      const raw = await redis.watcher();
      expect(await raw.del(redisKeyNames(prefix).session(headers["mcp-session-id"]!))).toBe(1);
      expect(await stream.sse.endedWithin(ttlMs * 3)).toBe(true);
      expect(a.handler.engine.services.sessions!.live.get(headers["mcp-session-id"]!)).toBeUndefined();
    });
  });

  describe.each(hosts)("legacy POST response streams resumed on another %s instance", (host) => {
    const open: { close(): Promise<void> }[] = [];
    afterEach(async () => {
      for (const item of open.splice(0).reverse()) await item.close().catch(() => {});
    });

    async function instances(count: number, options?: InstanceOptions): Promise<Instance[]> {
      const prefix = `p-${run}-${++prefixes}:`;
      const started: Instance[] = [];
      for (const name of ["A", "B", "C"].slice(0, count)) {
        const instance = await startInstance(host, redis.options, prefix, name, options);
        open.push({ close: instance.stop });
        started.push(instance);
      }
      return started;
    }

    const sessionsOf = (instance: Instance) => instance.handler.engine.services.sessions!;
    const kinds = (instance: Instance, kind: string) => instance.published.filter((message) => message.kind === kind);
    const streamKinds = new Set(["claim", "unclaim", "handover"]);
    const streamMessages = (instance: Instance) =>
      instance.published.filter((message) => streamKinds.has(String(message.kind)) || message.streamId !== undefined);

    /** A `steps` call on `instance` read until it has sent `read` progress events; returns the last id. */
    async function stepsCall(instance: Instance, headers: Record<string, string>, steps: number, read: number) {
      const call = await openCall(
        instance.url,
        headers,
        "steps",
        undefined,
        { steps, delayMs: 5, hold: true },
        {
          progressToken: "p",
        },
      );
      open.push({ close: async () => call.sse.close() });
      let lastId = "";
      for (let step = 1; step <= read; step++) {
        const event = await call.sse.next(/notifications\/progress/);
        expect(progressOf(event.data)).toBe(step);
        lastId = event.id!;
      }
      return { ...call, lastId, streamId: lastId.split("/")[0]! };
    }

    function progressOf(data: string): number {
      return (JSON.parse(data) as { params: { progress: number } }).params.progress;
    }

    /** Reads a resumed stream: progress values and event ids until the call's response (or the end). */
    async function readStream(sse: LiveSse, callId: number, until?: number) {
      const progress: number[] = [];
      const ids: string[] = [];
      let response: { result?: { content: { text: string }[] } } | undefined;
      while (until === undefined || progress.at(-1) !== until) {
        const event = await sse.next(new RegExp(`notifications/progress|"id":${callId}`), 8_000).catch(() => undefined);
        if (!event) break;
        ids.push(event.id!);
        const message = JSON.parse(event.data) as { id?: number; params?: { progress: number } };
        if (message.id === callId) {
          response = message as typeof response;
          break;
        }
        progress.push(message.params!.progress);
      }
      return { progress, ids, response };
    }

    /** The event ids follow each other in the stream's log: none missed, none twice. */
    function expectConsecutive(fromId: string, ids: string[]): void {
      const first = Number(fromId.split("/")[1]);
      expect(ids.map((id) => Number(id.split("/")[1]))).toEqual(ids.map((_, index) => first + 1 + index));
    }

    /** The rest of a 6-step call on A after `replayedIds`: progress 4 to 6, its response, every id once, in order. */
    async function expectRestOfSixSteps(sse: LiveSse, call: { id: number; lastId: string }, replayedIds: string[]) {
      const rest = await readStream(sse, call.id);
      expect(rest.progress).toEqual([4, 5, 6]);
      expect(rest.response?.result?.content[0]!.text).toBe("6 steps on A");
      expectConsecutive(call.lastId, [...replayedIds, ...rest.ids]);
    }

    async function dropped(instance: Instance, sessionId: string, call: { sse: LiveSse; streamId: string }) {
      call.sse.close();
      await expect
        .poll(() => sessionsOf(instance).live.get(sessionId)?.streams.get(call.streamId)?.connected)
        .toBe(false);
    }

    async function resumeOn(instance: Instance, headers: Record<string, string>, lastId: string) {
      const resumed = await getStream(instance.url, headers, lastId);
      open.push({ close: async () => resumed.sse.close() });
      expect(resumed.response.status).toBe(200);
      return resumed.sse;
    }

    const handedOver = (instance: Instance, open: boolean) =>
      kinds(instance, "handover").filter((message) => message.open === open).length;

    it("a POST stream begun on A and dropped resumes on B: the missed events, then the call's later events and its response, once each", async () => {
      const [a, b] = await instances(2);
      const headers = await openSession(a.url);
      const sessionId = headers["mcp-session-id"]!;
      const call = await stepsCall(a, headers, 10, 3);
      await dropped(a, sessionId, call);
      const sse = await resumeOn(b, headers, call.lastId);
      const replayed = await readStream(sse, call.id, 5);
      expect(replayed.progress).toEqual([4, 5]);
      // A hands the stream over; the second half of the call runs only now, so it reaches B live.
      await expect.poll(() => handedOver(a, true)).toBe(1);
      expect(sessionsOf(a).live.get(sessionId)!.streams.get(call.streamId)!.forwarded).toBe(true);
      a.stepsGate.resolve();
      const rest = await readStream(sse, call.id);
      expect(rest.progress).toEqual([6, 7, 8, 9, 10]);
      expect(rest.response?.result?.content[0]!.text).toBe("10 steps on A");
      expectConsecutive(call.lastId, [...replayed.ids, ...rest.ids]);
      expect(await sse.endedWithin(3000)).toBe(true);
      // Nothing is left of the stream on either instance, and B claimed once.
      await expect.poll(() => sessionsOf(b).live.get(sessionId)).toBeUndefined();
      await expect.poll(() => sessionsOf(a).live.get(sessionId)).toBeUndefined();
      expect(kinds(b, "claim")).toHaveLength(1);
      expect(kinds(b, "unclaim")).toHaveLength(0);
      const handed = kinds(a, "event").map((message) => message.message as { params?: { progress: number } });
      expect(handed.map((message) => message.params?.progress ?? "response")).toEqual([6, 7, 8, 9, 10, "response"]);
    });

    it("a stream resumed on the instance running its call puts nothing on the bus", async () => {
      const [a, b] = await instances(2);
      const headers = await openSession(a.url);
      const sessionId = headers["mcp-session-id"]!;
      const call = await stepsCall(a, headers, 6, 1);
      await dropped(a, sessionId, call);
      const sse = await resumeOn(a, headers, call.lastId);
      a.stepsGate.resolve();
      const rest = await readStream(sse, call.id);
      expect(rest.progress).toEqual([2, 3, 4, 5, 6]);
      expect(rest.response?.result?.content[0]!.text).toBe("6 steps on A");
      expect(await sse.endedWithin(3000)).toBe(true);
      expect(streamMessages(a)).toEqual([]);
      expect(streamMessages(b)).toEqual([]);
    });

    it("a replay on B that ends with the call's response ends the stream without a claim", async () => {
      const [a, b] = await instances(2);
      const headers = await openSession(a.url);
      const sessionId = headers["mcp-session-id"]!;
      const call = await stepsCall(a, headers, 4, 1);
      await dropped(a, sessionId, call);
      a.stepsGate.resolve();
      await expect.poll(() => sessionsOf(a).live.get(sessionId)).toBeUndefined();
      const sse = await resumeOn(b, headers, call.lastId);
      const rest = await readStream(sse, call.id);
      expect(rest.progress).toEqual([2, 3, 4]);
      expect(rest.response?.result?.content[0]!.text).toBe("4 steps on A");
      expectConsecutive(call.lastId, rest.ids);
      expect(await sse.endedWithin(1000)).toBe(true);
      expect(streamMessages(b)).toEqual([]);
      expect(sessionsOf(b).live.get(sessionId)).toBeUndefined();
    });

    it("a claim that reaches A after the call finished: A says so, and B writes the rest from the log and ends", async () => {
      const [a, b] = await instances(2);
      const headers = await openSession(a.url);
      const sessionId = headers["mcp-session-id"]!;
      const call = await stepsCall(a, headers, 6, 1);
      await dropped(a, sessionId, call);
      // B's claim is held back until the call on A has finished.
      let releaseClaim!: () => void;
      const claimHeld = new Promise<void>((resolve) => (releaseClaim = resolve));
      b.beforePublish = (message) => (message.kind === "claim" ? claimHeld : Promise.resolve());
      const sse = await resumeOn(b, headers, call.lastId);
      const replayed = await readStream(sse, call.id, 3);
      expect(replayed.progress).toEqual([2, 3]);
      a.stepsGate.resolve();
      await expect.poll(() => sessionsOf(a).live.get(sessionId)).toBeUndefined();
      releaseClaim();
      await expectRestOfSixSteps(sse, call, replayed.ids);
      expect(await sse.endedWithin(1000)).toBe(true);
      expect(handedOver(a, false)).toBe(1);
      expect(kinds(a, "event")).toHaveLength(0);
      await expect.poll(() => sessionsOf(b).live.get(sessionId)).toBeUndefined();
    });

    it("a cancelled call's stream, resumed on A or on B, replays what was kept and ends at once", async () => {
      const [a, b] = await instances(2);
      const headers = await openSession(a.url);
      const sessionId = headers["mcp-session-id"]!;
      const call = await stepsCall(a, headers, 6, 2);
      await dropped(a, sessionId, call);
      const cancel = { jsonrpc: "2.0", method: "notifications/cancelled", params: { requestId: call.id } };
      expect((await post(b.url, cancel, headers)).status).toBe(202);
      // The stream ended (the handler itself still waits at its gate).
      await expect.poll(() => sessionsOf(a).live.get(sessionId)?.streams.get(call.streamId)).toBeUndefined();
      // The priming event, two before the second progress: everything after it.
      const firstId = `${call.streamId}/${Number(call.lastId.split("/")[1]) - 2}`;
      for (const instance of [a, b]) {
        const started = Date.now();
        const sse = await resumeOn(instance, headers, firstId);
        const rest = await readStream(sse, call.id);
        // The first half of the call (up to its gate) was kept before it was cancelled.
        expect(rest.progress).toEqual([1, 2, 3]);
        expect(rest.response).toBeUndefined();
        expect(await sse.endedWithin(HANDOVER_WAIT_MS)).toBe(true);
        // A answered B's claim ("nothing more"): B did not wait for the claim to time out.
        expect(Date.now() - started).toBeLessThan(HANDOVER_WAIT_MS);
      }
      expect(kinds(b, "claim")).toHaveLength(1);
      expect(handedOver(a, false)).toBe(1);
      expect(kinds(a, "claim")).toHaveLength(0);
    });

    it("A killed before it answers the claim: B writes what the log kept and ends the stream; a later resumption replays the same", async () => {
      const [a, b] = await instances(2);
      const headers = await openSession(a.url);
      const sessionId = headers["mcp-session-id"]!;
      const call = await stepsCall(a, headers, 6, 1);
      await dropped(a, sessionId, call);
      await a.kill();
      const started = Date.now();
      const sse = await resumeOn(b, headers, call.lastId);
      const rest = await readStream(sse, call.id);
      expect(rest.progress).toEqual([2, 3]);
      expect(rest.response).toBeUndefined();
      expect(await sse.endedWithin(HANDOVER_WAIT_MS + 2000)).toBe(true);
      expect(Date.now() - started).toBeGreaterThanOrEqual(HANDOVER_WAIT_MS - 100);
      await expect.poll(() => sessionsOf(b).live.get(sessionId)).toBeUndefined();
      const again = await resumeOn(b, headers, rest.ids.at(-1)!);
      expect(await again.endedWithin(HANDOVER_WAIT_MS + 2000)).toBe(true);
    });

    for (const death of ["closed", "killed"] as const) {
      it(`A ${death} while B follows its call: B's stream ends without the response`, async () => {
        const keepAliveMs = 300;
        const [a, b] = await instances(2, { keepAliveMs });
        const headers = await openSession(a.url);
        const sessionId = headers["mcp-session-id"]!;
        const call = await stepsCall(a, headers, 6, 1);
        await dropped(a, sessionId, call);
        const sse = await resumeOn(b, headers, call.lastId);
        expect((await readStream(sse, call.id, 3)).progress).toEqual([2, 3]);
        await expect.poll(() => handedOver(a, true)).toBe(1);
        // Closed, A says that nothing more comes; killed, it says nothing, and B's next check finds it gone.
        await (death === "closed" ? a.stop() : a.kill());
        expect(await sse.endedWithin(death === "closed" ? 2000 : keepAliveMs + HANDOVER_WAIT_MS + 2000)).toBe(true);
        if (death === "closed") expect(handedOver(a, false)).toBe(1);
        else expect(kinds(b, "claim").length).toBeGreaterThanOrEqual(2);
        await expect.poll(() => sessionsOf(b).live.get(sessionId)).toBeUndefined();
      });
    }

    it("A closed (a rolling restart) while its call's client is away: A's log stays, and B replays what the client missed", async () => {
      const [a, b] = await instances(2);
      const headers = await openSession(a.url);
      const sessionId = headers["mcp-session-id"]!;
      const call = await stepsCall(a, headers, 6, 1);
      await dropped(a, sessionId, call);
      // The call goes on to its gate, logging progress 2 and 3 that nobody reads.
      const client = await a.connection.client();
      const logged = async () =>
        (
          await client.xRange(
            `${redisKeyNames(a.connection.prefix).session(sessionId)}:stream:${call.streamId}`,
            "-",
            "+",
          )
        )?.length ?? 0;
      await expect.poll(logged).toBeGreaterThanOrEqual(4); // priming, then progress 1 to 3
      await a.stop();
      const sse = await resumeOn(b, headers, call.lastId);
      const rest = await readStream(sse, call.id);
      expect(rest.progress).toEqual([2, 3]);
      expectConsecutive(call.lastId, rest.ids);
      // The call ended with A: no result comes (at most the error A answered as it closed), and the stream ends.
      expect(rest.response?.result).toBeUndefined();
      expect(await sse.endedWithin(HANDOVER_WAIT_MS + 2000)).toBe(true);
    });

    it("B checks on A each keep-alive interval while it follows a long call", async () => {
      const [a, b] = await instances(2, { keepAliveMs: 200 });
      const headers = await openSession(a.url);
      const sessionId = headers["mcp-session-id"]!;
      const call = await stepsCall(a, headers, 4, 1);
      await dropped(a, sessionId, call);
      const sse = await resumeOn(b, headers, call.lastId);
      expect((await readStream(sse, call.id, 2)).progress).toEqual([2]);
      await expect.poll(() => handedOver(a, true)).toBeGreaterThanOrEqual(3);
      // Each check was answered: the stream goes on, and A hands over each further event once.
      expect(await sse.endedWithin(50)).toBe(false);
      a.stepsGate.resolve();
      const rest = await readStream(sse, call.id);
      expect(rest.progress).toEqual([3, 4]);
      expect(rest.response?.result?.content[0]!.text).toBe("4 steps on A");
      expect(kinds(a, "event")).toHaveLength(3);
    });

    for (const second of ["C", "B"] as const) {
      it(`two resumptions of one stream (on B, then on ${second}): the first ends, the second gets the rest once`, async () => {
        const [a, b, c] = await instances(3);
        const headers = await openSession(a.url);
        const sessionId = headers["mcp-session-id"]!;
        const call = await stepsCall(a, headers, 6, 1);
        await dropped(a, sessionId, call);
        const first = await resumeOn(b, headers, call.lastId);
        expect((await readStream(first, call.id, 3)).progress).toEqual([2, 3]);
        await expect.poll(() => handedOver(a, true)).toBe(1);
        const next = second === "C" ? c! : b;
        const sse = await resumeOn(next, headers, call.lastId);
        const replayed = await readStream(sse, call.id, 3);
        expect(replayed.progress).toEqual([2, 3]);
        expect(await first.endedWithin(3000)).toBe(true);
        await expect.poll(() => handedOver(a, true)).toBe(2);
        a.stepsGate.resolve();
        await expectRestOfSixSteps(sse, call, replayed.ids);
        expect(await sse.endedWithin(3000)).toBe(true);
        // The first follower was told that nothing more comes for it; A handed every event over once.
        expect(handedOver(a, false)).toBe(1);
        expect(kinds(a, "event")).toHaveLength(4);
        await expect.poll(() => sessionsOf(b).live.get(sessionId)).toBeUndefined();
        await expect.poll(() => sessionsOf(next).live.get(sessionId)).toBeUndefined();
      });
    }

    it("the client leaving B: B lets the stream go, A stops handing events over and keeps logging them", async () => {
      const [a, b] = await instances(2);
      const headers = await openSession(a.url);
      const sessionId = headers["mcp-session-id"]!;
      const call = await stepsCall(a, headers, 6, 1);
      await dropped(a, sessionId, call);
      const sse = await resumeOn(b, headers, call.lastId);
      const replayed = await readStream(sse, call.id, 3);
      await expect.poll(() => handedOver(a, true)).toBe(1);
      sse.close();
      await expect.poll(() => sessionsOf(b).live.get(sessionId)).toBeUndefined();
      expect(kinds(b, "unclaim")).toHaveLength(1);
      const channel = sessionsOf(a).live.get(sessionId)!.streams.get(call.streamId)!;
      await expect.poll(() => channel.forwarded).toBe(false);
      a.stepsGate.resolve();
      await expect.poll(() => sessionsOf(a).live.get(sessionId)).toBeUndefined();
      expect(kinds(a, "event")).toHaveLength(0);
      // The events went on being kept: a resumption replays them, with the response.
      const again = await resumeOn(b, headers, replayed.ids.at(-1)!);
      const rest = await readStream(again, call.id);
      expect(rest.progress).toEqual([4, 5, 6]);
      expect(rest.response?.result?.content[0]!.text).toBe("6 steps on A");
    });

    it("the session ending (DELETE on A) ends the stream B follows, and B forgets it", async () => {
      const [a, b] = await instances(2);
      const headers = await openSession(a.url);
      const sessionId = headers["mcp-session-id"]!;
      const call = await stepsCall(a, headers, 6, 1);
      await dropped(a, sessionId, call);
      const sse = await resumeOn(b, headers, call.lastId);
      await readStream(sse, call.id, 3);
      await expect.poll(() => handedOver(a, true)).toBe(1);
      expect((await send(a.url, "DELETE", headers)).status).toBe(200);
      expect(await sse.endedWithin(3000)).toBe(true);
      await expect.poll(() => sessionsOf(b).live.get(sessionId)).toBeUndefined();
      expect(sessionsOf(a).live.get(sessionId)).toBeUndefined();
    });
  });
});
