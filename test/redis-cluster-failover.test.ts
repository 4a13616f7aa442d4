/**
 * A Redis Cluster losing a master while tasks run (issue 37's fault run for tasks; the soak does the
 * same for streaming sessions): two fixture processes over three masters with a replica each, bearer
 * auth on, a task lease of 6 s, forty modern tasks created through both instances, then the master
 * holding the index of all tasks SIGKILLed mid-run; its replica takes over a few node timeouts
 * later. Requests meanwhile fail (a task store's failure answers `-32603`) and are sent again, as a
 * client does. After recovery every task ends `completed` with its own result (none failed for its
 * lease while its instance lived: issue 46, defect 5, where the tasks on the killed master failed
 * 5.6 s after the kill), and the index of all tasks holds each exactly once. Needs `npm run build`.
 */
import { execFile } from "node:child_process";
import { promisify } from "node:util";
import { afterAll, beforeAll, describe as vitestDescribe, expect, it } from "vitest";
import { startFixtureProcess, type FixtureProcess } from "./helpers/fixture-process.ts";
import { createCluster } from "redis";
import { guardProcess } from "./helpers/process-guard.ts";
import { redisKeyNames } from "./helpers/redis-key-names.ts";
import { startRedisCluster, type RunningCluster } from "./helpers/redis-cluster.ts";
import type { Answer } from "./helpers/rpc.ts";
import { REDIS, unavailable } from "./helpers/services.ts";
import { taskRequest } from "./helpers/task-rpc.ts";

const describe = vitestDescribe.skipIf(unavailable(REDIS));
const run = promisify(execFile);

guardProcess();

const ALICE = { token: "alice-token" };
const TASKS = 40;
/** Long enough that every task is still running when the master dies, and ends after the takeover. */
const TASK_SECONDS = 6;
/** The fixture's task lease: renewed every 2 s, so a renewal or two falls in the takeover. */
const LEASE_MS = 6_000;

let cluster: RunningCluster;
const prefix = `failover-${process.pid}-${Date.now()}:`;
let instances: FixtureProcess[] = [];
const crashes: string[] = [];

beforeAll(async () => {
  cluster = await startRedisCluster({ replicasPerMaster: 1 });
  const redis = { REDIS_URL: "", REDIS_CLUSTER_URLS: cluster.urls.join(",") };
  // A lease barely longer than the takeover (2.5–3 s): a renewal refused meanwhile is tried again
  // within the lease (tasks/lease.ts), so no live task fails for its lease.
  const env = { MCP_FIXTURE_AUTH: "1", MCP_FIXTURE_TASK_LEASE_MS: String(LEASE_MS) };
  const onCrash = (instance: string, stderr: string): void => void crashes.push(`${instance}: ${stderr.slice(-2000)}`);
  instances = await Promise.all([
    startFixtureProcess({ redis, prefix, instance: "A", h3: "v2", env, onCrash }),
    startFixtureProcess({ redis, prefix, instance: "B", h3: "v1", env, onCrash }),
  ]);
}, 60_000);

afterAll(async () => {
  await Promise.all(instances.map((instance) => instance.kill()));
  await cluster?.stop();
  expect(crashes).toEqual([]);
});

/** Whether the answer says the store failed: 503 for sessions, `-32603` for a task store (types/tasks.ts). */
function storeFailed(answer: Answer): boolean {
  const error = (answer.json as { error?: { code: number; message: string } } | undefined)?.error;
  return answer.status === 502 || answer.status === 503 || (error?.code === -32603 && /task store/.test(error.message));
}

