/**
 * Routing of live legacy session state between two instances on one Redis and on a 3-master Redis
 * Cluster (h3 v2 and v1): a GET
 * stream held on A receives what a handler on B sends to it, in the log's order and once each;
 * the answer to an elicitation sent by a call on B is POSTed to A and reaches B; a
 * `notifications/cancelled` POSTed to A aborts the call running on B. Raw HTTP picks the
 * instance; the real clients go through a round-robin balancer.
 */
import { afterEach, describe as vitestDescribe, expect, it } from "vitest";
import { RedisBus, RedisConnection } from "../src/_entries/redis.ts";
import { CLIENTS, type LogMessage } from "./helpers/clients.ts";
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
} from "./helpers/routing-instances.ts";
import { textOf } from "./helpers/results.ts";
import { startRoundRobin } from "./helpers/round-robin.ts";
import { post } from "./helpers/rpc.ts";
import { REDIS, unavailable } from "./helpers/services.ts";

// Every suite of this file needs redis-server: skipped, said loudly, where it is missing (helpers/services.ts).
const describe = vitestDescribe.skipIf(unavailable(REDIS));

/** This run's keys only: one Redis may be shared (`REDIS_URL`) and hold what other runs left there. */
const run = `${process.pid}-${Date.now()}`;
let prefixes = 0;

