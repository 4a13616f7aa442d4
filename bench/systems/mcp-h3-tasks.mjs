/**
 * mcp-h3 with the tasks extension (`mcp-h3/tasks`): the same server as `mcp-h3.mjs` (its `echo`
 * tool answers the plain calls) plus `echo_task`, the echo as a tool that must run as a task
 * (`task: "required"`) and takes no time: a modern call of it with the extension is answered with a
 * task already `completed` (the engine stores it before naming it), which one `tasks/get` then reads.
 * Measured in the tasks scenarios only (scenarios/tasks*.mjs), never against the peers.
 */
import { H3 } from "h3";
import * as z from "zod";
import { defineTool } from "../../dist/index.mjs";
import { tasks } from "../../dist/tasks.mjs";
import { createHandler } from "./mcp-h3.mjs";

export const info = {
  name: "mcp-h3-tasks",
  label: "mcp-h3 with mcp-h3/tasks",
  modern: true,
  nodeServer: null,
  legacy: "session",
};

export const ECHO_TASK = defineTool({
  name: "echo_task",
  description: "Echoes the text back, as a task",
  task: "required",
  input: z.object({ text: z.string() }),
  handler: (_event, { text }) => text,
});

/**
 * In-process: the h3 app's fetch. `taskOptions` are the options of `tasks()` (a store, a TTL);
 * `close` closes the handler (and with it a store it made).
 */
export async function create(taskOptions = {}) {
  const handler = createHandler({ extensions: [tasks(taskOptions)] }, [ECHO_TASK]);
  const app = new H3().all("/mcp", handler);
  return { fetch: (request) => app.fetch(request), close: () => handler.close() };
}
