/**
 * Tasks across two fixture processes over one Redis (`REDIS_URL=… npm run fixture`, with bearer auth
 * on and a short task lease), as a deployment runs them: instance A on h3 v2, instance B on h3 v1,
 * both on the `RedisTaskStore` of `mcp-h3/redis`. The modern wire (2026-07-28, SEP-2663) over raw
 * HTTP: a task created on one is read and cancelled on the other, and the cancel reaches the handler
 * running it (its signal fires, the task ends `cancelled`), in both directions; a task whose process
 * was SIGKILLed fails with a clear error once its lease ran out, never `working` for ever; another
 * principal gets for it exactly the answer of an unknown id. The legacy wire (2025-11-25, sessions on
 * the Redis session store) too: created in alice's session on A, listed, read and cancelled in her
 * session on B, the cancel reaching A's handler. All of it again over a 3-master Redis Cluster
 * (`REDIS_CLUSTER_URLS=…`). Needs `npm run build` (the processes
 * run the built package).
 */
import { afterAll, beforeAll, describe as vitestDescribe, expect, it } from "vitest";
import { startFixtureProcess, type FixtureProcess } from "./helpers/fixture-process.ts";
import { legacyResult, openTaskSession } from "./helpers/legacy-task-rpc.ts";
import { guardProcess } from "./helpers/process-guard.ts";
import { REDIS_TARGETS, startRedisTarget, type RedisTarget, type RedisTargetKind } from "./helpers/redis-target.ts";
import { createTask, errorOf, isTerminal, pollTask, resultOf, taskRequest } from "./helpers/task-rpc.ts";
import { REDIS, unavailable } from "./helpers/services.ts";

// Every suite of this file needs redis-server: skipped, said loudly, where it is missing (helpers/services.ts).
const describe = vitestDescribe.skipIf(unavailable(REDIS));

guardProcess();

/** The lease of the fixture processes' tasks: short, so a dead process's task fails soon; renewed every third. */
const LEASE_MS = 3_000;
const ALICE = { token: "alice-token" };
const BOB = { token: "bob-token" };
/** What `test_task_aborted` answers for a task whose handler's signal has not fired on that instance. */
const NOT_ABORTED = "not aborted";

let redis: RedisTarget;
let a: FixtureProcess;
let b: FixtureProcess;
const crashes: string[] = [];

/** Both processes over `kind`. */
async function startAll(kind: RedisTargetKind): Promise<void> {
  redis = await startRedisTarget(kind);
  const prefix = `tasks-processes-${process.pid}-${Date.now()}:`;
  const env = { MCP_FIXTURE_AUTH: "1", MCP_FIXTURE_TASK_LEASE_MS: String(LEASE_MS) };
  const onCrash = (instance: string, stderr: string): void => void crashes.push(`${instance}: ${stderr.slice(-2000)}`);
  [a, b] = await Promise.all([
    startFixtureProcess({ redis: redis.env, prefix, instance: "A", h3: "v2", env, onCrash }),
    startFixtureProcess({ redis: redis.env, prefix, instance: "B", h3: "v1", env, onCrash }),
  ]);
}

async function stopAll(): Promise<void> {
  await Promise.all([a?.kill(), b?.kill()]);
  await redis?.stop();
  expect(crashes).toEqual([]);
}

/** What the instance at `url` saw of task `taskId`'s handler: the reason its signal fired with, or "not aborted". */
async function abortedOn(url: string, taskId: string): Promise<string> {
  const result = resultOf(
    await taskRequest(url, "tools/call", { name: "test_task_aborted", arguments: { taskId } }, ALICE),
  );
  return (result.content as { text: string }[])[0]!.text;
}

const getTask = async (url: string, taskId: string, who = ALICE) =>
  resultOf(await taskRequest(url, "tasks/get", { taskId }, who));

