/**
 * Each owner's tasks in the order of `list` pages (`createdAt`, then `taskId`; see task-cursor.ts):
 * one sorted array per owner, searched by bisection. A removal is O(log n) amortized (a mark; see
 * {@link OwnerIndex.remove}); an insert out of order (an array splice) is bounded by the store's
 * per-owner cap; a page costs O(log n + its length) from any cursor, plus marked tasks passed over:
 * paging through all of an owner's tasks is linear.
 */
import { compareTaskPositions, type TaskPosition } from "../task-cursor.ts";

/** One owner's tasks in order, some of them removed but still in place (see {@link OwnerIndex.remove}). */
interface OwnerTasks<T> {
  tasks: T[];
  readonly removed: Set<T>;
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
    return owned ? owned.tasks.length - owned.removed.size : 0;
  }

  /** Adds a task not held yet (each task once: ids are unique). */
  add(owner: string, task: T): void {
    let owned = this.#byOwner.get(owner);
    if (!owned) this.#byOwner.set(owner, (owned = { tasks: [], removed: new Set() }));
    const { tasks } = owned;
    // Tasks mostly come in the order of their creation: the end is the usual place.
    const last = tasks[tasks.length - 1];
    if (last === undefined || compareTaskPositions(last, task) < 0) tasks.push(task);
    else tasks.splice(firstAfter(tasks, task, true), 0, task);
  }

  /**
   * Removes a task by marking it; the marked ones leave the array together once they are half of
   * it. A splice per removal moved every task after it: the oldest tasks expire first, so each
   * sweep moved nearly all of the owner's tasks (10% of a task-augmented call's CPU with 15,000
   * tasks held, `task_roundtrip_vs_call`).
   */
  remove(owner: string, task: T): void {
    const owned = this.#byOwner.get(owner);
    if (!owned || owned.removed.has(task)) return;
    const { tasks, removed } = owned;
    if (tasks[firstAfter(tasks, task, true)] !== task) return;
    removed.add(task);
    if (removed.size === tasks.length) this.#byOwner.delete(owner);
    else if (removed.size * 2 >= tasks.length) {
      owned.tasks = tasks.filter((held) => !removed.has(held));
      removed.clear();
    }
  }

  /** At most `limit` of the owner's tasks after `from` (from the first when undefined), and whether more follow. */
  page(owner: string, from: TaskPosition | undefined, limit: number): { tasks: T[]; more: boolean } {
    const owned = this.#byOwner.get(owner);
    if (!owned) return { tasks: [], more: false };
    const { tasks, removed } = owned;
    const found: T[] = [];
    let index = from === undefined ? 0 : firstAfter(tasks, from, false);
    for (; index < tasks.length && found.length < limit; index++) {
      if (!removed.has(tasks[index]!)) found.push(tasks[index]!);
    }
    // Marked tasks are at most as many as held ones, and each run of them is passed at most twice
    // (here, then by the next page's start): paging through an owner stays linear.
    while (index < tasks.length && removed.has(tasks[index]!)) index++;
    return { tasks: found, more: index < tasks.length };
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
