/**
 * The cursor of a task store's `list` pages: where the last page ended, as the last task's
 * `createdAt` and id. Pages are in the order of (`createdAt`, `taskId`), so a cursor keeps its
 * place while tasks are deleted or expire (it names a position, not a task), and it tells a client
 * nothing it does not know already (both are fields of its own task).
 */

/** Longest cursor read; a longer one is not one a store gave. */
const MAX_CURSOR_LENGTH = 512;

/** A position in an owner's tasks: after the task created at `createdAt` with id `taskId`. */
export interface TaskPosition {
  readonly createdAt: number;
  readonly taskId: string;
}

/** The cursor naming the position just after `task`. */
export function encodeTaskCursor(task: TaskPosition): string {
  return `${task.createdAt}.${task.taskId}`;
}

/** The position a cursor names, or undefined when it is not one {@link encodeTaskCursor} made. */
export function decodeTaskCursor(cursor: string): TaskPosition | undefined {
  if (typeof cursor !== "string" || cursor.length > MAX_CURSOR_LENGTH) return undefined;
  const dot = cursor.indexOf(".");
  if (dot < 1 || dot === cursor.length - 1 || dot > 16) return undefined;
  const digits = cursor.slice(0, dot);
  for (let i = 0; i < digits.length; i++) {
    const code = digits.charCodeAt(i);
    if (code < 48 || code > 57) return undefined;
  }
  const createdAt = Number(digits);
  if (!Number.isSafeInteger(createdAt)) return undefined;
  return { createdAt, taskId: cursor.slice(dot + 1) };
}

/** Most tasks a store reads for one page, whatever `limit` asks (a page is work done in one go). */
export const MAX_TASK_PAGE = 1_000;

/** The page size a store uses for `limit`: at least 1, at most {@link MAX_TASK_PAGE}. */
export function taskPageSize(limit: number): number {
  return Math.min(MAX_TASK_PAGE, Math.max(1, Math.floor(limit) || 1));
}

/** Negative when `a` comes before `b` in a page, positive after, 0 for the same position. */
export function compareTaskPositions(a: TaskPosition, b: TaskPosition): number {
  if (a.createdAt !== b.createdAt) return a.createdAt - b.createdAt;
  return a.taskId < b.taskId ? -1 : a.taskId > b.taskId ? 1 : 0;
}
