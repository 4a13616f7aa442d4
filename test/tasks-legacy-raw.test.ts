/**
 * Tasks on the 2025-11-25 wire by hand, over real HTTP on h3 v2 and h3 v1: the spec's errors
 * (-32601 for a required tool called plainly and a forbidden one with a task, -32602 for a bad
 * `params.task`, an unknown id, a bad cursor, a cancel of a terminal task), failed tasks answered
 * on `tasks/result` with their error, sampling inside a task carried on the `tasks/result` stream,
 * the bound on waiting `tasks/result` requests and their release on disconnect, sessions of
 * earlier revisions, and a handler without the extension (-32601, no capability, no field).
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ErrorCode, McpError, defineMcpHandler, defineTool, type McpEventHandler } from "../src/index.ts";
import { tasks } from "../src/_entries/tasks.ts";
import { deferred, type Deferred } from "./helpers/deferred.ts";
import { HOSTS, startHost, type RunningHost } from "./helpers/hosts.ts";
import { openTaskSession, legacyError, legacyResult, type LegacyTaskSession } from "./helpers/legacy-task-rpc.ts";
import { POST_HEADERS } from "./helpers/rpc.ts";
import { liveSse } from "./helpers/live-sse.ts";
import { resultOf, taskRequest } from "./helpers/task-rpc.ts";

const RELATED = "io.modelcontextprotocol/related-task";
const gates = new Map<string, Deferred<void>>();
const gate = (key: string): Deferred<void> => gates.get(key) ?? gates.set(key, deferred()).get(key)!;
const KEY = { type: "object", properties: { key: { type: "string" } }, required: ["key"] } as const;

const tools = [
  defineTool({
    name: "gated",
    task: "optional",
    input: KEY,
    handler: async (_event, { key }) => {
      await gate(String(key)).promise;
      return `opened ${String(key)}`;
    },
  }),
  defineTool({ name: "must_task", task: "required", handler: () => "ran" }),
  defineTool({
    name: "reports",
    task: "required",
    input: KEY,
    handler: async (event, { key }) => {
      const mcp = event.context.mcp!;
      await gate(`${String(key)}-listening`).promise;
      await mcp.progress(1, 2, "half");
      await mcp.notify("notifications/custom", { step: 1 });
      return "reported";
    },
  }),
  defineTool({ name: "plain", handler: () => "plain" }),
  defineTool({
    name: "protocol_failure",
    task: "required",
    handler: () => {
      throw new McpError(ErrorCode.InvalidParams, "No such account", { account: 7 });
    },
  }),
  defineTool({
    name: "tool_failure",
    task: "optional",
    handler: () => {
      throw new Error("The disk is full");
    },
  }),
  defineTool({
    name: "summarize",
    task: "optional",
    handler: async (event) => {
      const answer = await event.context.mcp!.sample("summary", "Summarize the report");
      const content = answer.content as { type: string; text?: string };
      return `summary: ${content.type === "text" ? String(content.text) : "?"}`;
    },
  }),
];

/** Calls `name` with `params.task` and gives the created task. */
async function createLegacyTask(
  session: LegacyTaskSession,
  name: string,
  args: Record<string, unknown> = {},
  task: unknown = { ttl: 60_000 },
): Promise<Record<string, any>> {
  const created = legacyResult(await session.rpc("tools/call", { name, arguments: args, task }));
  expect(created.task, JSON.stringify(created)).toMatchObject({ status: "working", taskId: expect.any(String) });
  return created.task as Record<string, any>;
}

/** `tasks/result`, left open: its answer once it ends. */
function waitResult(session: LegacyTaskSession, taskId: string) {
  return session.rpc("tasks/result", { taskId });
}

