/**
 * The 2026-07-28 tasks wire (SEP-2663) by hand: requests with the standard headers and the `_meta`
 * envelope a modern client sends, the tasks extension declared or not, and polling `tasks/get`
 * until a task reaches a status.
 */
import { expect } from "vitest";
import { liveSse, type LiveSse } from "./live-sse.ts";
import { POST_HEADERS, toAnswer, type Answer, type RpcMessage } from "./rpc.ts";

export const TASKS = "io.modelcontextprotocol/tasks";
const MODERN = "2026-07-28";

export interface TaskRequestOptions {
  /** Declare the tasks extension in `_meta` client capabilities (default true). */
  extension?: boolean;
  /** Bearer token (auth on). */
  token?: string;
  /** Headers on top of the standard ones (e.g. a wrong `Mcp-Name`). */
  headers?: Record<string, string>;
}

let nextId = 1;

/** One modern request; `Mcp-Name` is the tool name or the task id, as a client sends it. */
export async function taskRequest(
  url: string,
  method: string,
  params: Record<string, unknown>,
  options: TaskRequestOptions = {},
): Promise<Answer> {
  const capabilities: Record<string, unknown> = { elicitation: {} };
  if (options.extension !== false) capabilities.extensions = { [TASKS]: {} };
  const name = method === "tools/call" ? params.name : params.taskId;
  const headers: Record<string, string> = {
    ...POST_HEADERS,
    "mcp-protocol-version": MODERN,
    "mcp-method": method,
    ...(typeof name === "string" ? { "mcp-name": name } : {}),
    ...(options.token ? { authorization: `Bearer ${options.token}` } : {}),
    ...options.headers,
  };
  const meta = {
    "io.modelcontextprotocol/protocolVersion": MODERN,
    "io.modelcontextprotocol/clientCapabilities": capabilities,
    "io.modelcontextprotocol/clientInfo": { name: "tasks-test", version: "1" },
  };
  const body = JSON.stringify({ jsonrpc: "2.0", id: nextId++, method, params: { ...params, _meta: meta } });
  return toAnswer(await fetch(url, { method: "POST", headers, body }));
}

/** The result of a JSON answer (fails the test on an error). */
export function resultOf(answer: Answer): Record<string, unknown> {
  const message = answer.json as RpcMessage | undefined;
  const final = message ?? answer.events.map((event) => JSON.parse(event.data) as RpcMessage).find((m) => "id" in m);
  expect(final?.error, answer.text).toBeUndefined();
  expect(final?.result, answer.text).toBeDefined();
  return final!.result!;
}

/** The JSON-RPC error of an answer. */
export function errorOf(answer: Answer): { code: number; message: string; data?: unknown } {
  const message = answer.json as RpcMessage | undefined;
  expect(message?.error, answer.text).toBeDefined();
  return message!.error!;
}

/** Calls a tool and expects a task: the flat CreateTaskResult. */
export async function createTask(
  url: string,
  name: string,
  args: Record<string, unknown> = {},
  options: TaskRequestOptions = {},
): Promise<Record<string, unknown>> {
  const created = resultOf(await taskRequest(url, "tools/call", { name, arguments: args }, options));
  expect(created.resultType, JSON.stringify(created)).toBe("task");
  return created;
}

/** Polls `tasks/get` every 20 ms until `done` holds (a hang guard of 10 s). */
export async function pollTask(
  url: string,
  taskId: string,
  done: (task: Record<string, unknown>) => boolean,
  options: TaskRequestOptions = {},
): Promise<Record<string, unknown>> {
  const deadline = Date.now() + 10_000;
  for (;;) {
    const task = resultOf(await taskRequest(url, "tasks/get", { taskId }, options));
    if (done(task)) return task;
    if (Date.now() > deadline) throw new Error(`task ${taskId} stuck at ${JSON.stringify(task)}`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

export const isTerminal = (task: Record<string, unknown>): boolean =>
  task.status === "completed" || task.status === "failed" || task.status === "cancelled";

/**
 * A modern `subscriptions/listen` for `taskIds` with the bearer `token`, the tasks extension declared: the open
 * stream when it is one (its acknowledgement still to read), else the JSON answer (a refusal).
 */
export async function listenForTasks(
  url: string,
  token: string,
  taskIds: unknown,
): Promise<{ answer?: Answer; stream?: LiveSse }> {
  const meta = {
    "io.modelcontextprotocol/protocolVersion": MODERN,
    "io.modelcontextprotocol/clientCapabilities": { extensions: { [TASKS]: {} } },
  };
  const body = JSON.stringify({
    jsonrpc: "2.0",
    id: nextId++,
    method: "subscriptions/listen",
    params: { notifications: { taskIds }, _meta: meta },
  });
  const headers = {
    ...POST_HEADERS,
    authorization: `Bearer ${token}`,
    "mcp-protocol-version": MODERN,
    "mcp-method": "subscriptions/listen",
  };
  const abort = new AbortController();
  const response = await fetch(url, { method: "POST", headers, body, signal: abort.signal });
  if (response.headers.get("content-type")?.includes("text/event-stream")) return { stream: liveSse(response, abort) };
  return { answer: await toAnswer(response) };
}
