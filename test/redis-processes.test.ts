/**
 * Two fixture processes over one Redis, as a deployment runs them (`REDIS_URL=… npm run fixture`),
 * and again over a 3-master Redis Cluster (`REDIS_CLUSTER_URLS=…`):
 * instance A on h3 v2 and instance B on h3 v1, a round-robin balancer without sticky sessions in
 * front. The real 1.x and 2.x clients go through the balancer; raw HTTP chooses the instance where
 * a behaviour needs it, in both directions (A→B and B→A), and on one instance as the control that
 * the test itself can pass. Needs `npm run build` (the processes run the built package).
 */
import { afterAll, beforeAll, describe as vitestDescribe, expect, it } from "vitest";
import { CLIENTS, type ClientFactory, type TestClient } from "./helpers/clients.ts";
import { startFixtureProcess, type FixtureProcess } from "./helpers/fixture-process.ts";
import {
  callText,
  openPostStream,
  openRawSession,
  openSessionGet,
  postInSession,
  toolCall,
} from "./helpers/legacy-raw.ts";
import { MODERN_MODES, connectModern } from "./helpers/modern-clients.ts";
import { guardProcess } from "./helpers/process-guard.ts";
import { REDIS_TARGETS, startRedisTarget, type RedisTarget, type RedisTargetKind } from "./helpers/redis-target.ts";
import { textOf } from "./helpers/results.ts";
import { startRoundRobin, type RoundRobin } from "./helpers/round-robin.ts";
import { sleep } from "./helpers/wait.ts";
import { REDIS, unavailable } from "./helpers/services.ts";

// Every suite of this file needs redis-server: skipped, said loudly, where it is missing (helpers/services.ts).
const describe = vitestDescribe.skipIf(unavailable(REDIS));

guardProcess();

let redis: RedisTarget;
let a: FixtureProcess;
let b: FixtureProcess;
let balancer: RoundRobin;

/** Both processes over `kind`, and the balancer. */
async function startAll(kind: RedisTargetKind): Promise<void> {
  redis = await startRedisTarget(kind);
  const prefix = `processes-${process.pid}-${Date.now()}:`;
  [a, b] = await Promise.all([
    startFixtureProcess({ redis: redis.env, prefix, instance: "A", h3: "v2" }),
    startFixtureProcess({ redis: redis.env, prefix, instance: "B", h3: "v1" }),
  ]);
  balancer = await startRoundRobin([a.url, b.url]);
}

async function stopAll(): Promise<void> {
  await balancer?.close();
  await Promise.all([a?.kill(), b?.kill()]);
  await redis?.stop();
}

const CONTACT = { username: "ada", email: "ada@example.com" };

/** Two elicitations (`between` runs before the second) and a call with progress, with a real client at `url`. */
async function elicitAndProgress(
  factory: ClientFactory,
  url: string,
  between: (client: TestClient) => Promise<void>,
): Promise<void> {
  const client = await factory.connect(url, { onElicit: () => ({ action: "accept", content: CONTACT }) });
  try {
    for (let round = 0; round < 2; round++) {
      if (round === 1) await between(client);
      const elicited = await client.callTool("test_elicitation", { message: "Who are you?" });
      expect(textOf(elicited)).toBe(`User response: action=accept, content=${JSON.stringify(CONTACT)}`);
    }
    const progress: number[] = [];
    const onprogress = (update: { progress: number }): void => void progress.push(update.progress);
    const done = await client.callTool("test_progress_steps", { steps: 5, delayMs: 0 }, { onprogress });
    expect(textOf(done)).toMatch(/^steps 5 on [AB]$/);
    expect(progress).toEqual([1, 2, 3, 4, 5]);
  } finally {
    await client.close();
  }
}

let labels = 0;

