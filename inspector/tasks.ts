/**
 * Tools called as tasks, in either era, through the official tasks client library
 * (`@modelcontextprotocol/ext-tasks`): it sends the task-augmented call, follows the task (polling
 * `tasks/get`, or the legacy `tasks/result` stream and its status notifications), routes the task's
 * input requests to the page's handlers (legacy: `elicitation/create` on the session, answered by the
 * client's handlers; modern: `input_required`, answered with `tasks/update`) and cancels it (`tasks/cancel`).
 *
 * What the library leaves to its host, written here: the modern era's request coordinator
 * (`rawDispatch`). The 2.x client refuses the tasks extension's methods toward a 2026-07-28 server, so
 * those requests are POSTed here, with the standard headers a modern request carries, through the
 * page's recording fetch (they show in the protocol panel like every other exchange).
 */
import type { Client, Tool } from "@modelcontextprotocol/client";
import {
  createApplicationInputHandler,
  createTaskSessionFromClient,
  toolDeclarationFromMcpTool,
  type ApplicationCreateMessageResult,
  type ApplicationElicitResult,
  type JsonRpcResponse,
  type TaskEnabledSession,
  type TaskView,
} from "@modelcontextprotocol/ext-tasks/client";
import { EventSourceParserStream } from "eventsource-parser/stream";
import { z } from "zod";

export const MODERN_VERSION = "2026-07-28";
export const TASKS_EXTENSION = "io.modelcontextprotocol/tasks";

/** What a task run needs from the page. */
export interface TaskHost {
  client: Client;
  modern: boolean;
  endpoint: URL;
  fetch: typeof fetch;
  /** Extra headers of every request (the bearer token). */
  headers: Record<string, string>;
  tools: Map<string, Tool>;
  elicit(params: Record<string, unknown>, signal?: AbortSignal): Promise<unknown>;
  sample(params: Record<string, unknown>, signal?: AbortSignal): Promise<unknown>;
  roots(): { uri: string }[];
}

/** A header value as the modern transport sends it: plain ASCII as is, anything else in the Base64 sentinel. */
function headerValue(value: string): string {
  if (/^[\x21-\x7e](?:[\x20-\x7e]*[\x21-\x7e])?$/.test(value) && !value.startsWith("=?base64?")) return value;
  const bytes = new TextEncoder().encode(value);
  return `=?base64?${btoa(String.fromCharCode(...bytes))}?=`;
}

/** The JSON-RPC answer to request `id` in a JSON body or an SSE stream (the client library's parser reads the events). */
async function answerOf(response: Response, id: string): Promise<Record<string, unknown>> {
  const type = response.headers.get("content-type") ?? "";
  if (type.startsWith("application/json")) return (await response.json()) as Record<string, unknown>;
  if (!type.startsWith("text/event-stream") || !response.body) {
    throw new Error(`HTTP ${response.status}: ${(await response.text()).slice(0, 200)}`);
  }
  const reader = response.body
    .pipeThrough(new TextDecoderStream())
    .pipeThrough(new EventSourceParserStream())
    .getReader();
  try {
    for (;;) {
      const { value, done } = await reader.read();
      if (done) throw new Error("the stream ended without an answer");
      if (!value.data) continue;
      const message = JSON.parse(value.data) as Record<string, unknown>;
      if (message.id === id && ("result" in message || "error" in message)) return message;
    }
  } finally {
    await reader.cancel().catch(() => {});
  }
}

/** The modern era's request coordinator: the library hands over method and framed params; id and headers are ours. */
function modernDispatch(
  host: TaskHost,
): (request: unknown, options?: { signal?: AbortSignal }) => Promise<JsonRpcResponse> {
  let nextId = 0;
  return async (request, options) => {
    const message = request as { method: string; params?: { name?: unknown; taskId?: unknown } };
    // Ids of their own kind, apart from the client's numbers (the protocol panel shows both).
    const id = `task-${++nextId}`;
    // Mcp-Name names the tool of tools/call and the task of the tasks extension's methods.
    const named = message.method === "tools/call" ? message.params?.name : message.params?.taskId;
    const name = typeof named === "string" ? named : "";
    const response = await host.fetch(host.endpoint, {
      method: "POST",
      headers: {
        "content-type": "application/json",
        accept: "application/json, text/event-stream",
        "mcp-protocol-version": MODERN_VERSION,
        "mcp-method": message.method,
        ...(name ? { "mcp-name": headerValue(name) } : {}),
        ...host.headers,
      },
      body: JSON.stringify({ jsonrpc: "2.0", id, ...message }),
      signal: options?.signal,
    });
    const answer = await answerOf(response, id);
    if ("error" in answer) return { kind: "error", error: answer as never };
    return { kind: "result", result: answer.result as never };
  };
}

