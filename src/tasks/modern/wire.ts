/**
 * The tasks extension on the 2026-07-28 wire (SEP-2663): the client opts in per request (its
 * `_meta` client capabilities name `io.modelcontextprotocol/tasks`), and the server decides which
 * `tools/call` becomes a task; `tasks/get` inlines the result or error, `tasks/update` answers input
 * requests, `tasks/cancel` acks. `tasks/result` and `tasks/list` do not exist on this wire (-32601).
 */
import { ErrorCode, McpError, echoValue } from "../../index.ts";
import type { JsonObject } from "../../index.ts";
import { isObject } from "../json.ts";
import type { McpContext } from "../../types/context.ts";
import type { McpExtensionPoint, McpMethodCall, McpToolCallWrapper } from "../../types/extensions.ts";
import type { TaskManager } from "../manager.ts";
import { ownerOf, readTaskId, unknownTask, type TaskViewer } from "../identity.ts";
import { tasksListenSource } from "./listen-source.ts";
import { modernTask } from "./task.ts";
import { startTask } from "../start.ts";

/** The extension's name, in `capabilities.extensions` of both sides. */
export const TASKS_EXTENSION = "io.modelcontextprotocol/tasks";

/** The most answers one `tasks/update` may carry. */
const MAX_INPUT_RESPONSES = 64;

/** Whether the request's client capabilities (its `_meta`) name the extension. */
export function hasTasksExtension(context: McpContext): boolean {
  const extensions = context.clientCapabilities?.extensions;
  return isObject(extensions) && isObject(extensions[TASKS_EXTENSION]);
}

/** -32021 with `data.requiredCapabilities`: the request needs the extension it did not declare. */
function missingExtension(what: string): McpError {
  return new McpError(
    ErrorCode.MissingRequiredClientCapability,
    `Missing required client capability: ${what} needs the ${TASKS_EXTENSION} extension in the request's client capabilities`,
    { requiredCapabilities: { extensions: { [TASKS_EXTENSION]: {} } } },
  );
}

/** Answers from `tasks/update`: an object of at most 64 objects. */
function readInputResponses(value: unknown): JsonObject {
  if (!isObject(value))
    throw new McpError(ErrorCode.InvalidParams, 'Invalid params: "inputResponses" must be an object');
  let count = 0;
  for (const key in value) {
    if (++count > MAX_INPUT_RESPONSES) {
      throw new McpError(
        ErrorCode.InvalidParams,
        `Invalid params: "inputResponses" holds more than ${MAX_INPUT_RESPONSES} answers`,
      );
    }
    if (!isObject(value[key])) {
      throw new McpError(
        ErrorCode.InvalidParams,
        `Invalid params: inputResponses[${echoValue(key)}] must be an object`,
      );
    }
  }
  return value;
}

/** `tools/call`: a task-capable tool called by a client that opted in runs as a task. */
function modernToolCall(manager: TaskManager): McpToolCallWrapper {
  return (call, next) => {
    const support = call.tool?.task;
    if (support === undefined) return next();
    if (!hasTasksExtension(call.context)) {
      if (support === "required") throw missingExtension(`the tool ${echoValue(call.tool!.name)}`);
      return next();
    }
    return startTask(manager, call, { defer: true }).then((outcome) =>
      "task" in outcome ? { resultType: "task", ...modernTask(outcome.task, false) } : outcome.result,
    );
  };
}

/**
 * A task method: the extension checked first (-32021), then the id, then the task as this request
 * may see it (its caller's own, of a tool it may call: the manager answers any other as unknown).
 */
function taskMethod(
  method: string,
  serve: (taskId: string, viewer: TaskViewer, call: McpMethodCall) => Promise<JsonObject>,
): (call: McpMethodCall) => Promise<JsonObject> {
  return async (call) => {
    if (!hasTasksExtension(call.context)) throw missingExtension(method);
    const taskId = readTaskId(call.params);
    return serve(taskId, { owner: ownerOf(call.context), access: call.access }, call);
  };
}

/** Plugs the modern wire of the tasks extension into a handler. */
export function plugModernTasks(server: McpExtensionPoint, manager: TaskManager): void {
  const modern = ["modern"] as const;
  server.advertise({ extensions: { [TASKS_EXTENSION]: {} } }, modern);
  server.wrapToolCall(modernToolCall(manager), modern);
  server.listen("taskIds", tasksListenSource(manager));
  server.method(
    "tasks/get",
    taskMethod("tasks/get", async (taskId, viewer) => {
      const task = await manager.get(taskId, viewer);
      if (!task) throw unknownTask(taskId);
      return modernTask(task, true);
    }),
    modern,
  );
  server.method(
    "tasks/update",
    taskMethod("tasks/update", async (taskId, viewer, call) => {
      const responses = readInputResponses(call.params.inputResponses);
      const task = await manager.deliverInput(taskId, viewer, responses);
      if (!task) throw unknownTask(taskId);
      return {};
    }),
    modern,
  );
  server.method(
    "tasks/cancel",
    taskMethod("tasks/cancel", async (taskId, viewer) => {
      const task = await manager.cancel(taskId, viewer);
      if (!task) throw unknownTask(taskId);
      return {};
    }),
    modern,
  );
}