describe.each(REDIS_TARGETS)("over %s", (kind) => {
  beforeAll(() => startAll(kind), 60_000);
  afterAll(stopAll);

  describe("two fixture processes, behind a round-robin balancer", () => {
    it.each(CLIENTS)("$name: initialize on one, calls on both, in the one session", async (factory) => {
      const before = balancer.served.length;
      const client = await factory.connect(balancer.url);
      try {
        const answers = new Set<string>();
        for (let call = 0; call < 4; call++) answers.add(textOf(await client.callTool("test_instance_name", {})));
        expect(answers).toEqual(new Set(["A", "B"]));
        expect(new Set(balancer.served.slice(before))).toEqual(new Set([0, 1]));
      } finally {
        await client.close();
      }
    });

    it.each(CLIENTS)(
      "$name: elicitation and progress through the balancer, whichever instance each POST reaches",
      async (factory) => {
        // Round two starts one request later in the rotation: the call and its answer swap instances.
        await elicitAndProgress(
          factory,
          balancer.url,
          async (client) => void (await client.callTool("test_instance_name", {})),
        );
      },
    );

    it.each(CLIENTS)("$name: the same on one instance (the control: the test itself can pass)", async (factory) => {
      await elicitAndProgress(factory, a.url, async () => {});
    });

    it("a modern subscriptions/listen stream on A receives the toolsChanged a call on B publishes", async () => {
      const pinned = MODERN_MODES.find((mode) => mode.name === "pinned") ?? MODERN_MODES[0]!;
      const listener = await connectModern(a.url, pinned);
      const caller = await connectModern(b.url, pinned);
      const changes: unknown[] = [];
      listener.client.setNotificationHandler("notifications/tools/list_changed", (n) => void changes.push(n));
      const subscription = await listener.client.listen({ toolsListChanged: true });
      try {
        const answer = await caller.client.callTool({ name: "test_trigger_tool_change", arguments: {} });
        expect(textOf(answer)).toBe("Tools changed");
        await expect.poll(() => changes.length, { timeout: 5_000 }).toBe(1);
      } finally {
        await subscription.close();
        await Promise.all([listener.close(), caller.close()]);
      }
    });
  });

  // Each behaviour in both directions: X is where the session's stream (or the first request) is, Y the other.
  describe.each([
    ["A (h3 v2)", "B (h3 v1)", () => [a, b] as const],
    ["B (h3 v1)", "A (h3 v2)", () => [b, a] as const],
    // The controls: the same tests on one instance pass, so a failure above is the crossing's.
    ["A (h3 v2)", "A too (one instance, the control)", () => [a, a] as const],
    ["B (h3 v1)", "B too (one instance, the control)", () => [b, b] as const],
  ])("raw HTTP across instances: X = %s, Y = %s", (_x, _y, pick) => {
    it("a GET stream held on X receives the notification a call on Y sends to the session", async () => {
      const [x, y] = pick();
      const session = await openRawSession(x.url);
      const get = await openSessionGet(x.url, session);
      try {
        expect(get.response.status).toBe(200);
        expect(await callText(y.url, session, "test_notify_session", { text: "from Y" })).toBe("delivered");
        const event = await get.sse.next(/notifications\/message/);
        expect(JSON.parse(event.data).params).toEqual({ level: "info", logger: y.instance, data: "from Y" });
      } finally {
        get.sse.close();
      }
    });

    it("an elicitation a call on Y sends is answered by a POST that lands on X", async () => {
      const [x, y] = pick();
      const session = await openRawSession(x.url, { elicitation: {} });
      const call = await openPostStream(y.url, session, toolCall(7, "test_elicitation", { message: "Who?" }));
      try {
        const request = JSON.parse((await call.next(/elicitation\/create/)).data) as { id: string | number };
        const answer = await postInSession(x.url, session, {
          jsonrpc: "2.0",
          id: request.id,
          result: { action: "accept", content: CONTACT },
        });
        await answer.body?.cancel();
        expect(answer.status).toBe(202);
        const result = JSON.parse((await call.next(/"result"/, 5_000)).data) as {
          id: number;
          result: { content: { text: string }[] };
        };
        expect(result.id).toBe(7);
        expect(result.result.content[0]!.text).toBe(`User response: action=accept, content=${JSON.stringify(CONTACT)}`);
      } finally {
        call.close();
      }
    });

    it("notifications/cancelled arriving on X aborts the handler running on Y", async () => {
      const [x, y] = pick();
      const session = await openRawSession(x.url);
      const label = `cancel-${++labels}`;
      const call = await openPostStream(
        y.url,
        session,
        toolCall(9, "test_wait_for_cancel", { label, ms: 20_000 }, "p"),
      );
      try {
        await call.next(/notifications\/progress/);
        const cancel = await postInSession(x.url, session, {
          jsonrpc: "2.0",
          method: "notifications/cancelled",
          params: { requestId: 9, reason: "test" },
        });
        await cancel.body?.cancel();
        expect(cancel.status).toBe(202);
        await expect
          .poll(() => callText(y.url, session, "test_was_cancelled", { label }), { timeout: 5_000 })
          .toBe("cancelled");
      } finally {
        call.close();
      }
    });

    it("a POST stream begun on X and dropped resumes on Y with Last-Event-ID: every missed event once, in order", async () => {
      const [x, y] = pick();
      const session = await openRawSession(x.url);
      const steps = 30;
      const call = await openPostStream(
        x.url,
        session,
        toolCall(11, "test_progress_steps", { steps, delayMs: 20 }, "p"),
      );
      let lastId: string | undefined;
      const seen: number[] = [];
      for (let step = 1; step <= 5; step++) {
        const event = await call.next(/notifications\/progress/);
        seen.push(Number(JSON.parse(event.data).params.progress));
        lastId = event.id;
      }
      call.close();
      await sleep(100); // events go on being logged on X while nobody reads
      const resumed = await openSessionGet(y.url, session, lastId);
      try {
        expect(resumed.response.status).toBe(200);
        const ids = [lastId!];
        for (;;) {
          const event = await resumed.sse.next(/"progress"|"id":11/, 5_000);
          ids.push(event.id!);
          const message = JSON.parse(event.data) as { id?: number; params?: { progress: number } };
          if (message.id === 11) break;
          seen.push(message.params!.progress);
        }
        expect(seen).toEqual(Array.from({ length: steps }, (_, index) => index + 1));
        expect(new Set(ids).size).toBe(ids.length);
      } finally {
        resumed.sse.close();
      }
    });

    it("the GET stream dropped on X is resumed on Y with Last-Event-ID: what was missed, then what comes after", async () => {
      const [x, y] = pick();
      const session = await openRawSession(x.url);
      const first = await openSessionGet(x.url, session);
      expect(await callText(x.url, session, "test_notify_session", { text: "one" })).toBe("delivered");
      const one = await first.sse.next(/"one"/);
      first.sse.close();
      await sleep(50);
      expect(await callText(x.url, session, "test_notify_session", { text: "two" })).toBe("delivered");
      const resumed = await openSessionGet(y.url, session, one.id);
      try {
        expect(resumed.response.status).toBe(200);
        const two = await resumed.sse.next(/notifications\/message/);
        expect(JSON.parse(two.data).params.data).toBe("two");
        expect(await callText(x.url, session, "test_notify_session", { text: "three" })).toBe("delivered");
        const three = await resumed.sse.next(/notifications\/message/);
        expect(JSON.parse(three.data).params.data).toBe("three");
      } finally {
        resumed.sse.close();
      }
    });

    it("a DELETE on Y ends the session everywhere: the GET stream on X ends, and both answer 404", async () => {
      const [x, y] = pick();
      const session = await openRawSession(x.url);
      const get = await openSessionGet(x.url, session);
      try {
        expect(get.response.status).toBe(200);
        const deleted = await fetch(y.url, { method: "DELETE", headers: session.headers });
        await deleted.body?.cancel();
        expect(deleted.status).toBeLessThan(300);
        expect(await get.sse.endedWithin(5_000)).toBe(true);
        for (const instance of [x, y]) {
          const after = await postInSession(instance.url, session, { jsonrpc: "2.0", id: 2, method: "ping" });
          await after.body?.cancel();
          expect(after.status).toBe(404);
        }
      } finally {
        get.sse.close();
      }
    });
  });
});