describe.each(HOSTS)("legacy tasks by hand on %s", (host) => {
  let handler: McpEventHandler;
  let bare: McpEventHandler;
  let server: RunningHost;
  let withoutTasks: RunningHost;
  beforeAll(async () => {
    handler = defineMcpHandler({
      name: "tasks-legacy-raw",
      version: "1.0.0",
      tools,
      keepAliveMs: 50,
      extensions: [tasks({ pollIntervalMs: 20 })],
    });
    bare = defineMcpHandler({ name: "no-tasks", version: "1.0.0", tools });
    [server, withoutTasks] = await Promise.all([startHost(host, handler), startHost(host, bare)]);
  });
  afterAll(async () => {
    await Promise.all([server.close(), withoutTasks.close()]);
    await Promise.all([handler.close(), bare.close()]);
  });

  it("a required tool called plainly and a forbidden one with a task get -32601; an optional one runs either way", async () => {
    const session = await openTaskSession(server.url);
    const required = legacyError(await session.rpc("tools/call", { name: "must_task", arguments: {} }));
    expect(required.code).toBe(-32601);
    expect(required.message).toMatch(/requires task augmentation/);
    const forbidden = legacyError(await session.rpc("tools/call", { name: "plain", arguments: {}, task: {} }));
    expect(forbidden.code).toBe(-32601);
    expect(forbidden.message).toMatch(/does not support task augmentation/);
    gate("plainly").resolve();
    const plain = legacyResult(await session.rpc("tools/call", { name: "gated", arguments: { key: "plainly" } }));
    expect(plain.content).toEqual([{ type: "text", text: "opened plainly" }]);
    const unknown = legacyError(await session.rpc("tools/call", { name: "nope", arguments: {}, task: {} }));
    expect(unknown.code).toBe(-32602);
  });

  it("the legacy tools/list shows execution.taskSupport; the 2026-07-28 one does not", async () => {
    const session = await openTaskSession(server.url);
    const legacyTools = legacyResult(await session.rpc("tools/list")).tools as Record<string, any>[];
    expect(Object.fromEntries(legacyTools.map((tool) => [tool.name, tool.execution?.taskSupport]))).toMatchObject({
      gated: "optional",
      must_task: "required",
      plain: "forbidden",
    });
    const modernTools = resultOf(await taskRequest(server.url, "tools/list", {})).tools as Record<string, unknown>[];
    expect(modernTools.map((tool) => tool.name)).toContain("must_task");
    expect(modernTools.some((tool) => "execution" in tool)).toBe(false);
  });

  it("the handler's progress and notifications reach the GET stream with the related task; status notifications without", async () => {
    const session = await openTaskSession(server.url);
    const abort = new AbortController();
    const get = await fetch(server.url, {
      method: "GET",
      headers: { accept: "text/event-stream", "mcp-session-id": session.id, "mcp-protocol-version": "2025-11-25" },
      signal: abort.signal,
    });
    const stream = liveSse(get, abort);
    const key = `reports-${host}`;
    const created = legacyResult(
      await session.rpc("tools/call", {
        name: "reports",
        arguments: { key },
        task: {},
        _meta: { progressToken: "p-7" },
      }),
    );
    const taskId = String(created.task.taskId);
    gate(`${key}-listening`).resolve();
    const progress = JSON.parse((await stream.next(/notifications\/progress/, 5000)).data);
    expect(progress.params).toMatchObject({ progressToken: "p-7", progress: 1, total: 2, message: "half" });
    expect(progress.params._meta[RELATED]).toEqual({ taskId });
    const custom = JSON.parse((await stream.next(/notifications\/custom/, 5000)).data);
    expect(custom.params).toEqual({ step: 1, _meta: { [RELATED]: { taskId } } });
    const status = JSON.parse((await stream.next(/notifications\/tasks\/status/, 5000)).data);
    expect(status.params).toMatchObject({ taskId, status: "completed" });
    expect(status.params._meta).toBeUndefined();
    stream.close();
  });

  it("a hostile params.task gets -32602 and stores nothing; a long ttl is cut, none gets the default", async () => {
    const session = await openTaskSession(server.url);
    for (const task of ["soon", [], null, 7, { ttl: -1 }, { ttl: "60000" }, { ttl: true }, { ttl: {} }]) {
      const error = legacyError(await session.rpc("tools/call", { name: "must_task", arguments: {}, task }));
      expect(error.code, JSON.stringify(task)).toBe(-32602);
    }
    // JSON's 1e400 parses to Infinity.
    const body = `{"jsonrpc":"2.0","id":9,"method":"tools/call","params":{"name":"must_task","arguments":{},"task":{"ttl":1e400}}}`;
    const infinite = await session.sendText(body);
    expect(legacyError(infinite).code).toBe(-32602);
    expect(legacyResult(await session.rpc("tasks/list")).tasks).toEqual([]);
    expect((await createLegacyTask(session, "must_task", {}, { ttl: 1e12 })).ttl).toBe(3_600_000);
    expect((await createLegacyTask(session, "must_task", {}, {})).ttl).toBe(3_600_000);
    expect((await createLegacyTask(session, "must_task", {}, { ttl: 5000 })).ttl).toBe(5000);
  });

  it("an unknown id or a malformed one gets -32602 on tasks/get, tasks/result and tasks/cancel; a bad cursor too", async () => {
    const session = await openTaskSession(server.url);
    for (const method of ["tasks/get", "tasks/result", "tasks/cancel"]) {
      const unknown = legacyError(await session.rpc(method, { taskId: "no-such-task" }));
      expect(unknown, method).toEqual({ code: -32602, message: 'Unknown task: "no-such-task"' });
      for (const taskId of [undefined, 7, "", "x".repeat(129), { id: 1 }]) {
        expect(legacyError(await session.rpc(method, { taskId })).code, `${method} ${String(taskId)}`).toBe(-32602);
      }
    }
    for (const cursor of ["nope", 7, "", "c".repeat(2000)]) {
      expect(legacyError(await session.rpc("tasks/list", { cursor })).code, String(cursor)).toBe(-32602);
    }
  });

  it("a failed task: tasks/get says why, tasks/result answers the same JSON-RPC error; a tool error is failed too", async () => {
    const session = await openTaskSession(server.url);
    const protocol = await createLegacyTask(session, "protocol_failure");
    expect(legacyError(await waitResult(session, protocol.taskId))).toEqual({
      code: -32602,
      message: "No such account",
      data: { account: 7 },
    });
    const failed = legacyResult(await session.rpc("tasks/get", { taskId: protocol.taskId }));
    expect(failed).toMatchObject({ status: "failed", statusMessage: "The task failed: No such account" });
    const tool = await createLegacyTask(session, "tool_failure");
    const result = legacyResult(await waitResult(session, tool.taskId));
    expect(result).toMatchObject({ isError: true, _meta: { [RELATED]: { taskId: tool.taskId } } });
    expect(legacyResult(await session.rpc("tasks/get", { taskId: tool.taskId }))).toMatchObject({
      status: "failed",
      statusMessage: expect.stringContaining("The disk is full"),
    });
    const cancel = legacyError(await session.rpc("tasks/cancel", { taskId: tool.taskId }));
    expect(cancel).toEqual({ code: -32602, message: "Cannot cancel task: already in terminal status 'failed'" });
  });

  it("a cancelled task's tasks/result is an error; the waiting tasks/result ends with it", async () => {
    const session = await openTaskSession(server.url);
    const task = await createLegacyTask(session, "gated", { key: `never-${host}` });
    const waiting = waitResult(session, task.taskId);
    const cancelled = legacyResult(await session.rpc("tasks/cancel", { taskId: task.taskId }));
    expect(cancelled).toMatchObject({ taskId: task.taskId, status: "cancelled" });
    const error = legacyError(await waiting);
    expect(error).toMatchObject({ code: -32603, message: "The task was cancelled; it has no result" });
  });

  it("sampling inside a task reaches the client on the tasks/result stream with the related task", async () => {
    const session = await openTaskSession(server.url, { capabilities: { sampling: {} } });
    const task = await createLegacyTask(session, "summarize");
    const abort = new AbortController();
    const response = await fetch(server.url, {
      method: "POST",
      headers: { ...POST_HEADERS, "mcp-session-id": session.id, "mcp-protocol-version": "2025-11-25" },
      body: JSON.stringify({ jsonrpc: "2.0", id: "result-1", method: "tasks/result", params: { taskId: task.taskId } }),
      signal: abort.signal,
    });
    const stream = liveSse(response, abort);
    const asked = JSON.parse((await stream.next(/sampling\/createMessage/, 5000)).data);
    expect(asked.params._meta[RELATED]).toEqual({ taskId: task.taskId });
    expect(legacyResult(await session.rpc("tasks/get", { taskId: task.taskId })).status).toBe("input_required");
    const reply = {
      jsonrpc: "2.0",
      id: asked.id,
      result: { role: "assistant", content: { type: "text", text: "all good" }, model: "m" },
    };
    expect((await session.send(reply)).status).toBe(202);
    const final = JSON.parse((await stream.next(/"id":"result-1"/, 5000)).data);
    expect(final.result).toMatchObject({
      content: [{ type: "text", text: "summary: all good" }],
      _meta: { [RELATED]: { taskId: task.taskId } },
    });
    stream.close();
  });

  it("at most 32 tasks/result wait per owner; a disconnect releases its place", async () => {
    const session = await openTaskSession(server.url);
    const task = await createLegacyTask(session, "gated", { key: `held-${host}` });
    const open = async (): Promise<{ abort: AbortController; response: Response }> => {
      const abort = new AbortController();
      const response = await fetch(server.url, {
        method: "POST",
        headers: { ...POST_HEADERS, "mcp-session-id": session.id, "mcp-protocol-version": "2025-11-25" },
        body: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "tasks/result", params: { taskId: task.taskId } }),
        signal: abort.signal,
      });
      return { abort, response };
    };
    // Each answers its headers once its keep-alive opens the stream: by then it waits.
    const held = await Promise.all(Array.from({ length: 32 }, open));
    expect(held.every(({ response }) => response.headers.get("content-type")?.includes("text/event-stream"))).toBe(
      true,
    );
    const refused = legacyError(await waitResult(session, task.taskId));
    expect(refused).toMatchObject({ code: -32603, data: { limit: "resultWaitersPerOwner" } });
    for (const { abort } of held) abort.abort();
    // The disconnects reach the server one by one: ask until a place is free (a hang guard bounds it).
    for (let tries = 0; ; tries++) {
      const next = await open();
      if (next.response.headers.get("content-type")?.includes("text/event-stream")) {
        gate(`held-${host}`).resolve();
        const text = await next.response.text();
        expect(text).toContain(`opened held-${host}`);
        break;
      }
      expect(tries).toBeLessThan(200);
      await next.response.text();
    }
  });

  it("closing the handler while a legacy task runs stops it and records no incident", async () => {
    const incidents: string[] = [];
    const stopped = deferred<void>();
    const waits = defineTool({
      name: "waits",
      task: "required",
      handler: async (event) => {
        const signal = event.context.mcp!.signal;
        await new Promise((resolve) => signal.addEventListener("abort", resolve, { once: true }));
        stopped.resolve();
        return "stopped";
      },
    });
    const closing = defineMcpHandler({
      name: "closing",
      version: "1.0.0",
      tools: [waits],
      onIncident: (kind, error) => void incidents.push(`${kind}: ${String(error)}`),
      extensions: [tasks()],
    });
    const host2 = await startHost(host, closing);
    const session = await openTaskSession(host2.url);
    await createLegacyTask(session, "waits");
    await host2.close();
    await closing.close();
    await stopped.promise;
    // The stopped task's last steps (its outcome refused, its end told) settle within a few turns.
    for (let turn = 0; turn < 20; turn++) await new Promise((resolve) => setImmediate(resolve));
    expect(incidents).toEqual([]);
  });

  it("with auth off a task belongs to its session: another session gets the unknown-id answer", async () => {
    const mine = await openTaskSession(server.url);
    const other = await openTaskSession(server.url);
    const task = await createLegacyTask(mine, "must_task");
    for (const method of ["tasks/get", "tasks/result", "tasks/cancel"]) {
      expect(legacyError(await other.rpc(method, { taskId: task.taskId })), method).toEqual({
        code: -32602,
        message: `Unknown task: "${String(task.taskId)}"`,
      });
    }
    expect(legacyResult(await mine.rpc("tasks/get", { taskId: task.taskId })).taskId).toBe(task.taskId);
  });

  it("with sessions off and auth off, tasks work by id alone and tasks/list hands out no one's ids", async () => {
    const stateless = defineMcpHandler({
      name: "stateless",
      version: "1.0.0",
      tools,
      sessions: false,
      extensions: [tasks()],
    });
    const running = await startHost(host, stateless);
    const post = async (method: string, params: Record<string, unknown>): Promise<Record<string, any>> => {
      const response = await fetch(running.url, {
        method: "POST",
        headers: { ...POST_HEADERS, "mcp-protocol-version": "2025-11-25" },
        body: JSON.stringify({ jsonrpc: "2.0", id: 1, method, params }),
      });
      return (await response.json()) as Record<string, any>;
    };
    const created = await post("tools/call", { name: "must_task", arguments: {}, task: {} });
    const taskId = String(created.result.task.taskId);
    const result = await post("tasks/result", { taskId });
    expect(result.result).toMatchObject({ content: [{ type: "text", text: "ran" }], _meta: { [RELATED]: { taskId } } });
    expect((await post("tasks/list", {})).result).toEqual({ tasks: [] });
    await running.close();
    await stateless.close();
  });

  it("a session of 2025-06-18 calls a required tool plainly", async () => {
    const session = await openTaskSession(server.url, { version: "2025-06-18" });
    const result = legacyResult(await session.rpc("tools/call", { name: "must_task", arguments: {} }));
    expect(result.content).toEqual([{ type: "text", text: "ran" }]);
  });

  it("without the extension: no capability, no execution field, params.task ignored, -32601 on every task method", async () => {
    const opened = await fetch(withoutTasks.url, {
      method: "POST",
      headers: POST_HEADERS,
      body: JSON.stringify({
        jsonrpc: "2.0",
        id: 0,
        method: "initialize",
        params: { protocolVersion: "2025-11-25", capabilities: {}, clientInfo: { name: "x", version: "1" } },
      }),
    });
    const init = (await opened.json()) as { result: { capabilities: Record<string, unknown> } };
    expect(init.result.capabilities.tasks).toBeUndefined();
    const session = await openTaskSession(withoutTasks.url);
    const listed = legacyResult(await session.rpc("tools/list")).tools as Record<string, unknown>[];
    expect(listed.some((tool) => "execution" in tool)).toBe(false);
    const plain = legacyResult(await session.rpc("tools/call", { name: "must_task", arguments: {}, task: { ttl: 1 } }));
    expect(plain.content).toEqual([{ type: "text", text: "ran" }]);
    for (const method of ["tasks/get", "tasks/result", "tasks/list", "tasks/cancel"]) {
      expect(legacyError(await session.rpc(method, { taskId: "x" })).code, method).toBe(-32601);
    }
  });
});
