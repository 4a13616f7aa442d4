/**
 * A tool call from the page, plain or as a task, and what it shows: progress and its messages while it
 * runs, the result, the task's state, and the tool's MCP App view under the result. One call runs at a
 * time; a new one, Cancel and a disconnect abort it (a task is then cancelled with tasks/cancel).
 */
import { LOG_LEVEL_META_KEY, type Client, type Tool } from "@modelcontextprotocol/client";
import type { TaskEnabledSession, TaskView } from "@modelcontextprotocol/ext-tasks/client";
import { getToolUiResourceUri, mountAppView, type AppView } from "./app-view.ts";
import { byId, el } from "./dom.ts";
import { renderError, renderResult } from "./render.ts";
import { runAsTask } from "./tasks.ts";

/** The connection a call runs on. */
export interface CallScope {
  client: Client;
  modern: boolean;
  taskSession?: TaskEnabledSession;
  tools: ReadonlyMap<string, Tool>;
  /** Where MCP App views are framed from (another origin reaching the same handler), if anywhere. */
  sandboxOrigin?: string;
}

let running: AbortController | undefined;

/** The running call's signal: the server's questions are withdrawn when it aborts. */
export function runningSignal(): AbortSignal | undefined {
  return running?.signal;
}

/** Aborts the running call, if any. */
export function cancelCall(): void {
  running?.abort();
}

export async function callTool(scope: CallScope, name: string, args: Record<string, unknown>): Promise<void> {
  const { client, modern } = scope;
  running?.abort();
  const controller = new AbortController();
  running = controller;
  const live = byId("call-live");
  const bar = byId<HTMLProgressElement>("call-progress");
  const text = byId("call-progress-text");
  const result = byId("result");
  clearCallOutput();
  live.hidden = false;
  bar.removeAttribute("value");
  text.textContent = "Running…";
  try {
    const answer = await client.callTool(
      { name, arguments: args, ...(modern ? { _meta: { [LOG_LEVEL_META_KEY]: "debug" } } : {}) },
      {
        signal: controller.signal,
        onprogress: (progress) => {
          if (progress.total) {
            bar.max = progress.total;
            bar.value = progress.progress;
          }
          text.textContent = `${progress.progress}${progress.total ? ` / ${progress.total}` : ""}${progress.message ? `: ${progress.message}` : ""}`;
        },
      },
    );
    renderResult(result, answer as never);
    const tool = scope.tools.get(name);
    if (tool && getToolUiResourceUri(tool)) await showAppView(scope, tool, args, answer as never);
  } catch (error) {
    renderError(result, controller.signal.aborted ? new Error("Cancelled") : error);
  } finally {
    if (running === controller) running = undefined;
    live.hidden = true;
  }
}

let appView: AppView | undefined;

/** Closes the MCP App view shown, if any. */
export async function closeAppView(): Promise<void> {
  const previous = appView;
  appView = undefined;
  byId("app-view").hidden = true;
  byId("app-log").replaceChildren();
  await previous?.close();
}

/** Shows the tool's MCP App view under its result, in a sandboxed frame on the sandbox origin. */
async function showAppView(scope: CallScope, tool: Tool, args: Record<string, unknown>, result: never): Promise<void> {
  await closeAppView();
  const box = byId("app-view");
  const log = (line: string): void => void byId("app-log").append(el("li", {}, line));
  box.hidden = false;
  if (!scope.sandboxOrigin) {
    log("Not shown: this page has no sandbox origin (open it at its pageOrigin, or on localhost or 127.0.0.1)");
    return;
  }
  const sandbox = scope.sandboxOrigin;
  try {
    appView = await mountAppView({
      client: scope.client,
      tool,
      tools: scope.tools,
      args,
      result,
      container: byId("app-frame-box"),
      sandboxUrl: `${sandbox}${location.pathname}?mcp-app-sandbox=1`,
      host: { name: "mcp-h3-inspector", version: "0.1.0" },
      log,
    });
  } catch (error) {
    log(`failed: ${String(error)}`);
  }
}

/** Clears what the last call showed (its result, logs, task and view): a new call, or a form refused, starts clean. */
export function clearCallOutput(): void {
  byId("result").replaceChildren();
  byId("call-logs").replaceChildren();
  byId("task-box").hidden = true;
  byId("task-events").replaceChildren();
  void closeAppView();
}

const TERMINAL = new Set(["completed", "failed", "cancelled"]);

/**
 * Shows a task's state in #task-box: its id, its status, and its status message while it runs. Each change is
 * added to #task-events; a server may carry the last message into the terminal status ("Waiting for a go" on a
 * completed task), which then stays in the history rather than read as the task's current state.
 */
function showTask(task: TaskView): void {
  byId("task-box").hidden = false;
  byId("task-id").textContent = task.taskId;
  setTaskStatus(task.status);
  const message = task.statusMessage ?? "";
  byId("task-message").textContent = TERMINAL.has(task.status) ? "" : message;
  const events = byId("task-events");
  const last = events.lastElementChild as HTMLElement | null;
  const lastMessage = last?.dataset.message ?? "";
  if (last?.dataset.status === task.status && lastMessage === message) return;
  const fresh = message !== "" && message !== lastMessage;
  events.append(
    el(
      "li",
      { "data-status": task.status, "data-message": message },
      fresh ? `${task.status}: ${message}` : task.status,
    ),
  );
}

function setTaskStatus(status: string): void {
  byId("task-status").textContent = status;
  byId("task-status").dataset.status = status;
}

/** Calls a tool as a task and follows it to its end; Cancel sends tasks/cancel. */
export async function callAsTask(scope: CallScope, name: string, args: Record<string, unknown>): Promise<void> {
  const { client, modern, taskSession } = scope;
  if (!taskSession) return;
  running?.abort();
  const controller = new AbortController();
  running = controller;
  const live = byId("call-live");
  const result = byId("result");
  clearCallOutput();
  live.hidden = false;
  byId<HTMLProgressElement>("call-progress").removeAttribute("value");
  byId("call-progress-text").textContent = modern ? "Running (tasks offered)…" : "Task started…";
  try {
    const run = await runAsTask(
      taskSession,
      name,
      args,
      { onTask: showTask },
      controller.signal,
      modern ? undefined : client,
    );
    if (run.cancelled) {
      // The library's outcome says so; in the modern era it may carry no final task view.
      setTaskStatus("cancelled");
      byId("task-message").textContent = "";
      renderError(result, new Error("Task cancelled"));
    } else {
      renderResult(result, run.result as never);
      const tool = scope.tools.get(name);
      if (tool && getToolUiResourceUri(tool)) await showAppView(scope, tool, args, run.result as never);
    }
  } catch (error) {
    renderError(result, error);
  } finally {
    if (running === controller) running = undefined;
    live.hidden = true;
  }
}
