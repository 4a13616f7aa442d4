/**
 * How a task ends: the statuses it never leaves once in one, and the error a task gets when the
 * instance running it went away (its lease ran out; manager.ts fails it on its next read).
 */
import { ErrorCode } from "../index.ts";
import type { JsonObject } from "../index.ts";
import type { TaskState, TaskStatus } from "../types/tasks.ts";

/** The statuses a task never leaves. */
export const TERMINAL: ReadonlySet<TaskStatus> = new Set(["completed", "failed", "cancelled"]);

export function isTerminal(task: TaskState): boolean {
  return TERMINAL.has(task.status);
}

/** The error of a task whose instance stopped before it finished. */
export const LEASE_EXPIRED: JsonObject = {
  code: ErrorCode.InternalError,
  message: "The task stopped: the instance running it went away before it finished (its lease ran out)",
};