/** A modern request, sent again while the store fails or the connection does (at most 30 s). */
async function patiently(url: string, method: string, params: Record<string, unknown>): Promise<Answer> {
  const deadline = Date.now() + 30_000;
  for (;;) {
    const answer = await taskRequest(url, method, params, ALICE).catch(() => undefined);
    if (answer && !storeFailed(answer)) return answer;
    if (Date.now() > deadline) throw new Error(`${method} kept failing: ${answer?.status} ${answer?.text}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

function resultOf(answer: Answer): Record<string, unknown> {
  const message = answer.json as { result?: Record<string, unknown> } | undefined;
  expect(message?.result, answer.text).toBeDefined();
  return message!.result!;
}

/** The port of the master serving `key`'s slot now. */
async function masterOf(key: string): Promise<number> {
  const port = cluster.masterPorts[0]!;
  const slot = (await run("redis-cli", ["-p", String(port), "cluster", "keyslot", key])).stdout.trim();
  const { stdout } = await run("redis-cli", ["-p", String(port), "cluster", "slots"]);
  // Each range: start, end, then the master's ip and port (redis-cli prints one value per line).
  const lines = stdout.split("\n").map((line) => line.trim());
  for (let at = 0; at + 3 < lines.length; at++) {
    const [start, end, , masterPort] = [Number(lines[at]), Number(lines[at + 1]), lines[at + 2], Number(lines[at + 3])];
    if (Number.isInteger(start) && Number.isInteger(end) && Number(slot) >= start && Number(slot) <= end) {
      if (cluster.masterPorts.includes(masterPort)) return masterPort;
    }
  }
  throw new Error(`no master found for slot ${slot}:\n${stdout}`);
}

describe("tasks on a Redis Cluster that loses a master", () => {
  it(
    `${TASKS} tasks through both instances: the master of the tasks' index killed mid-run, every task completes once`,
    { timeout: 120_000 },
    async () => {
      const labels = Array.from({ length: TASKS }, (_, index) => `job-${index}`);
      const created = await Promise.all(
        labels.map(async (label, index) => {
          const url = instances[index % 2]!.url;
          const task = resultOf(
            await patiently(url, "tools/call", { name: "slow_compute", arguments: { seconds: TASK_SECONDS, label } }),
          );
          expect(task.status, JSON.stringify(task)).toBe("working");
          return { label, taskId: String(task.taskId) };
        }),
      );
      const dead = await masterOf(redisKeyNames(prefix).tasksByExpiry);
      await cluster.replicated(dead);
      const killedAt = Date.now();
      await cluster.kill(dead);
      await cluster.failedOver(
        dead,
        cluster.masterPorts.find((port) => port !== dead)!,
      );

      const ended = await Promise.all(
        created.map(async ({ taskId }, index) => {
          const url = instances[(index + 1) % 2]!.url;
          for (;;) {
            const task = resultOf(await patiently(url, "tasks/get", { taskId }));
            if (task.status !== "working") return task;
            await new Promise((resolve) => setTimeout(resolve, 200));
          }
        }),
      );
      // Every task's instance lived through the takeover: none failed (for its lease or otherwise).
      const notCompleted = ended.filter((task) => task.status !== "completed");
      expect(
        notCompleted.map(
          (task) => `${String(task.status)} ${Date.parse(String(task.lastUpdatedAt)) - killedAt} ms after the kill`,
        ),
        JSON.stringify(notCompleted[0]),
      ).toEqual([]);
      for (const [index, task] of ended.entries()) {
        expect(JSON.stringify(task), JSON.stringify(task)).toContain(
          `Computed ${created[index]!.label} after ${TASK_SECONDS} s`,
        );
      }
      // The index of all tasks came through the takeover whole: each task once, none left over.
      const watcher = createCluster({
        rootNodes: cluster.urls.filter((url) => !url.endsWith(`:${dead}`)).map((url) => ({ url })),
      });
      watcher.on("error", () => {});
      await watcher.connect();
      const indexed = await watcher.zRange(redisKeyNames(prefix).tasksByExpiry, 0, -1).finally(() => watcher.close());
      expect(indexed.sort()).toEqual(created.map((task) => task.taskId).sort());
    },
  );
});
