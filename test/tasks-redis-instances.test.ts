/**
 * Tasks across two fixture processes on one Redis (`REDIS_URL=… npm run fixture`, A on h3 v2, B on
 * h3 v1; a 600 ms task lease): a task created on A is read and cancelled on B, and the cancel
 * reaches A's running handler (A remembers the call as cancelled); when A is killed while a task
 * runs, B fails that task with the lease error once the lease ran out. Needs `npm run build`.
 */
import { afterAll, beforeAll, expect, it } from "vitest";
import { startFixtureProcess, type FixtureProcess } from "./helpers/fixture-process.ts";
import { sharedOrOwnRedis } from "./helpers/redis-server.ts";
import { createTask, isTerminal, pollTask, resultOf, taskRequest } from "./helpers/task-rpc.ts";

let redis: Awaited<ReturnType<typeof sharedOrOwnRedis>>;
let a: FixtureProcess;
let b: FixtureProcess;

beforeAll(async () => {
  redis = await sharedOrOwnRedis();
  const prefix = `tasks-${process.pid}-${Date.now()}:`;
  const env = { MCP_FIXTURE_TASK_LEASE_MS: "600" };
  [a, b] = await Promise.all([
    startFixtureProcess({ redisUrl: redis.url, prefix, instance: "A", h3: "v2", env }),
    startFixtureProcess({ redisUrl: redis.url, prefix, instance: "B", h3: "v1", env }),
  ]);
}, 60_000);

afterAll(async () => {
  await Promise.all([a?.kill(), b?.kill()]);
  await redis?.stop();
});

it("a task created on A is read and cancelled on B; the cancel reaches A's running handler", async () => {
  const created = await createTask(a.url, "test_wait_for_cancel", { label: "cross", ms: 60_000 });
  const taskId = String(created.taskId);
  expect(resultOf(await taskRequest(b.url, "tasks/get", { taskId })).status).toBe("working");
  resultOf(await taskRequest(b.url, "tasks/cancel", { taskId }));
  expect((await pollTask(a.url, taskId, isTerminal)).status).toBe("cancelled");
  const wasCancelled = async (): Promise<string> => {
    const answer = resultOf(
      await taskRequest(a.url, "tools/call", { name: "test_was_cancelled", arguments: { label: "cross" } }),
    );
    return (answer.content as { text: string }[])[0]!.text;
  };
  // A's handler saw its signal abort (it remembers the label); wait for it, with a hang guard.
  const deadline = Date.now() + 10_000;
  let seen = await wasCancelled();
  while (seen !== "cancelled" && Date.now() < deadline) seen = await wasCancelled();
  expect(seen).toBe("cancelled");
}, 30_000);

it("A killed while its task runs: B fails the task with the lease error once the lease ran out", async () => {
  const created = await createTask(a.url, "test_wait_for_cancel", { label: "orphan", ms: 60_000 });
  const taskId = String(created.taskId);
  await a.kill();
  const failed = await pollTask(b.url, taskId, isTerminal);
  expect(failed.status).toBe("failed");
  expect(failed.error).toMatchObject({ code: -32603, message: expect.stringMatching(/lease ran out/) });
}, 30_000);
