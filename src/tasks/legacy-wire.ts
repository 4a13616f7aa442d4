/**
 * The tasks of the 2025-11-25 wire (experimental, in the core of that revision), on the same
 * engine as the extension of 2026-07-28: the `tasks` capability at `initialize`,
 * `execution.taskSupport` on each tool in `tools/list`, a `tools/call` with `params.task: { ttl }`
 * answered with `CreateTaskResult` (`{ task }`), then `tasks/get`, the blocking `tasks/result`,
 * `tasks/list` (the caller's own, paginated) and `tasks/cancel`; `notifications/tasks/status` and
 * the handler's notifications reach the session's stream.
 */
import { echoValue } from "../protocol/echo.ts";
import { INVALID_PARAMS, METHOD_NOT_FOUND, McpError } from "../protocol/errors.ts";
import type { JsonObject } from "../protocol/jsonrpc.ts";
import type { McpExtensionPoint, McpMethodCall, McpToolCallWrapper } from "../types/extensions.ts";
import { ANONYMOUS_OWNER } from "./identity.ts";
import { isTerminal, type TaskEngine } from "./engine.ts";
import { LegacyTaskNotices } from "./legacy-notices.ts";
import { ResultWaiters, awaitTaskResult } from "./legacy-result.ts";
import { legacyOwner, legacyStatus, legacyTask, readCursor, readTaskParam } from "./legacy-task.ts";
import { readTaskId, unknownTask } from "./modern-wire.ts";
import { startTask } from "./start.ts";

/** What `initialize` advertises: `tasks/list`, `tasks/cancel`, and task-augmented `tools/call`. */
export const LEGACY_TASKS_CAPABILITY: JsonObject = {
  tasks: { list: {}, cancel: {}, requests: { tools: { call: {} } } },
};

/** The revision that brought tasks; sessions of earlier ones call every tool plainly. */
const TASKS_SINCE = "2025-11-25";

/** How many tasks one `tasks/list` page holds. */
export const TASK_LIST_PAGE = 20;

/** `tools/call`: with `params.task`, a tool that may run as a task runs as one. */
function legacyToolCall(engine: TaskEngine, notices: LegacyTaskNotices): McpToolCallWrapper {
  return (call, next) => {
    if (call.context.protocolVersion < TASKS_SINCE) return next();
    const requested = readTaskParam(call.params);
    const tool = call.tool;
    if (tool === undefined) return next();
    if (requested === undefined) {
      if (tool.task !== "required") return next();
      throw new McpError(
        METHOD_NOT_FOUND,
        `Tool ${echoValue(tool.name)} requires task augmentation (execution.taskSupport "required"): call it with params.task`,
      );
    }
    if (tool.task === undefined) {
      throw new McpError(
        METHOD_NOT_FOUND,
        `Tool ${echoValue(tool.name)} does not support task augmentation (execution.taskSupport "forbidden"): call it without params.task`,
      );
    }
    const context = call.context;
    let createdId: string | undefined;
    let ended = false;
    const started = startTask(engine, call, {
      defer: false,
      ttlMs: requested.ttl,
      owner: legacyOwner(context),
      relay: (message, taskId) => notices.relay(context, taskId, message),
      onEnd: () => {
        ended = true;
        if (createdId !== undefined) notices.end(createdId);
      },
    });
    return started.then((outcome) => {
      if (!("task" in outcome)) return outcome.result;
      createdId = outcome.task.taskId;
      notices.follow(outcome.task, context);
      if (ended) notices.end(createdId);
      return { task: legacyTask(outcome.task) };
    });
  };
}

/** A task method: the id checked, then the task of this caller (another's is answered as unknown). */
function taskMethod(
  serve: (taskId: string, owner: string, call: McpMethodCall) => Promise<JsonObject>,
): (call: McpMethodCall) => Promise<JsonObject> {
  return async (call) => serve(readTaskId(call.params), legacyOwner(call.context), call);
}

/** Plugs the 2025-11-25 wire of tasks into a handler. */
export function plugLegacyTasks(server: McpExtensionPoint, engine: TaskEngine): void {
  const legacy = ["legacy"] as const;
  const notices = new LegacyTaskNotices(engine);
  // Plugged before the engine's own closer: the tasks it stops find nothing to tell.
  server.onClose(() => notices.close());
  const waiters = new ResultWaiters();
  server.advertise(LEGACY_TASKS_CAPABILITY, legacy);
  server.decorateTools((entry, tool) => ({ ...entry, execution: { taskSupport: tool.task ?? "forbidden" } }), legacy);
  server.wrapToolCall(legacyToolCall(engine, notices), legacy);
  server.method(
    "tasks/get",
    taskMethod(async (taskId, owner) => {
      const task = await engine.get(taskId, owner);
      if (!task) throw unknownTask(taskId);
      return legacyTask(task);
    }),
    legacy,
  );
  server.method(
    "tasks/result",
    taskMethod((taskId, owner, call) => awaitTaskResult(engine, waiters, call, taskId, owner)),
    legacy,
  );
  server.method(
    "tasks/list",
    async (call) => {
      const cursor = readCursor(call.params);
      const owner = legacyOwner(call.context);
      // Unbound callers (no auth, no session) share one owner: listing it would hand out others' ids.
      if (owner === ANONYMOUS_OWNER) return { tasks: [] };
      const page = await engine.list(owner, cursor, TASK_LIST_PAGE);
      if (!page) throw new McpError(INVALID_PARAMS, "Invalid params: unknown or expired cursor");
      const answer: JsonObject = { tasks: page.tasks.map(legacyTask) };
      if (page.nextCursor !== undefined) answer.nextCursor = page.nextCursor;
      return answer;
    },
    legacy,
  );
  server.method(
    "tasks/cancel",
    taskMethod(async (taskId, owner) => {
      const task = await engine.get(taskId, owner);
      if (!task) throw unknownTask(taskId);
      if (isTerminal(task)) throw alreadyTerminal(legacyStatus(task));
      const after = await engine.cancel(taskId, owner);
      if (!after) throw unknownTask(taskId);
      // It ended on its own between the two reads.
      if (after.status !== "cancelled") throw alreadyTerminal(legacyStatus(after));
      return legacyTask(after);
    }),
    legacy,
  );
}

/** The spec's answer to cancelling a terminal task. */
function alreadyTerminal(status: string): McpError {
  return new McpError(INVALID_PARAMS, `Cannot cancel task: already in terminal status '${status}'`);
}
