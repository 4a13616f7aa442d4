/**
 * Tasks across a Redis outage (issue 32, item 9), on a real redis-server over real HTTP (the
 * 2026-07-28 wire): four tasks whose handlers finish while Redis is down for about 1.5 s (restarted
 * on the same port from its append-only file) are read afterwards with their real results. Before,
 * the final write failed ("The client is offline"), was never retried and the lease timer stopped,
 * so a reader failed each task once its lease ran out, as if its instance had gone away. And a task
 * whose record vanished (Redis restarted empty) aborts its handler with a reason saying so, not as
 * a cancel.
 */
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe as vitestDescribe, expect, it } from "vitest";
import { defineMcpHandler, defineTool } from "../src/index.ts";
import { RedisConnection, RedisTaskStore } from "../src/_entries/redis.ts";
import { tasks } from "../src/_entries/tasks.ts";
import { deferred, type Deferred } from "./helpers/deferred.ts";
import { startHost } from "./helpers/hosts.ts";
import { guardProcess } from "./helpers/process-guard.ts";
import { startRedis, type RunningRedis } from "./helpers/redis-server.ts";
import { REDIS, unavailable } from "./helpers/services.ts";
import { createTask, taskRequest } from "./helpers/task-rpc.ts";
import type { RpcMessage } from "./helpers/rpc.ts";

// Every suite of this file needs redis-server: skipped, said loudly, where it is missing (helpers/services.ts).
const describe = vitestDescribe.skipIf(unavailable(REDIS));

guardProcess();

const OUTAGE_MS = 1_500;
/** A hang guard for the connection to come back, far above what reconnecting takes. */
const RECONNECT_GUARD_MS = 15_000;

const closing: (() => Promise<unknown>)[] = [];
afterEach(async () => {
  for (const close of closing.splice(0).reverse()) await close().catch(() => {});
});

const gates = new Map<string, Deferred>();
const reasons = new Map<string, string>();
const started = new Set<string>();
const gate = (key: string): Deferred => gates.get(key) ?? gates.set(key, deferred()).get(key)!;

const tools = [
  defineTool({
    name: "finishes",
    task: "required",
    input: { type: "object", properties: { key: { type: "string" } }, required: ["key"] },
    handler: async (_event, { key }) => {
      started.add(String(key));
      await gate(String(key)).promise;
      return `result of ${String(key)}`;
    },
  }),
  defineTool({
    name: "until_aborted",
    task: "required",
    input: { type: "object", properties: { key: { type: "string" } }, required: ["key"] },
    handler: async (event, { key }) => {
      const signal = event.context.mcp!.signal;
      started.add(String(key));
      await new Promise((resolve) => signal.addEventListener("abort", resolve, { once: true }));
      reasons.set(String(key), (signal.reason as Error).message);
      return "stopped";
    },
  }),
];

async function serve(redis: RunningRedis, leaseMs: number) {
  const connection = new RedisConnection({ url: redis.url, prefix: `outage-${Date.now()}:` });
  const store = new RedisTaskStore({ connection });
  const handler = defineMcpHandler({
    name: "tasks-outage",
    version: "1.0.0",
    tools,
    extensions: [tasks({ store, leaseMs, pollIntervalMs: 50 })],
  });
  const server = await startHost("h3-v2", handler);
  closing.push(
    () => connection.close(),
    () => handler.close(),
    () => server.close(),
  );
  return { url: server.url, connection };
}

/** `tasks/get` until the task is over; answers that fail (the instance reconnecting) are read again. */
async function finalState(url: string, taskId: string): Promise<Record<string, any>> {
  const deadline = Date.now() + 20_000;
  for (;;) {
    const answer = await taskRequest(url, "tasks/get", { taskId });
    const result = (answer.json as RpcMessage | undefined)?.result as Record<string, any> | undefined;
    if (result && ["completed", "failed", "cancelled"].includes(result.status)) return result;
    if (Date.now() > deadline) throw new Error(`task ${taskId} not over: ${answer.text}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

async function until(condition: () => boolean, what: string): Promise<void> {
  const deadline = Date.now() + RECONNECT_GUARD_MS;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

describe("tasks across a Redis outage", () => {
  it("a task that finishes while Redis is down has its real result once Redis is back", async () => {
    const persistDir = await mkdtemp(join(tmpdir(), "mcp-h3-tasks-outage-"));
    closing.push(() => rm(persistDir, { recursive: true, force: true }));
    let redis = await startRedis(undefined, { persistDir });
    closing.push(() => redis.stop());
    // A lease of 6 s (renewed every 2 s): longer than the outage and the reconnect together.
    const { url, connection } = await serve(redis, 6_000);
    const keys = ["a", "b", "c", "d"].map((key) => `outage-${key}`);
    const ids = new Map<string, string>();
    for (const key of keys) ids.set(key, String((await createTask(url, "finishes", { key })).taskId));
    await until(() => keys.every((key) => started.has(key)), "the handlers to start");

    await redis.stop();
    // The handlers finish during the outage, one every 300 ms.
    for (const key of keys) {
      gate(key).resolve();
      await new Promise((resolve) => setTimeout(resolve, 300));
    }
    await new Promise((resolve) => setTimeout(resolve, OUTAGE_MS - 300 * keys.length));
    redis = await startRedis(redis.port, { persistDir });
    const client = await connection.client();
    await until(() => client.isReady, "the connection to come back");

    for (const key of keys) {
      const task = await finalState(url, ids.get(key)!);
      expect(task.status, JSON.stringify(task)).toBe("completed");
      expect(task.result.content).toEqual([{ type: "text", text: `result of ${key}` }]);
    }
  });

  it("a handler whose task vanished (Redis restarted empty) is told its record is gone", async () => {
    let redis = await startRedis();
    closing.push(() => redis.stop());
    const { url } = await serve(redis, 600);
    const key = "vanished";
    await createTask(url, "until_aborted", { key });
    await until(() => started.has(key), "the handler to start");
    await redis.stop();
    redis = await startRedis(redis.port);
    await until(() => reasons.has(key), "the handler's signal to abort");
    expect(reasons.get(key)).toBe("The task's record is gone from the store (it expired, or the store lost it)");
  });
});
