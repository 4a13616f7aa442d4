/**
 * Each owner's tasks in the order of `list` pages (`createdAt`, then `taskId`; see task-cursor.ts):
 * one sorted array per owner, searched by bisection. Removing the oldest (the usual expiry) is
 * O(1) amortized; an insert or another removal (an array splice) is bounded by the store's
 * per-owner cap; a page costs O(log n + its length) from any cursor: paging through all of an
 * owner's tasks is linear.
 */
import { compareTaskPositions, type TaskPosition } from "../task-cursor.ts";

/** One owner's tasks: `tasks[head..]` in order; the slots before `head` were removed (see {@link OwnerIndex.remove}). */
interface OwnerTasks<T> {
  tasks: (T | undefined)[];
  head: number;
}

export class OwnerIndex<T extends TaskPosition> {
  readonly #byOwner = new Map<string, OwnerTasks<T>>();

  /** Owners holding at least one task. */
  get ownerCount(): number {
    return this.#byOwner.size;
  }

  /** How many tasks `owner` holds. */
  countOf(owner: string): number {
    const owned = this.#byOwner.get(owner);
    return owned ? owned.tasks.length - owned.head : 0;
  }

  add(owner: string, task: T): void {
    let owned = this.#byOwner.get(owner);
    if (!owned) this.#byOwner.set(owner, (owned = { tasks: [], head: 0 }));
    const { tasks } = owned;
    // Tasks mostly come in the order of their creation: the end is the usual place.
    const last = tasks.length > owned.head ? tasks[tasks.length - 1] : undefined;
    if (last === undefined || compareTaskPositions(last, task) < 0) tasks.push(task);
    else tasks.splice(firstAfter(owned, task, true), 0, task);
  }

  remove(owner: string, task: T): void {
    const owned = this.#byOwner.get(owner);
    if (!owned) return;
    const index = firstAfter(owned, task, true);
    if (owned.tasks[index] !== task) return;
    if (index === owned.head) {
      // Tasks mostly expire in the order they were made, so the oldest goes first: moving the head
      // instead of splicing keeps that O(1), where a splice moved every task the owner holds
      // (an owner with 10,000 tasks paid 10,000 moves per sweep).
      owned.tasks[index] = undefined;
      owned.head++;
      if (owned.head * 2 >= owned.tasks.length) {
        owned.tasks = owned.tasks.slice(owned.head);
        owned.head = 0;
      }
    } else {
      owned.tasks.splice(index, 1);
    }
    if (owned.tasks.length === owned.head) this.#byOwner.delete(owner);
  }

  /** At most `limit` of the owner's tasks after `from` (from the first when undefined), and whether more follow. */
  page(owner: string, from: TaskPosition | undefined, limit: number): { tasks: T[]; more: boolean } {
    const owned = this.#byOwner.get(owner);
    if (!owned) return { tasks: [], more: false };
    const start = from === undefined ? owned.head : firstAfter(owned, from, false);
    const end = Math.min(owned.tasks.length, start + limit);
    return { tasks: owned.tasks.slice(start, end) as T[], more: end < owned.tasks.length };
  }

  clear(): void {
    this.#byOwner.clear();
  }
}

/**
 * The index of the first task at `position` or after it (`inclusive`), or strictly after it, in
 * tasks sorted by position.
 */
function firstAfter(owned: OwnerTasks<TaskPosition>, position: TaskPosition, inclusive: boolean): number {
  const { tasks } = owned;
  let low = owned.head;
  let high = tasks.length;
  while (low < high) {
    const middle = (low + high) >> 1;
    const order = compareTaskPositions(tasks[middle]!, position);
    if (order < 0 || (order === 0 && !inclusive)) low = middle + 1;
    else high = middle;
  }
  return low;
}
