/**
 * One task running on this instance: its AbortController (`mcp.signal` inside the handler), the
 * lease it renews while it runs, its open input requests, and the messages other instances send
 * about it (cancel, input, a lease probe). Everything it holds is released by
 * {@link RunningTask.close}: when its outcome is stored, and at once when it is cancelled, expires
 * or is found gone, whatever its handler does then (a handler that ignores its signal costs its own
 * memory and CPU, nothing more).
 */
import type { JsonObject } from "../index.ts";
import { isObject } from "./json.ts";
import type { McpInputRequest } from "../types/extensions.ts";
import type { McpExtensionPoint } from "../types/extensions.ts";
import type { TaskChange, TaskMessage, TaskState, TaskStore } from "../types/tasks.ts";
import { cancelledReason, endedReason, expiredReason } from "./abort-reasons.ts";
import { TaskLease } from "./lease.ts";
import { unstoredOutcome } from "./outcome.ts";

/** The first pause before an outcome's write is tried again, doubled after each failure. */
const FIRST_RETRY_MS = 50;
/** The longest pause between two tries (a third of a lease when that is shorter). */
const MAX_RETRY_MS = 1_000;

/** What a running task needs of its manager (manager.ts). */
export interface TaskHost {
  readonly options: { readonly store: TaskStore; readonly leaseMs: number };
  readonly incidents: McpExtensionPoint["incidents"];
  /** Frees the task's place among the handlers running here. */
  release(task: RunningTask): void;
  update(taskId: string, change: TaskChange): Promise<TaskState | undefined>;
}

interface Waiter {
  resolve(answer: unknown): void;
  reject(reason: unknown): void;
}

export class RunningTask {
  readonly taskId: string;
  readonly owner: string;
  readonly controller = new AbortController();
  readonly #manager: TaskHost;
  /** Input requests the handler waits on, by key, as `inputRequests` shows them. */
  readonly #open = new Map<string, JsonObject>();
  readonly #waiters = new Map<string, Waiter[]>();
  /** Answers already given, by key: asking the same key again gets the same answer (as on MRTR). */
  readonly #answers = new Map<string, unknown>();
  #flushScheduled = false;
  #unsubscribe: (() => void) | undefined;
  /** The task's lease while it runs here: its renewals, retried while the store refuses them. */
  #lease: TaskLease | undefined;
  #onClose: (() => void) | undefined;
  /** The pause before an outcome's next try, if one is under way: its timer, and its end. */
  #pause: { timer: ReturnType<typeof setTimeout>; end: () => void } | undefined;
  /** Store writes of this task, one after the other, so a later write never lands first. */
  #writes: Promise<unknown> = Promise.resolve();
  #closed = false;

