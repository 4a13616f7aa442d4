/**
 * The task handlers running on one instance are bounded, in all and per owner, whatever the store
 * holds, and a TTL a client asks for has a floor (issue 32, item 4). Before, a 2025-11-25
 * `params.task.ttl` of 1 ms let the record leave the store (Redis never stored it) while its
 * handler ran on: with a store of 10 tasks, 5 per owner, 60 handlers ran at once. Here 60 tiny-TTL
 * calls from 4 legacy sessions (each its own owner) go at once to handlers that ignore their
 * signal, over real HTTP, on the memory store and on a real Redis, with the bounds taken from the
 * store's caps and with bounds of `tasks()` over a roomy store: never more run than the bounds, the
 * calls past them are refused with a clear -32603, and the tasks created keep the floor's TTL.
 */
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { defineMcpHandler, defineTool } from "../src/index.ts";
import { RedisTaskStore } from "../src/_entries/redis.ts";
import { MemoryTaskStore, tasks } from "../src/_entries/tasks.ts";
import type { TaskStore, TasksOptions } from "../src/types/tasks.ts";
import { deferred } from "./helpers/deferred.ts";
import { startHost } from "./helpers/hosts.ts";
import { finalOf, openTaskSession } from "./helpers/legacy-task-rpc.ts";
import { guardProcess } from "./helpers/process-guard.ts";
import { startRedis, type RunningRedis } from "./helpers/redis-server.ts";
import { REDIS, unavailable } from "./helpers/services.ts";

guardProcess();

const SESSIONS = 4;
const CALLS_PER_SESSION = 15;
/** The default floor of a TTL a client asks for (`minTtlMs`). */
const MIN_TTL_MS = 5_000;

const closing: (() => Promise<unknown>)[] = [];
afterEach(async () => {
  for (const close of closing.splice(0).reverse()) await close();
});

/** Handlers that ignore their signal, counted while they run, in all and by session. */
function hangingTool() {
  const release = deferred();
  const now = { all: 0, bySession: new Map<string, number>() };
  const peak = { all: 0, perSession: 0 };
  const tool = defineTool({
    name: "hangs",
    task: "optional",
    input: { type: "object", properties: { session: { type: "string" } }, required: ["session"] },
    handler: async (_event, { session }) => {
      const key = String(session);
      const mine = (now.bySession.get(key) ?? 0) + 1;
      now.bySession.set(key, mine);
      now.all++;
      peak.all = Math.max(peak.all, now.all);
      peak.perSession = Math.max(peak.perSession, mine);
      await release.promise;
      now.all--;
      now.bySession.set(key, now.bySession.get(key)! - 1);
      return "done";
    },
  });
  closing.push(async () => release.resolve());
  return { tool, now, peak };
}

async function sixtyTinyTtlCalls(store: TaskStore, options: TasksOptions) {
  const { tool, now, peak } = hangingTool();
  const handler = defineMcpHandler({
    name: "running-bounds",
    version: "1.0.0",
    tools: [tool],
    extensions: [tasks({ store, pollIntervalMs: 20, ...options })],
  });
  const server = await startHost("h3-v2", handler);
  closing.push(
    () => store.close?.() ?? Promise.resolve(),
    () => handler.close(),
    () => server.close(),
  );
  const sessions = await Promise.all(Array.from({ length: SESSIONS }, () => openTaskSession(server.url)));
  const answers = await Promise.all(
    sessions.flatMap((session, index) =>
      Array.from({ length: CALLS_PER_SESSION }, () =>
        session.rpc("tools/call", { name: "hangs", arguments: { session: String(index) }, task: { ttl: 1 } }),
      ),
    ),
  );
  const messages = answers.map(finalOf);
  const created = messages.filter((message) => message.result !== undefined).map((m) => m.result!.task);
  const refused = messages.filter((message) => message.error !== undefined).map((m) => m.error!);
  // The handlers of the tasks created have all started by now; none of the refused ever will.
  await new Promise((resolve) => setTimeout(resolve, 200));
  return { created, refused, now, peak };
}

function expectBounded(outcome: Awaited<ReturnType<typeof sixtyTinyTtlCalls>>): void {
  const { created, refused, now, peak } = outcome;
  expect(peak.all).toBeLessThanOrEqual(10);
  expect(peak.perSession).toBeLessThanOrEqual(5);
  expect(created.length).toBe(now.all);
  expect(created.length).toBeGreaterThan(0);
  expect(created.length + refused.length).toBe(SESSIONS * CALLS_PER_SESSION);
  for (const task of created as { ttl: number }[]) expect(task.ttl).toBe(MIN_TTL_MS);
  for (const error of refused) {
    expect(error.code).toBe(-32603);
    expect(error.message).toMatch(/^Too many tasks/);
    expect(["tasks", "runningTasks", "runningTasksPerOwner"]).toContain((error.data as { limit: string }).limit);
  }
}

describe("running task handlers are bounded, on the memory store", () => {
  it("by the store's caps (10 in all, 5 per owner) when tasks() names none", async () => {
    expectBounded(await sixtyTinyTtlCalls(new MemoryTaskStore({ maxTasks: 10, maxTasksPerOwner: 5 }), {}));
  });

  it("by maxRunningTasks / maxRunningTasksPerOwner over a store with room for all", async () => {
    const outcome = await sixtyTinyTtlCalls(new MemoryTaskStore(), { maxRunningTasks: 10, maxRunningTasksPerOwner: 5 });
    expectBounded(outcome);
    expect(outcome.refused.map((error) => (error.data as { limit: string }).limit)).toContain("runningTasksPerOwner");
  });
});

describe.skipIf(unavailable(REDIS))("running task handlers are bounded, on a real Redis", () => {
  let redis: RunningRedis;
  let prefixes = 0;
  const store = (options: { maxTasks?: number; maxTasksPerOwner?: number } = {}): RedisTaskStore =>
    new RedisTaskStore({ url: redis.url, prefix: `bounds-${++prefixes}:`, ...options });
  beforeAll(async () => {
    redis = await startRedis();
  });
  afterAll(async () => {
    await redis?.stop();
  });

  it("by the store's caps (10 in all, 5 per owner) when tasks() names none", async () => {
    expectBounded(await sixtyTinyTtlCalls(store({ maxTasks: 10, maxTasksPerOwner: 5 }), {}));
  });

  it("by maxRunningTasks / maxRunningTasksPerOwner over a store with room for all", async () => {
    const outcome = await sixtyTinyTtlCalls(store(), { maxRunningTasks: 10, maxRunningTasksPerOwner: 5 });
    expectBounded(outcome);
    expect(outcome.refused.map((error) => (error.data as { limit: string }).limit)).toContain("runningTasksPerOwner");
  });
});
