/**
 * The tasks of the 2025-11-25 wire (experimental, in the core of that revision), on the same
 * manager as the extension of 2026-07-28: the `tasks` capability at `initialize`,
 * `execution.taskSupport` on each tool in `tools/list`, a `tools/call` with `params.task: { ttl }`
 * answered with `CreateTaskResult` (`{ task }`), then `tasks/get`, the blocking `tasks/result`,
 * `tasks/list` (the caller's own, paginated) and `tasks/cancel`; `notifications/tasks/status` and
 * the handler's notifications reach the session's stream.
 */
import { ErrorCode, McpError, echoValue } from "../../index.ts";
import type { JsonObject } from "../../index.ts";
import type { McpExtensionPoint, McpMethodCall, McpToolCallWrapper } from "../../types/extensions.ts";
import { ANONYMOUS_OWNER, readTaskId, unknownTask, type TaskViewer } from "../identity.ts";
import type { TaskManager } from "../manager.ts";
import { isTerminal } from "../terminal.ts";
import { LegacyTaskNotices } from "./notices.ts";
import { ResultWaiters, awaitTaskResult } from "./result.ts";
import { legacyOwner, legacyStatus, legacyTask, readCursor, readTaskParam } from "./task.ts";
import { startTask } from "../start.ts";

/** What `initialize` advertises: `tasks/list`, `tasks/cancel`, and task-augmented `tools/call`. */
export const LEGACY_TASKS_CAPABILITY: JsonObject = {
  tasks: { list: {}, cancel: {}, requests: { tools: { call: {} } } },
};

/** The revision that brought tasks; sessions of earlier ones call every tool plainly. */
const TASKS_SINCE = "2025-11-25";

/** How many tasks one `tasks/list` page holds. */
export const TASK_LIST_PAGE = 20;

/** `tools/call`: with `params.task`, a tool that may run as a task runs as one. */
function legacyToolCall(manager: TaskManager, notices: LegacyTaskNotices): McpToolCallWrapper {
  return (call, next) => {
    if (call.context.protocolVersion < TASKS_SINCE) return next();
    const requested = readTaskParam(call.params);
    const tool = call.tool;
    if (tool === undefined) return next();
    if (requested === undefined) {
      if (tool.task !== "required") return next();
      throw new McpError(
        ErrorCode.MethodNotFound,
        `Tool ${echoValue(tool.name)} requires task augmentation (execution.taskSupport "required"): call it with params.task`,
      );
    }
    if (tool.task === undefined) {
      throw new McpError(
        ErrorCode.MethodNotFound,
        `Tool ${echoValue(tool.name)} does not support task augmentation (execution.taskSupport "forbidden"): call it without params.task`,
      );
    }
    const context = call.context;
    let createdId: string | undefined;
    let ended = false;
    const started = startTask(manager, call, {
      defer: false,
      ttlMs: requested.ttl,
      owner: legacyOwner(context),
      relay: (message, taskId) => notices.relay(context, { taskId, tool: tool.name }, message),
      onEnd: () => {
        ended = true;
        if (createdId !== undefined) notices.end(createdId);
      },
    });
    return started.then((outcome) => {
      if (!("task" in outcome)) return outcome.result;
      createdId = outcome.task.taskId;
      notices.follow(outcome.task, context, call.access);
      if (ended) notices.end(createdId);
      return { task: legacyTask(outcome.task) };
    });
  };
}

/**
 * A task method: the id checked, then the task as this request may see it (its caller's own, of a
 * tool it may call: the manager answers any other as unknown).
 */
function taskMethod(
  serve: (taskId: string, viewer: TaskViewer, call: McpMethodCall) => Promise<JsonObject>,
): (call: McpMethodCall) => Promise<JsonObject> {
  return async (call) => serve(readTaskId(call.params), viewerOf(call), call);
}

/** Who a legacy request stands for, and what it may call. */
function viewerOf(call: McpMethodCall): TaskViewer {
  return { owner: legacyOwner(call.context), access: call.access };
}

/** Plugs the 2025-11-25 wire of tasks into a handler. */
export function plugLegacyTasks(server: McpExtensionPoint, manager: TaskManager): void {
  const legacy = ["legacy"] as const;
  const notices = new LegacyTaskNotices(manager);
  // Plugged before the manager's own closer: the tasks it stops find nothing to tell.
  server.onClose(() => notices.close());
  const waiters = new ResultWaiters();
  server.advertise(LEGACY_TASKS_CAPABILITY, legacy);
  server.decorateTools((entry, tool) => ({ ...entry, execution: { taskSupport: tool.task ?? "forbidden" } }), legacy);
  server.wrapToolCall(legacyToolCall(manager, notices), legacy);
  server.method(
    "tasks/get",
    taskMethod(async (taskId, viewer) => {
      const task = await manager.get(taskId, viewer);
      if (!task) throw unknownTask(taskId);
      return legacyTask(task);
    }),
    legacy,
  );
  server.method(
    "tasks/result",
    taskMethod((taskId, viewer, call) => awaitTaskResult(manager, waiters, call, taskId, viewer)),
    legacy,
  );
  server.method(
    "tasks/list",
    async (call) => {
      const cursor = readCursor(call.params);
      const viewer = viewerOf(call);
      // Unbound callers (no auth, no session) share one owner: listing it would hand out others' ids.
      if (viewer.owner === ANONYMOUS_OWNER) return { tasks: [] };
      const page = await manager.list(viewer, cursor, TASK_LIST_PAGE);
      if (!page) throw new McpError(ErrorCode.InvalidParams, "Invalid params: unknown or expired cursor");
      const answer: JsonObject = { tasks: page.tasks.map(legacyTask) };
      if (page.nextCursor !== undefined) answer.nextCursor = page.nextCursor;
      return answer;
    },
    legacy,
  );
  server.method(
    "tasks/cancel",
    taskMethod(async (taskId, viewer) => {
      const task = await manager.get(taskId, viewer);
      if (!task) throw unknownTask(taskId);
      if (isTerminal(task)) throw alreadyTerminal(legacyStatus(task));
      const after = await manager.cancel(taskId, viewer);
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
  return new McpError(ErrorCode.InvalidParams, `Cannot cancel task: already in terminal status '${status}'`);
}