describe.each(REDIS_TARGETS)("over %s", (kind) => {
  beforeAll(() => startAll(kind), 60_000);
  afterAll(stopAll);

  describe("tasks across two fixture processes", () => {
    it.each([
      { from: "A", to: "B" },
      { from: "B", to: "A" },
    ])("created on $from, read and cancelled on $to: the cancel reaches $from's handler", async ({ from, to }) => {
      const [creator, other] = from === "A" ? [a, b] : [b, a];
      const created = await createTask(creator.url, "test_task_hold", {}, ALICE);
      expect(created.status).toBe("working");
      const taskId = String(created.taskId);

      expect(await getTask(other.url, taskId)).toMatchObject({
        taskId,
        status: "working",
        statusMessage: `held on ${from}`,
      });
      expect(await abortedOn(creator.url, taskId)).toBe(NOT_ABORTED);

      resultOf(await taskRequest(other.url, "tasks/cancel", { taskId }, ALICE));
      // The handler runs on the creator only: its signal fires there, with the reason of a cancel.
      await expect
        .poll(() => abortedOn(creator.url, taskId), { timeout: 10_000 })
        .toBe("The task was cancelled (tasks/cancel)");
      expect(await abortedOn(other.url, taskId)).toBe(NOT_ABORTED);
      for (const instance of [creator, other]) {
        expect(await getTask(instance.url, taskId), to).toMatchObject({ taskId, status: "cancelled" });
      }
    });

    it("with auth on, B answers bob about alice's task (created on A) exactly as about an unknown id", async () => {
      const created = await createTask(a.url, "test_task_hold", {}, ALICE);
      const taskId = String(created.taskId);
      // An id of the same form that no task has.
      const unknownId = "A".repeat(taskId.length);
      const paramsOf = (method: string, id: string) =>
        method === "tasks/update" ? { taskId: id, inputResponses: {} } : { taskId: id };
      const shape = (answer: Awaited<ReturnType<typeof taskRequest>>, id: string) => ({
        status: answer.status,
        error: JSON.parse(JSON.stringify(errorOf(answer)).replaceAll(id, "<id>")) as unknown,
      });
      for (const method of ["tasks/get", "tasks/update", "tasks/cancel"]) {
        const bobs = await taskRequest(b.url, method, paramsOf(method, taskId), BOB);
        const unknown = await taskRequest(b.url, method, paramsOf(method, unknownId), BOB);
        expect(shape(bobs, taskId), method).toEqual(shape(unknown, unknownId));
        expect(errorOf(bobs).code, method).toBe(-32602);
      }
      // Bob's cancel changed nothing: alice's task still works on A, its handler untouched.
      expect(await getTask(b.url, taskId)).toMatchObject({ taskId, status: "working", statusMessage: "held on A" });
      expect(await abortedOn(a.url, taskId)).toBe(NOT_ABORTED);
      resultOf(await taskRequest(b.url, "tasks/cancel", { taskId }, ALICE));
      await expect.poll(() => abortedOn(a.url, taskId), { timeout: 10_000 }).not.toBe(NOT_ABORTED);
    });

    it("legacy: created in alice's session on A, listed, read and cancelled in her session on B; the cancel reaches A's handler", async () => {
      const onA = await openTaskSession(a.url, { token: ALICE.token });
      const onB = await openTaskSession(b.url, { token: ALICE.token });
      const created = legacyResult(
        await onA.rpc("tools/call", { name: "test_task_hold", arguments: {}, task: { ttl: 60_000 } }),
      );
      const taskId = String(created.task.taskId);
      expect(created.task.status).toBe("working");

      expect(legacyResult(await onB.rpc("tasks/get", { taskId }))).toMatchObject({
        taskId,
        status: "working",
        statusMessage: "held on A",
      });
      const listed = legacyResult(await onB.rpc("tasks/list")).tasks as { taskId: string }[];
      expect(listed.map((task) => task.taskId)).toContain(taskId);
      expect(await abortedOn(a.url, taskId)).toBe(NOT_ABORTED);

      expect(legacyResult(await onB.rpc("tasks/cancel", { taskId }))).toMatchObject({ taskId, status: "cancelled" });
      await expect
        .poll(() => abortedOn(a.url, taskId), { timeout: 10_000 })
        .toBe("The task was cancelled (tasks/cancel)");
      expect(legacyResult(await onA.rpc("tasks/get", { taskId })).status).toBe("cancelled");
    });

    it("A SIGKILLed while its task runs: B reports the task failed with a clear error once its lease ran out", async () => {
      const created = await createTask(a.url, "test_task_hold", {}, ALICE);
      const taskId = String(created.taskId);
      expect(await getTask(b.url, taskId)).toMatchObject({ taskId, status: "working" });
      await a.kill();
      try {
        // Polled on B until terminal (a hang guard of 10 s, over three leases): never `working` for ever.
        const ended = await pollTask(b.url, taskId, isTerminal, ALICE);
        expect(ended).toMatchObject({
          taskId,
          status: "failed",
          error: {
            code: -32603,
            message: "The task stopped: the instance running it went away before it finished (its lease ran out)",
          },
        });
        // It stays failed, whoever reads it next.
        expect(await getTask(b.url, taskId)).toMatchObject({ status: "failed" });
      } finally {
        await a.restart();
      }
      expect(await getTask(a.url, taskId)).toMatchObject({ status: "failed" });
    });
  });
});
