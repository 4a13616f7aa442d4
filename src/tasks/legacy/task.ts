/**
 * The 2025-11-25 shapes of a task (experimental tasks in the core): the `Task` object of
 * `CreateTaskResult.task`, `tasks/get`, `tasks/list`, `tasks/cancel` and `notifications/tasks/status`
 * (times as ISO strings, `ttl` and `pollInterval` in ms), the `params.task` a client asks with, the
 * related-task `_meta`, and who owns a task a legacy caller creates.
 */
import { ErrorCode, McpError, echoValue } from "../../index.ts";
import type { JsonObject } from "../../index.ts";
import { isObject } from "../json.ts";
import type { McpContext } from "../../types/context.ts";
import type { TaskState, TaskStatus } from "../../types/tasks.ts";
import { ownerOf } from "../identity.ts";

/** The `_meta` key that ties a message to its task. */
export const RELATED_TASK = "io.modelcontextprotocol/related-task";

/** Diagnostic status messages are cut to this many characters. */
const MAX_DIAGNOSTIC = 1000;

/**
 * Who owns the tasks a legacy caller creates: its principal when auth is on; else its session (as
 * the 1.x SDK scopes them), so that `tasks/list` shows no one else's ids; else (sessions off)
 * anonymous, whose tasks no list shows (the id is then the only secret).
 */
export function legacyOwner(context: McpContext): string {
  if (context.principal !== undefined || context.sessionId === undefined) return ownerOf(context);
  return `session:${context.sessionId}`;
}

/**
 * The status a legacy client sees: the 2025-11-25 spec has a tool result with `isError: true`
 * reach `failed` (the extension of 2026-07-28 keeps it `completed`); `tasks/result` still answers
 * that result.
 */
export function legacyStatus(task: TaskState): TaskStatus {
  return task.status === "completed" && task.result?.isError === true ? "failed" : task.status;
}

/** The `Task` object of the 2025-11-25 wire. */
export function legacyTask(task: TaskState): JsonObject {
  const status = legacyStatus(task);
  const wire: JsonObject = {
    taskId: task.taskId,
    status,
    createdAt: new Date(task.createdAt).toISOString(),
    lastUpdatedAt: new Date(task.lastUpdatedAt).toISOString(),
    ttl: task.ttlMs,
  };
  const message = statusMessageOf(task, status);
  if (message !== undefined) wire.statusMessage = message;
  if (task.pollIntervalMs !== undefined) wire.pollInterval = task.pollIntervalMs;
  return wire;
}

/** A failed task says why (the spec asks for diagnostics); a cancelled one says so; else the handler's message. */
function statusMessageOf(task: TaskState, status: TaskStatus): string | undefined {
  if (status === "cancelled") return "The task was cancelled";
  if (status !== "failed") return task.statusMessage;
  if (task.error) return `The task failed: ${String(task.error.message).slice(0, MAX_DIAGNOSTIC)}`;
  const content = task.result?.content;
  const first = Array.isArray(content) ? content[0] : undefined;
  const text = isObject(first) && typeof first.text === "string" ? first.text.slice(0, MAX_DIAGNOSTIC) : undefined;
  return text === undefined ? "The tool returned an error result" : `The tool returned an error: ${text}`;
}

/** `params` with the related-task `_meta` of `taskId` added (a copy; `_meta` kept). */
export function withRelatedTask(params: JsonObject | undefined, taskId: string): JsonObject {
  const meta = isObject(params?._meta) ? params._meta : {};
  return { ...params, _meta: { ...meta, [RELATED_TASK]: { taskId } } };
}

/**
 * The `params.task` of a `tools/call`: undefined when absent; else `{ ttl? }`, checked (an object;
 * `ttl`, when present, a number of milliseconds from 0 up). Anything else is -32602.
 */
export function readTaskParam(params: JsonObject): { ttl: number | undefined } | undefined {
  const task = params.task;
  if (task === undefined) return undefined;
  if (!isObject(task))
    throw new McpError(ErrorCode.InvalidParams, 'Invalid params: "task" must be an object, e.g. { "ttl": 60000 }');
  const ttl = task.ttl;
  if (ttl === undefined || ttl === null) return { ttl: undefined };
  if (typeof ttl !== "number" || !Number.isFinite(ttl) || ttl < 0) {
    throw new McpError(
      ErrorCode.InvalidParams,
      `Invalid params: "task.ttl" must be a number of milliseconds (0 or more), not ${echoValue(ttl)}`,
    );
  }
  return { ttl };
}

/** The longest `tasks/list` cursor a request may give; longer ones are refused before any store is asked. */
const MAX_CURSOR_LENGTH = 512;

/** The `cursor` of `tasks/list`: absent, or a string of 1 to 512 characters. */
export function readCursor(params: JsonObject): string | undefined {
  const cursor = params.cursor;
  if (cursor === undefined) return undefined;
  if (typeof cursor !== "string" || cursor.length === 0 || cursor.length > MAX_CURSOR_LENGTH) {
    throw new McpError(ErrorCode.InvalidParams, `Invalid params: "cursor" must be a cursor a tasks/list answer gave`);
  }
  return cursor;
}
