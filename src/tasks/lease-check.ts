/**
 * What a reader does with a task it finds past its lease. A lapsed lease alone does not say the
 * instance running the task is gone: a renewal may have been refused while the store was away (a
 * Redis restart, a Cluster failover), and its retry may not have landed yet. So the reader asks the
 * owner to renew at once (a `lease` probe on the task's channel, see lease.ts), reads the task again
 * for a short grace, and fails it only when no renewal came: then its instance is gone. Readers of
 * one lapsed task in this process share one probe and one outcome.
 */
import type { TaskState, TaskStore } from "../types/tasks.ts";
import { isTerminal } from "./terminal.ts";

/** The longest a reader waits for a renewal after its probe (the lease itself when that is shorter). */
const MAX_GRACE_MS = 2_000;
/** The first pause before the task is read again, doubled after each read, at most {@link MAX_READ_PAUSE_MS}. */
const FIRST_READ_PAUSE_MS = 50;
const MAX_READ_PAUSE_MS = 400;

/** Whether `task` is still running by its record and past its lease at `now`. */
export function leaseLapsed(task: TaskState, now = Date.now()): boolean {
  return !isTerminal(task) && task.leaseUntil !== undefined && task.leaseUntil < now;
}

export class LeaseChecks {
  readonly #store: TaskStore;
  readonly #graceMs: number;
  /** Fails the task for its lease; resolves it as it is then (undefined: gone). */
  readonly #fail: (taskId: string) => Promise<TaskState | undefined>;
  /** The checks under way, by task id. */
  readonly #pending = new Map<string, Promise<TaskState | undefined>>();

  constructor(options: {
    store: TaskStore;
    leaseMs: number;
    fail: (taskId: string) => Promise<TaskState | undefined>;
  }) {
    this.#store = options.store;
    this.#graceMs = Math.max(1, Math.min(MAX_GRACE_MS, options.leaseMs));
    this.#fail = options.fail;
  }

  /**
   * `task` as it stands once its lease is settled: as read when its lease holds (or it is terminal),
   * else as it is after the owner renewed (or ended it), or failed for its lease when no renewal came
   * within the grace. Undefined: the task went meanwhile.
   */
  check(task: TaskState): Promise<TaskState | undefined> {
    if (!leaseLapsed(task)) return Promise.resolve(task);
    let pending = this.#pending.get(task.taskId);
    if (!pending) {
      pending = this.#confirm(task.taskId).finally(() => this.#pending.delete(task.taskId));
      this.#pending.set(task.taskId, pending);
    }
    return pending;
  }

  async #confirm(taskId: string): Promise<TaskState | undefined> {
    // A probe that cannot be sent still leaves the owner's own retries to renew.
    await this.#store.publish(taskId, { type: "lease" }).catch(() => undefined);
    const deadline = Date.now() + this.#graceMs;
    let pause = FIRST_READ_PAUSE_MS;
    for (;;) {
      const left = deadline - Date.now();
      if (left <= 0) break;
      await new Promise((resolve) => setTimeout(resolve, Math.min(pause, left)));
      pause = Math.min(pause * 2, MAX_READ_PAUSE_MS);
      const now = await this.#store.get(taskId);
      if (now === undefined || !leaseLapsed(now)) return now;
    }
    return this.#fail(taskId);
  }
}
