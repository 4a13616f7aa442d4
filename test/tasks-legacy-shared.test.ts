/**
 * Legacy (2025-11-25) tasks between principals and instances, over real HTTP on h3 v2 and h3 v1:
 * with auth on, bob gets for alice's task id exactly the answer of an unknown id on tasks/get,
 * tasks/result and tasks/cancel, and his tasks/list shows none of hers, while alice's other session
 * sees them (tasks are bound to the principal); two handlers on one MemoryTaskStore stand for two
 * instances: a task created on A is read on B, B's blocking tasks/result is woken by A's outcome,
 * and a cancel sent to B reaches A's running handler.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { defineMcpHandler, defineTool, type McpEventHandler } from "../src/index.ts";
import { MemoryTaskStore, tasks } from "../src/_entries/tasks.ts";
import { staticAuth } from "./helpers/auth.ts";
import { deferred, type Deferred } from "./helpers/deferred.ts";
import { HOSTS, startHost, type RunningHost } from "./helpers/hosts.ts";
import { legacyError, legacyResult, openTaskSession } from "./helpers/legacy-task-rpc.ts";

const gates = new Map<string, Deferred<void>>();
const aborted = new Map<string, Deferred<string>>();
const gate = (key: string): Deferred<void> => gates.get(key) ?? gates.set(key, deferred()).get(key)!;
const abortOf = (key: string): Deferred<string> => aborted.get(key) ?? aborted.set(key, deferred()).get(key)!;

const gated = defineTool({
  name: "gated",
  task: "optional",
  input: { type: "object", properties: { key: { type: "string" } }, required: ["key"] },
  handler: async (event, { key }) => {
    const name = String(key);
    const signal = event.context.mcp!.signal;
    signal.addEventListener("abort", () => abortOf(name).resolve(String(signal.reason)), { once: true });
    gate(`${name}-started`).resolve();
    await Promise.race([gate(name).promise, abortOf(name).promise]);
    return `opened ${name}`;
  },
});

function instance(store: MemoryTaskStore): McpEventHandler {
  return defineMcpHandler({
    name: "tasks-legacy-shared",
    version: "1.0.0",
    tools: [gated],
    auth: staticAuth(),
    extensions: [tasks({ store, pollIntervalMs: 20 })],
  });
}

describe.each(HOSTS)("legacy tasks between principals and instances on %s", (host) => {
  const store = new MemoryTaskStore();
  let handlers: McpEventHandler[];
  let a: RunningHost;
  let b: RunningHost;
  beforeAll(async () => {
    handlers = [instance(store), instance(store)];
    [a, b] = await Promise.all(handlers.map((handler) => startHost(host, handler)));
  });
  afterAll(async () => {
    await Promise.all([a.close(), b.close()]);
    await Promise.all(handlers.map((handler) => handler.close()));
    await store.close();
  });

  it("bob gets for alice's task exactly the answer of an unknown id; alice's other session sees it", async () => {
    const alice = await openTaskSession(a.url, { token: "alice-token" });
    const bob = await openTaskSession(a.url, { token: "bob-token" });
    const key = `principals-${host}`;
    const created = legacyResult(
      await alice.rpc("tools/call", { name: "gated", arguments: { key }, task: { ttl: 60_000 } }),
    );
    const taskId = String(created.task.taskId);
    for (const method of ["tasks/get", "tasks/result", "tasks/cancel"]) {
      const foreign = legacyError(await bob.rpc(method, { taskId }));
      const unknown = legacyError(await bob.rpc(method, { taskId: `${taskId.slice(0, -2)}zz` }));
      expect(foreign.code, method).toBe(-32602);
      expect(foreign.message.replace(taskId, "<id>"), method).toBe(
        unknown.message.replace(`${taskId.slice(0, -2)}zz`, "<id>"),
      );
    }
    expect(legacyResult(await bob.rpc("tasks/list")).tasks).toEqual([]);
    const again = await openTaskSession(b.url, { token: "alice-token" });
    const listed = legacyResult(await again.rpc("tasks/list")).tasks as { taskId: string }[];
    expect(listed.map((task) => task.taskId)).toContain(taskId);
    gate(key).resolve();
    expect(legacyResult(await again.rpc("tasks/result", { taskId })).content).toEqual([
      { type: "text", text: `opened ${key}` },
    ]);
  });

  it("created on A, read on B; B's tasks/result is woken by A's outcome", async () => {
    const onA = await openTaskSession(a.url, { token: "alice-token" });
    const onB = await openTaskSession(b.url, { token: "alice-token" });
    const key = `instances-${host}`;
    const created = legacyResult(await onA.rpc("tools/call", { name: "gated", arguments: { key }, task: {} }));
    const taskId = String(created.task.taskId);
    await gate(`${key}-started`).promise;
    expect(legacyResult(await onB.rpc("tasks/get", { taskId }))).toMatchObject({ taskId, status: "working" });
    const waiting = onB.rpc("tasks/result", { taskId });
    gate(key).resolve();
    const result = legacyResult(await waiting);
    expect(result.content).toEqual([{ type: "text", text: `opened ${key}` }]);
    expect(result._meta["io.modelcontextprotocol/related-task"]).toEqual({ taskId });
  });

  it("a cancel sent to B reaches the handler running on A", async () => {
    const onA = await openTaskSession(a.url, { token: "alice-token" });
    const onB = await openTaskSession(b.url, { token: "alice-token" });
    const key = `cancel-${host}`;
    const created = legacyResult(await onA.rpc("tools/call", { name: "gated", arguments: { key }, task: {} }));
    const taskId = String(created.task.taskId);
    await gate(`${key}-started`).promise;
    expect(legacyResult(await onB.rpc("tasks/cancel", { taskId }))).toMatchObject({ taskId, status: "cancelled" });
    expect(await abortOf(key).promise).toMatch(/cancelled/);
    expect(legacyResult(await onA.rpc("tasks/get", { taskId })).status).toBe("cancelled");
  });
});
