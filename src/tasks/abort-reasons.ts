/**
 * The reasons `mcp.signal` carries when a task's handler is told to stop: each says what happened
 * to the task, so a handler (and its logs) can tell a cancel from an expiry or a lost record.
 */
import type { TaskState } from "../types/tasks.ts";

function abortError(message: string): Error {
  const error = new Error(message);
  error.name = "AbortError";
  return error;
}

/** The task was cancelled (`tasks/cancel`, here or on another instance). */
export function cancelledReason(): Error {
  return abortError("The task was cancelled (tasks/cancel)");
}

/** The task's TTL ran out while its handler still ran: its record leaves the store. */
export function expiredReason(): Error {
  return abortError("The task expired (its TTL ran out) before it finished");
}

/** A renewal found the task's record gone: it expired, or the store lost it (a Redis restarted empty). */
export function goneReason(): Error {
  return abortError("The task's record is gone from the store (it expired, or the store lost it)");
}

/**
 * What a renewal that found the task over or gone learnt, as the reason: `task` is the record read
 * then (undefined: gone), ended elsewhere (cancelled, or failed by a reader once its lease ran out).
 */
export function endedReason(task: TaskState | undefined): Error {
  if (task === undefined) return goneReason();
  if (task.status === "cancelled") return cancelledReason();
  const why = typeof task.error?.message === "string" ? `: ${task.error.message}` : "";
  return abortError(`The task ended elsewhere, ${task.status}${why}`);
}
