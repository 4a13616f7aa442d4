/**
 * The default task store: tasks in this process, bounded in count (in all and per owner) and in
 * time (each until its TTL after `createdAt`, never past the store's longest). Not part of the
 * core: it ships with `mcp-h3/tasks`, so a server without tasks does not carry it.
 */
import { positiveOption } from "../../protocol/positive-option.ts";
import type { TaskChange, TaskCreateOutcome, TaskMessage, TaskPage, TaskState, TaskStore } from "../../types/tasks.ts";
import { applyTaskChange, checkTaskState, isTerminalStatus, taskExpiresAt } from "../task-change.ts";
import { decodeTaskCursor, encodeTaskCursor, taskPageSize } from "../task-cursor.ts";
import { TaskListeners } from "../task-listeners.ts";
import { ExpiryHeap } from "./task-expiry.ts";
import { OwnerIndex } from "./task-owners.ts";

/**
 * Options of {@link MemoryTaskStore}; every bound has a default, and one given must be a positive
 * whole number (else the store is not made: a `RangeError` names it).
 */
export interface MemoryTaskStoreOptions {
  /** Most tasks kept in all (default 10,000); at the cap `create` answers `"full"`. */
  maxTasks?: number;
  /** Most tasks kept per owner (default 1,000); at the cap `create` answers `"full"` for that owner. */
  maxTasksPerOwner?: number;
  /** Longest a task is kept after its `createdAt`, in ms (default one hour); a TTL of `null` gets this. */
  maxTtlMs?: number;
  /** Most listeners on one task (default 16); `subscribe` rejects past it. */
  maxListenersPerTask?: number;
  /** Most listeners on all tasks (default 10,000); `subscribe` rejects past it. */
  maxListeners?: number;
}

/** One stored task. Its record is kept as JSON text: a copy by construction, and the smallest form on the heap. */
interface Entry {
  readonly taskId: string;
  readonly owner: string;
  readonly createdAt: number;
  readonly expiresAt: number;
  /** The {@link TaskState}, as JSON. */
  text: string;
  terminal: boolean;
}

/**
 * Expired tasks are swept at most this long after they expire, so that tasks expiring a few
 * milliseconds apart cost one timer run, not one each. Readers never see an expired task: every
 * method sweeps first.
 */
const SWEEP_BATCH_MS = 1_000;

/** The longest a timer may wait (setTimeout's limit, about 24.8 days). */
const MAX_TIMER_MS = 2 ** 31 - 1;

/**
 * Keeps tasks in this process. Every method answers a copy (what a caller does with what it passed
 * or got changes nothing stored), `update` is atomic and never changes a terminal task, `list`
 * pages stay in place while tasks expire, and expired tasks are swept by one timer (unref'd where
 * the runtime can, stopped by {@link MemoryTaskStore.close}) and on every call. On a Worker the
 * store lives per isolate: another isolate, or a restarted one, does not know its tasks; use a
 * shared store (`RedisTaskStore` from `mcp-h3/redis`, or one of your own) there.
 *
 * @example
 * const store = new MemoryTaskStore({ maxTasks: 1_000, maxTasksPerOwner: 50, maxTtlMs: 10 * 60_000 });
 */
export class MemoryTaskStore implements TaskStore {
  readonly maxTasks: number;
  readonly maxTasksPerOwner: number;
  readonly maxTtlMs: number;
  readonly #tasks = new Map<string, Entry>();
  readonly #owners = new OwnerIndex<Entry>();
  readonly #expiry = new ExpiryHeap<Entry>();
  readonly #listeners: TaskListeners;
  #timer: ReturnType<typeof setTimeout> | undefined;
  /** When the armed timer fires (infinity when none is armed). */
  #timerAt = Number.POSITIVE_INFINITY;
  #closed = false;

