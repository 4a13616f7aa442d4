/**
 * What every task store shares about a task's record: which statuses are final, how a
 * {@link TaskChange} applies, and the checks a record passes before it is stored.
 */
import type { TaskChange, TaskState, TaskStatus } from "../types/tasks.ts";

const STATUSES: ReadonlySet<string> = new Set<TaskStatus>([
  "working",
  "input_required",
  "completed",
  "failed",
  "cancelled",
]);

/** Whether a task with this status never changes again. */
export function isTerminalStatus(status: TaskStatus): boolean {
  return status === "completed" || status === "failed" || status === "cancelled";
}

/** Longest task id or owner a store takes (the engine's ids are far shorter). */
const MAX_KEY_LENGTH = 1024;

/**
 * Whether `taskId` can name a stored task: an id longer than any a store takes is answered as
 * unknown without a look (a client's id reaches `get` and `update`).
 */
export function isPossibleTaskId(taskId: string): boolean {
  return typeof taskId === "string" && taskId.length > 0 && taskId.length <= MAX_KEY_LENGTH;
}

/**
 * Throws a TypeError naming what is wrong when `task` is not a record a store can keep: the ids and
 * times its indexes and cursors are built from must be what the contract says.
 */
export function checkTaskState(task: TaskState): void {
  if (typeof task !== "object" || task === null) throw new TypeError("task store: a task is an object");
  if (!isPossibleTaskId(task.taskId)) {
    throw new TypeError("task store: taskId must be a non-empty string");
  }
  if (typeof task.owner !== "string" || task.owner.length > MAX_KEY_LENGTH) {
    throw new TypeError("task store: owner must be a string");
  }
  if (!Number.isSafeInteger(task.createdAt) || task.createdAt < 0) {
    throw new TypeError("task store: createdAt must be epoch milliseconds (an integer)");
  }
  if (task.ttlMs !== null && !(typeof task.ttlMs === "number" && task.ttlMs >= 0)) {
    throw new TypeError("task store: ttlMs must be a number of milliseconds or null");
  }
  checkStatus(task.status);
}

/** Throws a TypeError unless `status` is one of the five. */
export function checkStatus(status: unknown): void {
  if (typeof status !== "string" || !STATUSES.has(status)) {
    throw new TypeError(`task store: unknown status ${JSON.stringify(String(status)).slice(0, 40)}`);
  }
}

/**
 * When a task stored at `now` expires: its TTL after `createdAt`, the store's longest for `null`,
 * and never later than the store's longest from now (a `createdAt` in the future gains nothing).
 */
export function taskExpiresAt(task: TaskState, maxTtlMs: number, now: number): number {
  const ttl = task.ttlMs === null ? maxTtlMs : Math.min(task.ttlMs, maxTtlMs);
  return Math.min(task.createdAt + ttl, now + maxTtlMs);
}

/** `task` with `change` applied and `lastUpdatedAt` set to `now` (a new object; `task` is left as it was). */
export function applyTaskChange(task: TaskState, change: TaskChange, now: number): TaskState {
  if (change.status !== undefined) checkStatus(change.status);
  const next: Record<string, unknown> = { ...task, lastUpdatedAt: now };
  for (const field of CHANGE_FIELDS) {
    const value = change[field];
    if (value === undefined) continue;
    if (value === null) delete next[field];
    else next[field] = value;
  }
  return next as unknown as TaskState;
}

/** The fields a {@link TaskChange} may set, in the order stores apply them. */
export const CHANGE_FIELDS = [
  "status",
  "statusMessage",
  "result",
  "error",
  "inputRequests",
  "leaseUntil",
] as const satisfies readonly (keyof TaskChange)[];
