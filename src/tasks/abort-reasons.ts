/**
 * The reasons `mcp.signal` carries when a task's handler is told to stop: each says what happened
 * to the task, so a handler (and its logs) can tell a cancel from an expiry or a lost record.
 */

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
