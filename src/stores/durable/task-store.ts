/**
 * Tasks in a Durable Object's SQLite storage: the records, the caps (in all and per owner), the TTL
 * and the owner's pages are kept in a table, so a task outlives the object's eviction or restart;
 * its messages go to the listeners in the object, where every request about the task is served.
 * Each method reads and writes without awaiting, so `update`'s "one terminal change wins" and the
 * caps hold by the object's single thread.
 */
import { positiveOption } from "../../protocol/positive-option.ts";
import type { TaskChange, TaskCreateOutcome, TaskMessage, TaskPage, TaskState, TaskStore } from "../../types/tasks.ts";
import { applyTaskChange, checkTaskState, isPossibleTaskId, isTerminalStatus, taskExpiresAt } from "../task-change.ts";
import { decodeTaskCursor, encodeTaskCursor, taskPageSize } from "../task-cursor.ts";
import { TaskListeners } from "../task-listeners.ts";
import { firstRow, rows, type SqlStorage } from "./sql.ts";

/** Options of {@link DurableTaskStore}: those of `MemoryTaskStore`, with the same defaults. */
export interface DurableTaskStoreOptions {
  /** Most tasks kept in all (default 10,000); at the cap `create` answers `"full"`. */
  maxTasks?: number;
  /** Most tasks kept per owner (default 1,000). */
  maxTasksPerOwner?: number;
  /** Longest a task is kept after its `createdAt`, in ms (default one hour). */
  maxTtlMs?: number;
  /** Most listeners on one task (default 16). */
  maxListenersPerTask?: number;
  /** Most listeners on all tasks (default 10,000). */
  maxListeners?: number;
}

const SCHEMA = [
  `CREATE TABLE IF NOT EXISTS mcp_tasks (task_id TEXT PRIMARY KEY, owner TEXT NOT NULL, created_at INTEGER NOT NULL,
    expires_at INTEGER NOT NULL, terminal INTEGER NOT NULL, lease_until INTEGER, data TEXT NOT NULL)`,
  "CREATE INDEX IF NOT EXISTS mcp_tasks_owner ON mcp_tasks (owner, created_at, task_id)",
  "CREATE INDEX IF NOT EXISTS mcp_tasks_expiry ON mcp_tasks (expires_at)",
  "CREATE INDEX IF NOT EXISTS mcp_tasks_lease ON mcp_tasks (lease_until)",
];

/** A task's lease as the table keeps it: only while the task may still change. */
const leaseOf = (task: TaskState): number | null => (isTerminalStatus(task.status) ? null : (task.leaseUntil ?? null));

/**
 * Keeps tasks in the storage of the Durable Object that serves them. Expired tasks are deleted on
 * every call; the object's alarm calls {@link DurableTaskStore.sweep} at {@link DurableTaskStore.nextExpiry}
 * so that they also go when no request comes.
 *
 * @example
 * tasks({ store: new DurableTaskStore(ctx.storage.sql, { maxTasksPerOwner: 50 }) });
 */
export class DurableTaskStore implements TaskStore {
  readonly maxTasks: number;
  readonly maxTasksPerOwner: number;
  readonly maxTtlMs: number;
  readonly #sql: SqlStorage;
  readonly #listeners: TaskListeners;
  /**
   * Tasks kept in all and per owner, each counted on first need and kept with every write: a
   * `count(*)` per `create` read a row per task kept, and Cloudflare bills rows read. Owners are
   * forgotten when their last task goes, so the map is bounded by the tasks kept.
   */
  #total: number | undefined;
  readonly #perOwner = new Map<string, number>();

