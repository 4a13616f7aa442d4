/**
 * A task call refused while its store is away runs nothing (issue 46, defect 6), on a real
 * redis-server over real HTTP, in both eras: the task store on Redis, which is stopped (SIGKILL)
 * before the call. The client gets the store's error (`-32603`), and the tool's handler never ran
 * (its runs are counted). Before, the modern call started its handler, then was refused at the
 * first turn ("subscribe failed", 2.2 s later) and aborted it: 1 run. The legacy wire stored the
 * task before its handler already (its case passed before too and guards that order). Once Redis
 * is back, the same call runs once and becomes a task.
 */
import { afterEach, describe as vitestDescribe, expect, it } from "vitest";
import { defineMcpHandler, defineTool } from "../src/index.ts";
import { RedisConnection, RedisTaskStore } from "../src/_entries/redis.ts";
import { tasks } from "../src/_entries/tasks.ts";
import { startHost } from "./helpers/hosts.ts";
import { legacyError, legacyResult, openTaskSession } from "./helpers/legacy-task-rpc.ts";
import { guardProcess } from "./helpers/process-guard.ts";
import { startRedis } from "./helpers/redis-server.ts";
import { REDIS, unavailable } from "./helpers/services.ts";
import { errorOf, resultOf, taskRequest } from "./helpers/task-rpc.ts";

const describe = vitestDescribe.skipIf(unavailable(REDIS));

guardProcess();

const closing: (() => Promise<unknown>)[] = [];
afterEach(async () => {
  for (const close of closing.splice(0).reverse()) await close().catch(() => {});
});

/** How often each key's handler started. */
const runs = new Map<string, number>();

const tools = [
  defineTool({
    name: "counted",
    task: "optional",
    input: { type: "object", properties: { key: { type: "string" } }, required: ["key"] },
    handler: async (_event, { key }) => {
      runs.set(String(key), (runs.get(String(key)) ?? 0) + 1);
      // Past the modern call's first turn: it becomes a task.
      await new Promise((resolve) => setTimeout(resolve, 200));
      return `ran ${String(key)}`;
    },
  }),
];

async function serve(redisUrl: string) {
  const connection = new RedisConnection({ url: redisUrl, prefix: `refused-${Date.now()}:` });
  const store = new RedisTaskStore({ connection });
  // Sessions in memory: only the task store is away.
  const handler = defineMcpHandler({ name: "tasks-refused", version: "1.0.0", tools, extensions: [tasks({ store })] });
  const server = await startHost("h3-v2", handler);
  closing.push(
    () => connection.close(),
    () => handler.close(),
    () => server.close(),
  );
  return { url: server.url, connection };
}

async function untilReady(connection: RedisConnection): Promise<void> {
  const client = await connection.client();
  const deadline = Date.now() + 15_000;
  while (!client.isReady) {
    if (Date.now() > deadline) throw new Error("the connection did not come back");
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

/** Lets a handler that did start (wrongly) be counted before the test looks. */
const settle = (): Promise<void> => new Promise((resolve) => setTimeout(resolve, 300));

describe("a task call refused while its store is away", () => {
  it("2026-07-28: the client gets -32603 and the handler never ran; once Redis is back it runs once", async () => {
    let redis = await startRedis();
    closing.push(() => redis.stop());
    const { url, connection } = await serve(redis.url);
    await untilReady(connection);
    await redis.stop();

    const refused = errorOf(await taskRequest(url, "tools/call", { name: "counted", arguments: { key: "modern" } }));
    expect(refused.code).toBe(-32603);
    expect(refused.message).toMatch(/task store/);
    await settle();
    expect(runs.get("modern") ?? 0, "runs of the refused call's handler").toBe(0);

    redis = await startRedis(redis.port);
    await untilReady(connection);
    const created = resultOf(
      await taskRequest(url, "tools/call", { name: "counted", arguments: { key: "modern-back" } }),
    );
    expect(created.resultType).toBe("task");
    expect(runs.get("modern-back")).toBe(1);
  });

  it("2025-11-25: the client gets -32603 and the handler never ran; once Redis is back it runs once", async () => {
    let redis = await startRedis();
    closing.push(() => redis.stop());
    const { url, connection } = await serve(redis.url);
    await untilReady(connection);
    const session = await openTaskSession(url);
    await redis.stop();

    const call = (key: string) => session.rpc("tools/call", { name: "counted", arguments: { key }, task: {} });
    const refused = legacyError(await call("legacy"));
    expect(refused.code).toBe(-32603);
    expect(refused.message).toMatch(/task store/);
    await settle();
    expect(runs.get("legacy") ?? 0, "runs of the refused call's handler").toBe(0);

    redis = await startRedis(redis.port);
    await untilReady(connection);
    const created = legacyResult(await call("legacy-back"));
    expect(created.task?.status).toBe("working");
    expect(runs.get("legacy-back")).toBe(1);
  });
});
