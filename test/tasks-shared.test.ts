/**
 * Tasks between instances and principals, over real HTTP on h3 v2 and h3 v1: two handlers sharing
 * one task store stand for two instances (a task created on A is read and cancelled on B, and the
 * cancel reaches A's running handler); a task whose instance stopped renewing its lease fails when
 * read; with auth on, another principal's task id is answered exactly as an unknown one.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { defineMcpHandler, defineTool, type McpEventHandler } from "../src/index.ts";
import { MemoryTaskStore, tasks } from "../src/_entries/tasks.ts";
import { staticAuth } from "./helpers/auth.ts";
import { deferred } from "./helpers/deferred.ts";
import { HOSTS, startHost, type RunningHost } from "./helpers/hosts.ts";
import { createTask, errorOf, isTerminal, pollTask, resultOf, taskRequest } from "./helpers/task-rpc.ts";

const started = new Map<string, ReturnType<typeof deferred<void>>>();
const aborted = new Map<string, ReturnType<typeof deferred<string>>>();

const waitForCancel = defineTool({
  name: "wait_for_cancel",
  task: "optional",
  input: { type: "object", properties: { key: { type: "string" } }, required: ["key"] },
  handler: async (event, { key }) => {
    const signal = event.context.mcp!.signal;
    const name = String(key);
    await new Promise((resolve) => setTimeout(resolve, 1));
    started.get(name)?.resolve();
    await new Promise<void>((resolve) => {
      signal.addEventListener("abort", () => {
        aborted.get(name)?.resolve(String(signal.reason));
        resolve();
      });
    });
    return "stopped";
  },
});

function instance(store: MemoryTaskStore, auth = false): McpEventHandler {
  return defineMcpHandler({
    name: "tasks-shared",
    version: "1.0.0",
    tools: [waitForCancel],
    extensions: [tasks({ store })],
    ...(auth ? { auth: staticAuth() } : {}),
  });
}

describe.each(HOSTS)("tasks shared between instances and principals on %s", (host) => {
  const store = new MemoryTaskStore();
  const handlers: McpEventHandler[] = [];
  let a: RunningHost;
  let b: RunningHost;
  let secured: RunningHost;
  beforeAll(async () => {
    handlers.push(instance(store), instance(store), instance(new MemoryTaskStore(), true));
    [a, b, secured] = await Promise.all(handlers.map((handler) => startHost(host, handler)));
  });
  afterAll(async () => {
    await Promise.all([a, b, secured].map((server) => server.close()));
    await Promise.all(handlers.map((handler) => handler.close()));
    await store.close();
  });

  it("a task created on A is read and cancelled on B; the cancel reaches A's running handler", async () => {
    started.set("ab", deferred());
    aborted.set("ab", deferred());
    const created = await createTask(a.url, "wait_for_cancel", { key: "ab" });
    await started.get("ab")!.promise;
    const seen = resultOf(await taskRequest(b.url, "tasks/get", { taskId: created.taskId }));
    expect(seen).toMatchObject({ taskId: created.taskId, status: "working" });
    resultOf(await taskRequest(b.url, "tasks/cancel", { taskId: created.taskId }));
    expect(await aborted.get("ab")!.promise).toMatch(/cancelled/);
    const onA = await pollTask(a.url, String(created.taskId), isTerminal);
    expect(onA.status).toBe("cancelled");
  });

  it("a task whose instance stopped renewing its lease fails with a clear error when read", async () => {
    const now = Date.now();
    const taskId = `orphan-${host}`;
    await store.create({
      taskId,
      owner: "anonymous",
      tool: "wait_for_cancel",
      status: "working",
      createdAt: now - 60_000,
      lastUpdatedAt: now - 60_000,
      ttlMs: 3_600_000,
      leaseUntil: now - 1,
    });
    const task = resultOf(await taskRequest(b.url, "tasks/get", { taskId }));
    expect(task.status).toBe("failed");
    expect(task.error).toMatchObject({ code: -32603, message: expect.stringMatching(/lease ran out/) });
    expect((await store.get(taskId))?.status).toBe("failed");
  });

  it("another principal's task id gets exactly the answer of an unknown one, on every method", async () => {
    started.set("alice", deferred());
    aborted.set("alice", deferred());
    const created = await createTask(secured.url, "wait_for_cancel", { key: "alice" }, { token: "alice-token" });
    const taskId = String(created.taskId);
    await started.get("alice")!.promise;
    const unknownId = `${taskId.slice(0, -1)}${taskId.endsWith("A") ? "B" : "A"}`;
    for (const method of ["tasks/get", "tasks/update", "tasks/cancel"]) {
      const params = { inputResponses: {} };
      const stolen = errorOf(await taskRequest(secured.url, method, { taskId, ...params }, { token: "bob-token" }));
      const unknown = errorOf(
        await taskRequest(secured.url, method, { taskId: unknownId, ...params }, { token: "bob-token" }),
      );
      expect({ ...stolen, message: stolen.message.replace(taskId, "<id>") }).toEqual({
        ...unknown,
        message: unknown.message.replace(unknownId, "<id>"),
      });
      expect(stolen.code).toBe(-32602);
    }
    // Bob's cancel changed nothing: alice's task still runs, and she can read and cancel it.
    const own = resultOf(await taskRequest(secured.url, "tasks/get", { taskId }, { token: "alice-token" }));
    expect(own.status).toBe("working");
    resultOf(await taskRequest(secured.url, "tasks/cancel", { taskId }, { token: "alice-token" }));
    expect(await aborted.get("alice")!.promise).toMatch(/cancelled/);
  });
});

describe("closing a handler while its tasks run", () => {
  it("aborts their handlers' signals and writes nothing more: no incident", async () => {
    const handler = defineMcpHandler({
      name: "closing",
      version: "1.0.0",
      tools: [waitForCancel],
      extensions: [tasks()],
    });
    const server = await startHost("h3-v2", handler);
    started.set("closing", deferred());
    aborted.set("closing", deferred());
    await createTask(server.url, "wait_for_cancel", { key: "closing" });
    await started.get("closing")!.promise;
    await handler.close();
    expect(await aborted.get("closing")!.promise).toMatch(/shutting down/);
    // The handler's outcome comes after its store closed: it is not written, and no failure is recorded.
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(handler.incidents.background_failure).toBe(0);
    await server.close();
  });
});