  constructor(sql: SqlStorage, options: DurableTaskStoreOptions = {}) {
    const bound = (name: string, value: number | undefined, fallback: number): number =>
      positiveOption(`mcp-h3: DurableTaskStore ${name}`, value, { fallback });
    this.#sql = sql;
    this.maxTasks = bound("maxTasks", options.maxTasks, 10_000);
    this.maxTasksPerOwner = bound("maxTasksPerOwner", options.maxTasksPerOwner, 1_000);
    this.maxTtlMs = bound("maxTtlMs", options.maxTtlMs, 60 * 60_000);
    this.#listeners = new TaskListeners({
      maxListenersPerTask: bound("maxListenersPerTask", options.maxListenersPerTask, 16),
      maxListeners: bound("maxListeners", options.maxListeners, 10_000),
    });
    for (const statement of SCHEMA) sql.exec(statement);
  }

  async create(task: TaskState): Promise<TaskCreateOutcome> {
    const now = this.sweep();
    checkTaskState(task);
    if (this.#row(task.taskId)) throw new Error("task store: a task with this id exists");
    const total = this.#totalNow();
    if (total >= this.maxTasks) return "full";
    const owned = this.#ownerCount(task.owner);
    if (owned >= this.maxTasksPerOwner) return "full";
    this.#sql.exec(
      `INSERT INTO mcp_tasks (task_id, owner, created_at, expires_at, terminal, lease_until, data)
        VALUES (?, ?, ?, ?, ?, ?, ?)`,
      task.taskId,
      task.owner,
      task.createdAt,
      taskExpiresAt(task, this.maxTtlMs, now),
      isTerminalStatus(task.status) ? 1 : 0,
      leaseOf(task),
      JSON.stringify(task),
    );
    this.#total = total + 1;
    this.#perOwner.set(task.owner, owned + 1);
    return "created";
  }

  async get(taskId: string): Promise<TaskState | undefined> {
    this.sweep();
    const row = this.#row(taskId);
    return row && (JSON.parse(row.data) as TaskState);
  }

  async update(taskId: string, change: TaskChange, now: number): Promise<TaskState | undefined> {
    this.sweep();
    const row = this.#row(taskId);
    if (!row || row.terminal) return undefined;
    const next = applyTaskChange(JSON.parse(row.data) as TaskState, change, now);
    const text = JSON.stringify(next);
    this.#sql.exec(
      "UPDATE mcp_tasks SET data = ?, terminal = ?, lease_until = ? WHERE task_id = ?",
      text,
      isTerminalStatus(next.status) ? 1 : 0,
      leaseOf(next),
      taskId,
    );
    // A copy: `next` holds the caller's own objects of `change`.
    return JSON.parse(text) as TaskState;
  }

  async list(owner: string, cursor: string | undefined, limit: number): Promise<TaskPage | undefined> {
    this.sweep();
    const from = cursor === undefined ? undefined : decodeTaskCursor(cursor);
    if (cursor !== undefined && from === undefined) return undefined;
    const size = taskPageSize(limit);
    // One more than the page, to know whether another follows.
    const found = rows<{ data: string }>(
      this.#sql,
      from === undefined
        ? "SELECT data FROM mcp_tasks WHERE owner = ? ORDER BY created_at, task_id LIMIT ?"
        : `SELECT data FROM mcp_tasks WHERE owner = ? AND (created_at > ? OR (created_at = ? AND task_id > ?))
            ORDER BY created_at, task_id LIMIT ?`,
      ...(from === undefined ? [owner, size + 1] : [owner, from.createdAt, from.createdAt, from.taskId, size + 1]),
    );
    const tasks = found.slice(0, size).map((row) => JSON.parse(row.data) as TaskState);
    const last = tasks[tasks.length - 1];
    return found.length > size && last ? { tasks, nextCursor: encodeTaskCursor(last) } : { tasks };
  }

  async publish(taskId: string, message: TaskMessage): Promise<void> {
    this.#listeners.deliver(taskId, JSON.stringify(message));
  }

  async subscribe(taskId: string, listener: (message: TaskMessage) => void): Promise<() => void> {
    return this.#listeners.add(taskId, listener);
  }

  /** Drops every listener; the tasks stay in storage. */
  async close(): Promise<void> {
    this.#listeners.clear();
  }

  /** Deletes the tasks expired by now; answers now. */
  sweep(now = Date.now()): number {
    const gone = rows<{ owner: string }>(this.#sql, "DELETE FROM mcp_tasks WHERE expires_at <= ? RETURNING owner", now);
    for (const { owner } of gone) this.#forget(owner);
    return now;
  }

  /** When the first kept task expires (ms since the epoch), or undefined when none is kept. */
  nextExpiry(): number | undefined {
    return firstRow<{ at: number | null }>(this.#sql, "SELECT min(expires_at) AS at FROM mcp_tasks")?.at ?? undefined;
  }

  /**
   * The lease of every task that may still change (task id → its end, ms since the epoch): the
   * object reads them as its life begins, when they are the leases of work that died with its
   * previous life, for its alarm to fail them at their end.
   */
  leases(): Map<string, number> {
    const found = rows<{ task_id: string; lease_until: number }>(
      this.#sql,
      "SELECT task_id, lease_until FROM mcp_tasks WHERE lease_until IS NOT NULL",
    );
    return new Map(found.map((row) => [row.task_id, row.lease_until]));
  }

  #row(taskId: string): { data: string; terminal: number } | undefined {
    if (!isPossibleTaskId(taskId)) return undefined;
    return firstRow<{ data: string; terminal: number }>(
      this.#sql,
      "SELECT data, terminal FROM mcp_tasks WHERE task_id = ?",
      taskId,
    );
  }

  #totalNow(): number {
    return (this.#total ??= firstRow<{ n: number }>(this.#sql, "SELECT count(*) AS n FROM mcp_tasks")!.n);
  }

  #ownerCount(owner: string): number {
    let count = this.#perOwner.get(owner);
    if (count === undefined) {
      count = firstRow<{ n: number }>(this.#sql, "SELECT count(*) AS n FROM mcp_tasks WHERE owner = ?", owner)!.n;
      if (count > 0) this.#perOwner.set(owner, count);
    }
    return count;
  }

  /** One task of `owner` is gone; counts not read yet are read later, as they are then. */
  #forget(owner: string): void {
    if (this.#total !== undefined) this.#total -= 1;
    const count = this.#perOwner.get(owner);
    if (count === undefined) return;
    if (count > 1) this.#perOwner.set(owner, count - 1);
    else this.#perOwner.delete(owner);
  }
}