  constructor(options: MemoryTaskStoreOptions = {}) {
    this.maxTasks = positiveOption("mcp-h3: MemoryTaskStore maxTasks", options.maxTasks, { fallback: 10_000 });
    this.maxTasksPerOwner = positiveOption("mcp-h3: MemoryTaskStore maxTasksPerOwner", options.maxTasksPerOwner, {
      fallback: 1_000,
    });
    this.maxTtlMs = positiveOption("mcp-h3: MemoryTaskStore maxTtlMs", options.maxTtlMs, { fallback: 60 * 60_000 });
    this.#listeners = new TaskListeners({
      maxListenersPerTask: positiveOption("mcp-h3: MemoryTaskStore maxListenersPerTask", options.maxListenersPerTask, {
        fallback: 16,
      }),
      maxListeners: positiveOption("mcp-h3: MemoryTaskStore maxListeners", options.maxListeners, { fallback: 10_000 }),
    });
  }

  /** Tasks held now, expired ones the timer has not swept yet included (reads never see those). */
  get size(): number {
    return this.#tasks.size;
  }

  /** Listeners held now, on all tasks. */
  get listenerCount(): number {
    return this.#listeners.size;
  }

  async create(task: TaskState): Promise<TaskCreateOutcome> {
    const now = this.#open();
    checkTaskState(task);
    if (this.#tasks.has(task.taskId)) throw new Error("task store: a task with this id exists");
    if (this.#tasks.size >= this.maxTasks) return "full";
    if (this.#owners.countOf(task.owner) >= this.maxTasksPerOwner) return "full";
    const entry: Entry = {
      taskId: task.taskId,
      owner: task.owner,
      createdAt: task.createdAt,
      expiresAt: taskExpiresAt(task, this.maxTtlMs, now),
      text: JSON.stringify(task),
      terminal: isTerminalStatus(task.status),
    };
    this.#tasks.set(entry.taskId, entry);
    this.#owners.add(entry.owner, entry);
    this.#expiry.push(entry);
    this.#arm(now);
    return "created";
  }

  async get(taskId: string): Promise<TaskState | undefined> {
    this.#open();
    const entry = this.#tasks.get(taskId);
    return entry && (JSON.parse(entry.text) as TaskState);
  }

  async update(taskId: string, change: TaskChange, now: number): Promise<TaskState | undefined> {
    this.#open();
    const entry = this.#tasks.get(taskId);
    if (!entry || entry.terminal) return undefined;
    // Read, change and write with no await between: nothing else runs meanwhile, so of two racing
    // terminal changes the first wins and the second finds the task terminal.
    const next = applyTaskChange(JSON.parse(entry.text) as TaskState, change, now);
    const text = JSON.stringify(next);
    entry.text = text;
    entry.terminal = isTerminalStatus(next.status);
    return JSON.parse(text) as TaskState;
  }

  async list(owner: string, cursor: string | undefined, limit: number): Promise<TaskPage | undefined> {
    this.#open();
    const from = cursor === undefined ? undefined : decodeTaskCursor(cursor);
    if (cursor !== undefined && from === undefined) return undefined;
    const { tasks, more } = this.#owners.page(owner, from, taskPageSize(limit));
    const page = tasks.map((entry) => JSON.parse(entry.text) as TaskState);
    const last = tasks[tasks.length - 1];
    return more && last ? { tasks: page, nextCursor: encodeTaskCursor(last) } : { tasks: page };
  }

  async publish(taskId: string, message: TaskMessage): Promise<void> {
    this.#open();
    this.#listeners.deliver(taskId, JSON.stringify(message));
  }

  async subscribe(taskId: string, listener: (message: TaskMessage) => void): Promise<() => void> {
    this.#open();
    return this.#listeners.add(taskId, listener);
  }

  /** Stops the sweep timer and drops every task and listener; the store refuses calls from then on. */
  async close(): Promise<void> {
    this.#closed = true;
    clearTimeout(this.#timer);
    this.#timer = undefined;
    this.#timerAt = Number.POSITIVE_INFINITY;
    this.#tasks.clear();
    this.#owners.clear();
    this.#expiry.clear();
    this.#listeners.clear();
  }

  /** Rejects a call on a closed store; sweeps, and answers the time it swept at. */
  #open(): number {
    if (this.#closed) throw new Error("task store: closed");
    const now = Date.now();
    this.#sweep(now);
    return now;
  }

  /** Forgets the tasks expired at `now`: O(log n) each, nothing when none is due. */
  #sweep(now: number): void {
    for (let next = this.#expiry.peek(); next !== undefined && next.expiresAt <= now; next = this.#expiry.peek()) {
      this.#expiry.pop();
      this.#tasks.delete(next.taskId);
      this.#owners.remove(next.owner, next);
    }
  }

  /** Arms the one timer for the next expiry, unless it is armed for that time or earlier already. */
  #arm(now: number): void {
    const next = this.#expiry.peek();
    if (next === undefined) return;
    const at = next.expiresAt + SWEEP_BATCH_MS;
    if (this.#timer !== undefined && this.#timerAt <= at) return;
    clearTimeout(this.#timer);
    this.#timerAt = at;
    this.#timer = setTimeout(() => this.#fire(), Math.min(Math.max(0, at - now), MAX_TIMER_MS));
    // Node: a pending sweep does not keep the process alive. Runtimes without unref have no such notion.
    (this.#timer as { unref?: () => void }).unref?.();
  }

  #fire(): void {
    this.#timer = undefined;
    this.#timerAt = Number.POSITIVE_INFINITY;
    const now = Date.now();
    this.#sweep(now);
    this.#arm(now);
  }
}