describe.each(REDIS_TARGETS)("over %s", (kind) => {
  const redis = useRedisTarget(kind);

  describe.each(HOSTS)("legacy routing between two %s instances", (host) => {
    const open: { close(): Promise<void> }[] = [];
    afterEach(async () => {
      for (const item of open.splice(0).reverse()) await item.close().catch(() => {});
    });

    async function pair(): Promise<{ a: Instance; b: Instance; prefix: string }> {
      const prefix = `r-${run}-${++prefixes}:`;
      const a = await startInstance(host, redis.options, prefix, "A");
      const b = await startInstance(host, redis.options, prefix, "B");
      open.push({ close: a.stop }, { close: b.stop });
      return { a, b, prefix };
    }

    it("a GET stream held on A gets what handlers on B and A send to it, in the log's order, once each", async () => {
      const { a, b } = await pair();
      const headers = await openSession(a.url);
      const sessionId = headers["mcp-session-id"]!;
      const { response, sse } = await getStream(a.url, headers);
      open.push({ close: async () => sse.close() });
      expect(response.status).toBe(200);
      expect((await a.sessionData(sessionId))?.streamInstance).toBe(a.handler.engine.services.sessions!.instance);

      // Sent from both instances at once: the two write to the one log, and A writes in its order.
      const told = await Promise.all(
        Array.from({ length: 12 }, (_, index) =>
          callTool(index % 2 === 0 ? b.url : a.url, headers, "tell", { sessionId, text: `m${index}` }),
        ),
      );
      for (const answer of told) expect(resultText(answer)).toBe("true");
      const events = [];
      for (let count = 0; count < 12; count++) events.push(await sse.next(/notifications\/message/));
      expect(new Set(events.map((event) => toldText(event.data)))).toEqual(
        new Set(Array.from({ length: 12 }, (_, index) => `m${index}`)),
      );
      const sequence = events.map((event) => Number(event.id!.split("/")[1]));
      const first = sequence[0]!;
      expect(sequence).toEqual(Array.from({ length: 12 }, (_, index) => first + index));
      // Nothing is written twice: no thirteenth message follows.
      await expect(sse.next(/notifications\/message/, 300)).rejects.toThrow(/within/);

      // A list change published on B reaches the stream too (the change feed).
      expect(resultText(await callTool(b.url, headers, "bump"))).toBe("bumped");
      expect(JSON.parse((await sse.next(/list_changed/)).data).method).toBe("notifications/tools/list_changed");
    });

    it.each(CLIENTS)(
      "notifySession on either instance reaches the GET stream of a $name client behind a balancer",
      async (factory) => {
        const { a, b } = await pair();
        const balancer = await startRoundRobin([a.url, b.url]);
        open.push(balancer);
        const logs: LogMessage[] = [];
        const client = await factory.connect(balancer.url, { onLog: (message) => void logs.push(message) });
        open.push(client);
        // The client opens its GET stream by itself after initialize; wait until an instance holds it.
        const sessionId = client.sessionId!;
        await expect.poll(async () => (await a.sessionData(sessionId))?.streamInstance).toBeDefined();
        const caller = await openSession(a.url);
        for (const instance of [a, b]) {
          expect(
            resultText(await callTool(instance.url, caller, "tell", { sessionId, text: `from ${instance.name}` })),
          ).toBe("true");
        }
        await expect.poll(() => logs.map((log) => log.data)).toEqual(["from A", "from B"]);
      },
    );

    it("the answer to an elicitation a call on B sends is POSTed to A and reaches B", async () => {
      const { a, b } = await pair();
      const headers = await openSession(a.url, { elicitation: {} });
      const ask = await openCall(b.url, headers, "ask");
      open.push({ close: async () => ask.sse.close() });
      const request = JSON.parse((await ask.sse.next(/elicitation\/create/)).data) as { id: string };
      expect(request.id).toMatch(/^srv-[0-9a-f]{8}-[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/);
      const answered = await post(
        a.url,
        { jsonrpc: "2.0", id: request.id, result: { action: "accept", content: { name: "Ada" } } },
        headers,
      );
      expect(answered.status).toBe(202);
      const result = JSON.parse((await ask.sse.next(/"result"/)).data) as { result: { content: { text: string }[] } };
      expect(result.result.content[0]!.text).toBe("Ada on B");

      // An id A minted and no longer waits for, and an id of no known shape: 400, as before.
      const own = await openCall(a.url, headers, "ask");
      open.push({ close: async () => own.sse.close() });
      const ownRequest = JSON.parse((await own.sse.next(/elicitation\/create/)).data) as { id: string };
      const reply = { jsonrpc: "2.0", id: ownRequest.id, result: { action: "decline" } };
      expect((await post(a.url, reply, headers)).status).toBe(202);
      expect(JSON.parse((await own.sse.next(/"result"/)).data).result.content[0].text).toBe("decline on A");
      expect((await post(a.url, reply, headers)).status).toBe(400);
      const forged = await post(a.url, { jsonrpc: "2.0", id: "not-ours-1", result: { action: "accept" } }, headers);
      expect(forged.status).toBe(400);
      // Another session cannot answer it: the request on B waits for this session only.
      const stranger = await openSession(a.url, { elicitation: {} });
      const third = await openCall(b.url, headers, "ask");
      open.push({ close: async () => third.sse.close() });
      const thirdRequest = JSON.parse((await third.sse.next(/elicitation\/create/)).data) as { id: string };
      const wrongSession = {
        jsonrpc: "2.0",
        id: thirdRequest.id,
        result: { action: "accept", content: { name: "Eve" } },
      };
      expect((await post(a.url, wrongSession, stranger)).status).toBe(202);
      const rightSession = {
        jsonrpc: "2.0",
        id: thirdRequest.id,
        result: { action: "accept", content: { name: "Bo" } },
      };
      expect((await post(a.url, rightSession, headers)).status).toBe(202);
      expect(JSON.parse((await third.sse.next(/"result"/)).data).result.content[0].text).toBe("Bo on B");
    });

    it.each(CLIENTS)(
      "a $name client behind a balancer answers elicitations whichever instance its answer reaches",
      async (factory) => {
        const { a, b, prefix } = await pair();
        const balancer = await startRoundRobin([a.url, b.url]);
        open.push(balancer);
        // Watches the session channel: some answers must have crossed over.
        const watcher = new RedisBus({ connection: new RedisConnection(redis.options(prefix)) });
        open.push(watcher);
        const forwarded: unknown[] = [];
        await watcher.subscribe("mcp-h3:session", (message) => {
          if ((message as { kind?: string }).kind === "response") forwarded.push(message);
        });
        let asked = 0;
        const client = await factory.connect(balancer.url, {
          onElicit: () => ({ action: "accept", content: { name: `N${++asked}` } }),
        });
        open.push(client);
        const answers: string[] = [];
        for (let call = 0; call < 4; call++) {
          answers.push(textOf(await client.callTool("ask", {})));
          // One more request between calls, so that the next call lands on the other instance.
          await client.callTool("where", {});
        }
        expect(answers.map((answer) => answer.split(" on ")[0])).toEqual(["N1", "N2", "N3", "N4"]);
        expect(new Set(answers.map((answer) => answer.split(" on ")[1]))).toEqual(new Set(["A", "B"]));
        expect(forwarded.length).toBeGreaterThan(0);
      },
    );

    it.each(CLIENTS)(
      "a $name client behind a balancer cancels a call running on the instance its cancellation does not reach",
      async (factory) => {
        const { a, b } = await pair();
        const balancer = await startRoundRobin([a.url, b.url]);
        open.push(balancer);
        const client = await factory.connect(balancer.url);
        open.push(client);
        const abort = new AbortController();
        const call = client.callTool("wait", {}, { signal: abort.signal });
        call.catch(() => {}); // rejected by the abort, awaited below
        const runner = await Promise.race([a.waitStarted.promise.then(() => 0), b.waitStarted.promise.then(() => 1)]);
        // The balancer sends the next request to the other instance: shift it by one when it would not.
        if (balancer.served.length % 2 === runner) {
          await post(
            balancer.url,
            { jsonrpc: "2.0", method: "notifications/initialized" },
            {
              "mcp-session-id": client.sessionId!,
              "mcp-protocol-version": "2025-11-25",
            },
          );
        }
        const before = balancer.served.length;
        abort.abort("the user gave up");
        await expect(call).rejects.toThrow();
        const aborted = await [a, b][runner]!.waitAborted.promise;
        expect(aborted).toBeInstanceOf(Error);
        // The cancellation reached the other instance (the first request after the abort).
        await expect.poll(() => balancer.served.length).toBeGreaterThan(before);
        expect(balancer.served[before]).toBe(1 - runner);
      },
    );

    it("notifications/cancelled POSTed to A aborts the call running on B", async () => {
      const { a, b } = await pair();
      const headers = await openSession(a.url);
      // The call sends nothing before it ends, so its answer's headers come only then.
      const call = callTool(b.url, headers, "wait");
      await b.waitStarted.promise;
      const cancelled = await post(
        a.url,
        { jsonrpc: "2.0", method: "notifications/cancelled", params: { requestId: 100_000, reason: "unknown id" } },
        headers,
      );
      expect(cancelled.status).toBe(202);
      const id = b.handler.engine.services.sessions!.live.get(headers["mcp-session-id"]!)!.inflight.keys().next().value;
      expect(id).toMatch(/^n:\d+$/);
      const requestId = Number(id!.slice(2));
      await post(
        a.url,
        { jsonrpc: "2.0", method: "notifications/cancelled", params: { requestId, reason: "changed my mind" } },
        headers,
      );
      expect(String(await b.waitAborted.promise)).toContain("changed my mind");
      // Its response is not sent: the answer ends without one.
      const answer = await call;
      expect(answer.text).not.toContain("aborted");
      expect(answer.json).toBeUndefined();
    });

    it("a change to a session another instance saved over meanwhile is made again on a fresh copy: both changes stay", async () => {
      const { a, b } = await pair();
      const headers = await openSession(a.url);
      const sessionId = headers["mcp-session-id"]!;
      const onA = a.handler.engine.services.sessions!;
      const onB = b.handler.engine.services.sessions!;
      const stale = (await onA.store.get(sessionId))!;
      const other = (await onB.store.get(sessionId))!;
      other.logLevel = "debug";
      await onB.change(other, () => {});
      let made = 0;
      const saved = await onA.change(stale, (copy) => {
        made++;
        copy.clientInfo = { name: "renamed", version: "2" };
      });
      // Made on the stale copy, refused, then made again on a fresh one.
      expect(made).toBe(2);
      expect(saved).not.toBe(stale);
      const now = await onB.store.get(sessionId);
      expect(now?.logLevel).toBe("debug");
      expect(now?.clientInfo).toEqual({ name: "renamed", version: "2" });
    });

    it("a change to a session that ended meanwhile stores nothing: the session stays ended", async () => {
      const { a, b } = await pair();
      const headers = await openSession(a.url);
      const sessionId = headers["mcp-session-id"]!;
      const onA = a.handler.engine.services.sessions!;
      const stale = (await onA.store.get(sessionId))!;
      await b.handler.engine.services.sessions!.end(sessionId);
      expect(await onA.change(stale, (copy) => void (copy.logLevel = "debug"))).toBe(stale);
      expect(await onA.store.get(sessionId)).toBeUndefined();
    });
  });
});