/** One tasks session per connection; closed with it. */
export function openTaskSession(host: TaskHost): TaskEnabledSession {
  const onInputRequest = createApplicationInputHandler({
    elicitation: async (request, context) =>
      (await host.elicit(request.params as never, context.signal)) as ApplicationElicitResult,
    sampling: async (request, context) =>
      (await host.sample(request.params as never, context.signal)) as ApplicationCreateMessageResult,
    roots: () => ({ roots: host.roots() }),
  });
  const tools = {
    currentTool: (name: string) => {
      const tool = host.tools.get(name);
      return tool ? toolDeclarationFromMcpTool(tool) : undefined;
    },
  };
  const endpointId = `mcp-h3-inspector ${host.endpoint.href}`;
  if (!host.modern) return createTaskSessionFromClient(host.client, { endpointId, tools, onInputRequest });
  return createTaskSessionFromClient(host.client, {
    endpointId,
    tools,
    onInputRequest,
    rawDispatch: modernDispatch(host) as never,
    v2RequestFraming: {
      protocolVersion: MODERN_VERSION,
      clientInfo: { name: "mcp-h3-inspector", version: "0.1.0" },
      clientCapabilities: { elicitation: { form: {}, url: {} }, sampling: {}, roots: {} },
    },
  });
}

/** Whether a tool may run as a task (`execution.taskSupport` optional or required). */
export function taskSupport(tool: Tool | undefined): "forbidden" | "optional" | "required" {
  const support = (tool as { execution?: { taskSupport?: unknown } } | undefined)?.execution?.taskSupport;
  return support === "optional" || support === "required" ? support : "forbidden";
}

export interface TaskRunEvents {
  /** Each status the task reports (created, working, input_required, a status message, the end). */
  onTask(task: TaskView): void;
}

const ANY_RESULT = z.looseObject({});

/**
 * The legacy era's input requests travel on the `tasks/result` stream (2025-11-25: a requestor that
 * sees `input_required` calls it, and the server sends its `elicitation/create` there). The library
 * polls to a terminal status before it calls `tasks/result`, so the page opens that stream itself,
 * once per task, through the same client: the requests that arrive reach the client's handlers.
 */
function openLegacyInputStream(client: Client, taskId: string, signal: AbortSignal): void {
  client.request({ method: "tasks/result", params: { taskId } } as never, ANY_RESULT, { signal }).catch(() => {
    // The library reads the outcome itself; this stream only carries the input requests.
  });
}

/**
 * Calls `name` as a task and follows it to its end; `signal` cancels the task on the server
 * (`tasks/cancel`) and ends the wait. Resolves with the tool's result; throws on failure or cancellation.
 */
export async function runAsTask(
  session: TaskEnabledSession,
  name: string,
  args: Record<string, unknown>,
  events: TaskRunEvents,
  signal: AbortSignal,
  legacyClient?: Client,
): Promise<{ result: unknown; cancelled: boolean }> {
  // "prefer": legacy runs a tool that allows it as a task; in the modern era the server decides, and an immediate
  // result is a result (with "require" the library would throw on it).
  const execution = await session.callTool(name, args as never, { task: { preference: "prefer" } });
  const onAbort = (): void => void execution.cancel().catch(() => {});
  signal.addEventListener("abort", onAbort, { once: true });
  const inputStream = new AbortController();
  let streamOpen = false;
  try {
    const { outcome } = await execution.settle({
      onEvent: (event) => {
        const task = event.type === "task" ? event.task : event.outcome.task;
        if (!task) return;
        if (legacyClient && task.status === "input_required" && !streamOpen) {
          streamOpen = true;
          openLegacyInputStream(legacyClient, task.taskId, inputStream.signal);
        }
        events.onTask(task);
      },
    });
    if (outcome.status === "completed") return { result: outcome.result, cancelled: false };
    if (outcome.status === "cancelled") return { result: undefined, cancelled: true };
    throw outcome.error;
  } finally {
    signal.removeEventListener("abort", onAbort);
    inputStream.abort();
  }
}
