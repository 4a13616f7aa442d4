/**
 * The tasks whose work died with a previous life of the object, and only those, are failed by its
 * alarm at their lease.
 *
 * The rule: only one instance of a Durable Object lives at a time, and a task's work runs in the
 * life of the object that created it (handed to its `waitUntil`), renewing the task's lease while
 * it runs. So the tasks that may still change and hold a lease when a life begins are exactly the
 * orphans: nothing will renew their leases again. Every task leased later in this life has its work
 * here, vouching for it, and the alarm neither fails it nor wakes for its lease (it would find the
 * lease renewed, or the work about to renew it, and wake again at once).
 *
 * The orphans are read once per life (a row per task still working then) and kept in memory with
 * their leases, so the alarm's time costs no read per request. They are bounded by the task store's
 * `maxTasks` and only shrink: each is released when its alarm fails it, or finds it ended already.
 */
import type { DurableTaskStore } from "../stores/durable/task-store.ts";
import { LEASE_EXPIRED } from "../tasks/terminal.ts";

/** Most orphans one alarm fails. */
const FAILED_PER_ALARM = 100;

export class OrphanedTasks {
  readonly #tasks: DurableTaskStore;
  /** Task id → the end of the lease it held when this life began. */
  readonly #leases: Map<string, number>;
  /** The earliest of them, kept as they change: read after every request, it costs no scan. */
  #first: number | undefined;

  /** Takes the orphans of `tasks`: call it as the life begins, before it serves a request. */
  constructor(tasks: DurableTaskStore) {
    this.#tasks = tasks;
    this.#leases = tasks.leases();
    this.#first = earliest(this.#leases);
  }

  /**
   * When the alarm should next fail one (ms since the epoch), or undefined when none is left. A
   * lease has run out only once it is before now (as a reader sees it), so 1 ms after it: set at
   * the lease's own millisecond, the alarm found nothing to fail about one run in three.
   */
  nextDue(): number | undefined {
    return this.#first === undefined ? undefined : this.#first + 1;
  }

  /** Fails the orphans whose lease ran out by `now`, and tells their listeners, as the task manager does on a read. */
  async failLapsed(now: number): Promise<void> {
    if (this.#first === undefined || this.#first >= now) return;
    const lapsed: string[] = [];
    for (const [taskId, lease] of this.#leases) {
      if (lease < now) lapsed.push(taskId);
      // A bounded run per alarm; the next one, due at once, takes the rest.
      if (lapsed.length === FAILED_PER_ALARM) break;
    }
    // Released first: a task ended meanwhile (cancelled, read and failed, expired) is not tried again.
    for (const taskId of lapsed) this.#leases.delete(taskId);
    this.#first = earliest(this.#leases);
    for (const taskId of lapsed) {
      const failed = await this.#tasks.update(
        taskId,
        { status: "failed", error: LEASE_EXPIRED, inputRequests: null },
        now,
      );
      if (failed) await this.#tasks.publish(taskId, { type: "status", task: failed });
    }
  }
}

function earliest(leases: ReadonlyMap<string, number>): number | undefined {
  let first: number | undefined;
  for (const lease of leases.values()) if (first === undefined || lease < first) first = lease;
  return first;
}
