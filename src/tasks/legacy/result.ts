/**
 * `tasks/result` of the 2025-11-25 wire: blocks until the task is terminal, then answers what the
 * `tools/call` would have (its result with the related-task `_meta`, or its JSON-RPC error).
 * While it waits and the task is `input_required`, it carries the task's input requests to the
 * client as server→client requests on its own stream (the session's machinery: the answer is
 * POSTed back, on any instance of the session), and hands the answers to the task wherever it runs.
 *
 * Status messages from any instance wake a waiter (it reads the task again every two poll
 * intervals all the same). Waiters are bounded (in all and per owner) and go when their client
 * disconnects or cancels the request.
 */
import { ErrorCode, McpError } from "../../index.ts";
import type { JsonObject } from "../../index.ts";
import { isObject } from "../json.ts";
import type { McpMethodCall } from "../../types/extensions.ts";
import type { TaskState } from "../../types/tasks.ts";
import type { TaskManager } from "../manager.ts";
import { isTerminal } from "../terminal.ts";
import { unknownTask, type TaskViewer } from "../identity.ts";
import { RELATED_TASK, legacyStatus, withRelatedTask } from "./task.ts";

/** The most `tasks/result` requests waiting at once on one handler, and per owner. */
export const MAX_RESULT_WAITERS = 1000;
export const MAX_RESULT_WAITERS_PER_OWNER = 32;

/** The input requests a task may carry to its client. */
const INPUT_METHODS: ReadonlySet<string> = new Set(["elicitation/create", "sampling/createMessage", "roots/list"]);

/** Counts the waiting `tasks/result` requests, in all and per owner. */
export class ResultWaiters {
  #total = 0;
  readonly #byOwner = new Map<string, number>();

  /** Counts one more waiter of `owner`; the returned function (call it once) counts it out. */
  enter(owner: string): () => void {
    const own = this.#byOwner.get(owner) ?? 0;
    if (this.#total >= MAX_RESULT_WAITERS || own >= MAX_RESULT_WAITERS_PER_OWNER) {
      throw new McpError(
        ErrorCode.InternalError,
        "Too many tasks/result requests are waiting; poll with tasks/get instead",
        {
          limit: own >= MAX_RESULT_WAITERS_PER_OWNER ? "resultWaitersPerOwner" : "resultWaiters",
        },
      );
    }
    this.#total++;
    this.#byOwner.set(owner, own + 1);
    return () => {
      this.#total--;
      const left = (this.#byOwner.get(owner) ?? 1) - 1;
      if (left > 0) this.#byOwner.set(owner, left);
      else this.#byOwner.delete(owner);
    };
  }
}

/** What `tasks/result` answers for a terminal task. */
export function terminalAnswer(task: TaskState): JsonObject {
  if (task.status === "completed" && task.result) {
    return withRelatedTask(task.result, task.taskId);
  }
  const error = task.error;
  if (task.status === "failed" && error && typeof error.code === "number") {
    throw new McpError(error.code, String(error.message), error.data);
  }
  throw new McpError(ErrorCode.InternalError, `The task was ${legacyStatus(task)}; it has no result`, {
    [RELATED_TASK]: { taskId: task.taskId },
  });
}

/** Serves one `tasks/result` for the task `taskId` as `viewer` may see it. */
export async function awaitTaskResult(
  manager: TaskManager,
  waiters: ResultWaiters,
  call: McpMethodCall,
  taskId: string,
  viewer: TaskViewer,
): Promise<JsonObject> {
  const first = await manager.get(taskId, viewer);
  if (!first) throw unknownTask(taskId);
  if (isTerminal(first)) return terminalAnswer(first);

  const leave = waiters.enter(viewer.owner);
  const context = call.context;
  // The client cancelling the request, or its connection closing, releases the waiter.
  const stop = AbortSignal.any([context.signal, context.transportSignal]);
  let wake: (() => void) | undefined;
  let unsubscribe: (() => void) | undefined;
  const asked = new Set<string>();
  let failure: { error: unknown } | undefined;
  try {
    // Status messages from any instance wake the waiter (one store subscription per task, shared).
    unsubscribe = await manager.followers.follow(taskId, () => wake?.());
    for (;;) {
      stop.throwIfAborted();
      const task = await manager.get(taskId, viewer);
      if (!task) throw unknownTask(taskId);
      if (isTerminal(task)) return terminalAnswer(task);
      // The client could not answer an input request: this request ends with its error (the task
      // still waits; another tasks/result asks again).
      if (failure) throw failure.error;
      if (task.status === "input_required") {
        for (const [key, request] of Object.entries(task.inputRequests ?? {})) {
          if (asked.has(key) || !isObject(request) || typeof request.method !== "string") continue;
          if (!INPUT_METHODS.has(request.method)) continue;
          asked.add(key);
          const params = withRelatedTask(isObject(request.params) ? request.params : {}, taskId);
          const timeoutMs = context.options.inputTimeoutMs;
          const answered = call
            .ask({ key, method: request.method, params, timeoutMs })
            .then(
              (answer) => {
                if (!isObject(answer))
                  throw new McpError(ErrorCode.InvalidParams, `The answer to ${request.method} is not an object`);
                return manager.deliverInput(taskId, viewer, { [key]: answer });
              },
              (error: unknown) => {
                failure ??= { error };
              },
            )
            .catch((error: unknown) => {
              failure ??= { error };
            })
            .finally(() => wake?.());
          manager.incidents.own(answered);
        }
      }
      await new Promise<void>((resolve) => {
        const timer = setTimeout(done, manager.options.pollIntervalMs * 2);
        function done(): void {
          clearTimeout(timer);
          stop.removeEventListener("abort", done);
          wake = undefined;
          resolve();
        }
        wake = done;
        stop.addEventListener("abort", done, { once: true });
      });
    }
  } finally {
    unsubscribe?.();
    leave();
  }
}
