/**
 * mcp-h3/tasks: long work that outlives its request. A tool with `task: "optional"` or
 * `"required"` runs as a task for clients that use the tasks extension: the call answers at once
 * with the task's id, the client polls `tasks/get` (from any connection, through any instance
 * sharing the store), answers input requests with `tasks/update`, and may `tasks/cancel`. A server
 * that does not import this entry does not carry it.
 *
 * @example
 * import { defineMcpHandler, defineTool } from "mcp-h3";
 * import { tasks } from "mcp-h3/tasks";
 * const report = defineTool({
 *   name: "report",
 *   task: "optional",
 *   handler: async (event) => {
 *     const mcp = event.context.mcp!;
 *     await mcp.task?.setStatusMessage("Collecting data");
 *     return await buildReport({ signal: mcp.signal });
 *   },
 * });
 * export default defineMcpHandler({ name: "app", version: "1.0.0", tools: [report], extensions: [tasks()] });
 */
import type { McpExtension } from "../types/extensions.ts";
import type { TaskStore, TasksOptions } from "../types/tasks.ts";
import { MemoryTaskStore } from "../stores/memory/tasks.ts";
import { tasksExtension } from "../tasks/extension.ts";

export { TASKS_EXTENSION } from "../tasks/modern/wire.ts";
export { TaskManager } from "../tasks/manager.ts";
export type { StartOutcome, StartPlan } from "../tasks/start.ts";
export type { TaskStore, TasksOptions } from "../types/tasks.ts";

export { MemoryTaskStore, type MemoryTaskStoreOptions } from "../stores/memory/tasks.ts";

function memoryStore(): TaskStore {
  return new MemoryTaskStore();
}

/** The tasks extension, for `defineMcpHandler({ extensions: [tasks()] })`; see {@link TasksOptions}. */
export function tasks(options: TasksOptions = {}): McpExtension {
  return tasksExtension(options, memoryStore);
}
