/**
 * Each owner's tasks in the order of `list` pages (`createdAt`, then `taskId`; see task-cursor.ts):
 * one sorted array per owner, searched by bisection. An owner holds at most the store's per-owner
 * cap, so an insert or removal (an array splice) is bounded by it, and a page costs O(log n + its
 * length) from any cursor: paging through all of an owner's tasks is linear.
 */
import { compareTaskPositions, type TaskPosition } from "../task-cursor.ts";

export class OwnerIndex<T extends TaskPosition> {
  readonly #byOwner = new Map<string, T[]>();

  /** Owners holding at least one task. */
  get ownerCount(): number {
    return this.#byOwner.size;
  }

  /** How many tasks `owner` holds. */
  countOf(owner: string): number {
    return this.#byOwner.get(owner)?.length ?? 0;
  }

  add(owner: string, task: T): void {
    let tasks = this.#byOwner.get(owner);
    if (!tasks) this.#byOwner.set(owner, (tasks = []));
    // Tasks mostly come in the order of their creation: the end is the usual place.
    const last = tasks[tasks.length - 1];
    if (last === undefined || compareTaskPositions(last, task) < 0) tasks.push(task);
    else tasks.splice(firstAfter(tasks, task, true), 0, task);
  }

  remove(owner: string, task: T): void {
    const tasks = this.#byOwner.get(owner);
    if (!tasks) return;
    const index = firstAfter(tasks, task, true);
    if (tasks[index] !== task) return;
    tasks.splice(index, 1);
    if (tasks.length === 0) this.#byOwner.delete(owner);
  }

  /** At most `limit` of the owner's tasks after `from` (from the first when undefined), and whether more follow. */
  page(owner: string, from: TaskPosition | undefined, limit: number): { tasks: T[]; more: boolean } {
    const tasks = this.#byOwner.get(owner);
    if (!tasks) return { tasks: [], more: false };
    const start = from === undefined ? 0 : firstAfter(tasks, from, false);
    const end = Math.min(tasks.length, start + limit);
    return { tasks: tasks.slice(start, end), more: end < tasks.length };
  }

  clear(): void {
    this.#byOwner.clear();
  }
}

/**
 * The index of the first task at `position` or after it (`inclusive`), or strictly after it, in
 * tasks sorted by position.
 */
function firstAfter(tasks: readonly TaskPosition[], position: TaskPosition, inclusive: boolean): number {
  let low = 0;
  let high = tasks.length;
  while (low < high) {
    const middle = (low + high) >> 1;
    const order = compareTaskPositions(tasks[middle]!, position);
    if (order < 0 || (order === 0 && !inclusive)) low = middle + 1;
    else high = middle;
  }
  return low;
}