  constructor(manager: TaskHost, taskId: string, owner: string) {
    this.#manager = manager;
    this.taskId = taskId;
    this.owner = owner;
    this.controller.signal.addEventListener("abort", () => this.#rejectAll(this.controller.signal.reason), {
      once: true,
    });
  }

  /**
   * Listens for the messages about this task (before it is stored, so that no cancel is missed, and
   * before its handler starts, so that a store that is away refuses the call before anything runs).
   */
  async listen(): Promise<void> {
    const unsubscribe = await this.#manager.options.store.subscribe(this.taskId, (message) => this.#onMessage(message));
    if (this.#closed) unsubscribe();
    else this.#unsubscribe = unsubscribe;
  }

  /**
   * Renews the lease every third of it while the task runs (a refused renewal is tried again with
   * backoff; a `lease` probe renews at once), until `expiresAt` (epoch ms, when the store forgets the
   * task): then, or once a renewal finds the task gone or terminal, the handler's signal aborts and
   * the task is released.
   */
  startLease(expiresAt: number): void {
    if (this.#closed) return;
    const manager = this.#manager;
    this.#lease = new TaskLease({
      leaseMs: manager.options.leaseMs,
      expiresAt,
      incidents: manager.incidents,
      renew: (leaseUntil) => this.write({ leaseUntil }),
      expired: () => this.#stop(expiredReason()),
      ended: () => {
        // Over or gone: read once (this path only) so that the handler is told which.
        const read = manager.options.store.get(this.taskId).catch(() => undefined);
        manager.incidents.own(read.then((now) => this.#stop(endedReason(now))));
      },
    });
    this.#lease.start();
  }

  /** Calls `callback` once the task is released ({@link close}); at once if it is already. */
  onClose(callback: () => void): void {
    if (this.#closed) callback();
    else this.#onClose = callback;
  }

  /** Queues every later write behind `creation` (the store creating the task): none lands before it. */
  writeAfter(creation: Promise<unknown>): void {
    this.#writes = creation.catch(() => undefined);
  }

  /**
   * Applies `change` after the writes before it; resolves the task as it is now (undefined: gone or
   * terminal, or released: a released task writes nothing more).
   */
  write(change: TaskChange): Promise<TaskState | undefined> {
    const write = this.#writes.then(() => (this.#closed ? undefined : this.#manager.update(this.taskId, change)));
    this.#writes = write.catch(() => undefined);
    return write;
  }

  /**
   * Stores the handler's outcome (`change`), then releases the task. A store that fails (away for
   * a moment) is tried again with backoff, the lease renewed meanwhile; after a lease of failures
   * the task is failed instead, saying why, tried for one more lease. A task released meanwhile
   * (cancelled, expired, gone) writes nothing.
   */
  async finish(change: TaskChange): Promise<void> {
    const { leaseMs } = this.#manager.options;
    const cap = Math.min(MAX_RETRY_MS, Math.max(1, Math.floor(leaseMs / 3)));
    const since = Date.now();
    let pending = change;
    let delay = FIRST_RETRY_MS;
    let refused: unknown;
    let failures = 0;
    while (!this.#closed) {
      try {
        await this.write(pending);
        break;
      } catch (error) {
        // Counted once per task: a long outage retried every second is one incident, not hundreds.
        if (failures++ === 0) this.#manager.incidents.record("background_failure", error);
        refused = error;
      }
      const waited = Date.now() - since;
      if (waited >= 2 * leaseMs) break;
      if (waited >= leaseMs && pending === change) {
        const [status, failure] = unstoredOutcome(refused);
        pending = { ...failure, status, inputRequests: null };
      }
      await new Promise<void>((end) => (this.#pause = { timer: setTimeout(end, delay), end }));
      this.#pause = undefined;
      delay = Math.min(delay * 2, cap);
    }
    this.close();
  }

  /** The handler's input request once the task exists: `input_required` until `tasks/update` answers it. */
  ask(request: McpInputRequest): Promise<unknown> {
    const { key, method, params } = request;
    if (this.#answers.has(key)) return Promise.resolve(this.#answers.get(key));
    if (this.controller.signal.aborted) return Promise.reject(this.controller.signal.reason as Error);
    this.#open.set(key, method === "roots/list" ? { method } : { method, params });
    this.#scheduleFlush();
    return new Promise((resolve, reject) => {
      const list = this.#waiters.get(key);
      if (list) list.push({ resolve, reject });
      else this.#waiters.set(key, [{ resolve, reject }]);
    });
  }

  /** Releases the subscription, the lease timer and its place among the running; waiters still open reject. Idempotent. */
  close(): void {
    if (this.#closed) return;
    this.#closed = true;
    this.#manager.release(this);
    this.#lease?.stop();
    if (this.#pause) {
      clearTimeout(this.#pause.timer);
      this.#pause.end();
    }
    this.#unsubscribe?.();
    this.#unsubscribe = undefined;
    // An Error (its stack) is built only when a handler still waits: most tasks end with none.
    if (this.#waiters.size > 0) this.#rejectAll(new Error("The task ended"));
    else this.#open.clear();
    const onClose = this.#onClose;
    this.#onClose = undefined;
    onClose?.();
  }

  /** The handler is told to stop with `reason`, and the task is released now, whatever the handler does. */
  #stop(reason: Error): void {
    if (this.#closed) return;
    this.controller.abort(reason);
    this.close();
  }

  /** Requests made in one turn (Promise.all) show up together: one store write per turn. */
  #scheduleFlush(): void {
    if (this.#flushScheduled) return;
    this.#flushScheduled = true;
    setTimeout(() => {
      this.#flushScheduled = false;
      this.#manager.incidents.own(this.#writeOpen());
    }, 0);
  }

  /** Writes the open requests: `input_required` with them, or back to `working` when none is left. */
  #writeOpen(): Promise<unknown> {
    if (this.#closed) return Promise.resolve();
    const open = this.#open.size > 0 ? Object.fromEntries(this.#open) : undefined;
    return this.write(
      open ? { status: "input_required", inputRequests: open } : { status: "working", inputRequests: null },
    );
  }

  #onMessage(message: TaskMessage): void {
    if (message.type === "cancel") this.#stop(cancelledReason());
    else if (message.type === "input") this.#deliver(message.responses);
    else if (message.type === "lease") this.#lease?.probe();
  }

  /** Answers from `tasks/update`: keys this task asked for and still waits on; the rest is ignored. */
  #deliver(responses: JsonObject): void {
    let answered = false;
    for (const [key, answer] of Object.entries(responses)) {
      if (!this.#open.has(key) || !isObject(answer)) continue;
      this.#open.delete(key);
      this.#answers.set(key, answer);
      answered = true;
      const waiters = this.#waiters.get(key) ?? [];
      this.#waiters.delete(key);
      for (const waiter of waiters) waiter.resolve(answer);
    }
    // This instance knows every request still open: its write is the one that stands.
    if (answered) this.#manager.incidents.own(this.#writeOpen());
  }

  #rejectAll(reason: unknown): void {
    const waiters = [...this.#waiters.values()].flat();
    this.#waiters.clear();
    this.#open.clear();
    for (const waiter of waiters) waiter.reject(reason);
  }
}
