/**
 * The lease of a task running here, as its instance keeps it: renewed every third of it while the
 * handler runs. A renewal the store refuses (away for a moment: a Redis restart, a Cluster failover)
 * is tried again with backoff, well within the lease, so that a live task is never failed for a store
 * that was away for less than its lease; a reader that finds the lease lapsed all the same asks for a
 * renewal at once (a `lease` probe: see lease-check.ts).
 */
import type { McpExtensionPoint } from "../types/extensions.ts";
import type { TaskState } from "../types/tasks.ts";

/** The first pause before a refused renewal is tried again, doubled after each refusal. */
const FIRST_RETRY_MS = 50;
/** The longest pause between two tries (a sixth of the lease when that is shorter). */
const MAX_RETRY_MS = 500;

/** What a lease needs of its task (running.ts). */
export interface LeaseHolder {
  /** How long one renewal vouches for the task, in ms. */
  readonly leaseMs: number;
  /** When the store forgets the task (epoch ms): the lease ends then, renewed or not. */
  readonly expiresAt: number;
  readonly incidents: McpExtensionPoint["incidents"];
  /** Stores `leaseUntil`; resolves the task as it is now (undefined: over, gone, or released here). */
  renew(leaseUntil: number): Promise<TaskState | undefined>;
  /** The task reached `expiresAt` while it ran. */
  expired(): void;
  /** A renewal found the task over or gone (cancelled, failed by a reader, expired elsewhere). */
  ended(): void;
}

export class TaskLease {
  readonly #holder: LeaseHolder;
  readonly #every: number;
  readonly #cap: number;
  #timer: ReturnType<typeof setTimeout> | undefined;
  /** A renewal is in flight: a probe meanwhile asks for nothing more (its answer is on its way). */
  #renewing = false;
  #stopped = false;
  #delay = FIRST_RETRY_MS;
  /** Refusals in a row: the first of a run is recorded, not each retry of a long outage. */
  #refusals = 0;

  constructor(holder: LeaseHolder) {
    this.#holder = holder;
    this.#every = Math.max(1, Math.floor(holder.leaseMs / 3));
    this.#cap = Math.max(1, Math.min(MAX_RETRY_MS, Math.floor(holder.leaseMs / 6)));
  }

  /** Schedules the first renewal, a third of a lease from now (the create stored the first lease). */
  start(): void {
    this.#schedule(this.#every);
  }

  /** A reader found the lease lapsed: renew now, unless a renewal is under way or the lease is stopped. */
  probe(): void {
    if (this.#stopped || this.#renewing) return;
    clearTimeout(this.#timer);
    void this.#renew();
  }

  /** No renewal after this one (the task is released). Idempotent. */
  stop(): void {
    this.#stopped = true;
    clearTimeout(this.#timer);
  }

  #schedule(delay: number): void {
    if (this.#stopped) return;
    // The expiry comes on time even when it falls before the next renewal.
    const wait = Math.max(0, Math.min(delay, this.#holder.expiresAt - Date.now()));
    this.#timer = setTimeout(() => void this.#renew(), wait);
  }

  /** One renewal; never rejects (a refusal schedules the next try). */
  async #renew(): Promise<void> {
    if (this.#stopped) return;
    const holder = this.#holder;
    if (Date.now() >= holder.expiresAt) return holder.expired();
    this.#renewing = true;
    let task: TaskState | undefined;
    try {
      task = await holder.renew(Date.now() + holder.leaseMs);
    } catch (error) {
      this.#renewing = false;
      if (this.#refusals++ === 0) holder.incidents.record("background_failure", error);
      this.#schedule(this.#delay);
      this.#delay = Math.min(this.#delay * 2, this.#cap);
      return;
    }
    this.#renewing = false;
    this.#refusals = 0;
    this.#delay = FIRST_RETRY_MS;
    if (this.#stopped) return;
    if (task === undefined) return holder.ended();
    this.#schedule(this.#every);
  }
}
