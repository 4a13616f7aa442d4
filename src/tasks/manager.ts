/**
 * The task manager, era-neutral: what both wires call. A wire turns a `tools/call` into a task with
 * {@link TaskManager.start}, and answers the task methods with `get`, `waitForTerminal`, `list`,
 * `cancel` and `deliverInput`; every read is scoped to the caller (another owner's task, or one whose
 * tool the request may not call, is answered exactly as an unknown one: {@link mayView}) and fails a
 * task whose instance stopped renewing its lease (once a probe found no live owner: lease-check.ts).
 */
import { ErrorCode, McpError } from "../index.ts";
import type { JsonObject } from "../index.ts";
import type { McpExtensionPoint } from "../types/extensions.ts";
import type { TaskChange, TaskPage, TaskState } from "../types/tasks.ts";
import type { ResolvedTasksOptions } from "./options.ts";
import { mayView, type TaskViewer } from "./identity.ts";
import type { RunningTask } from "./running.ts";
import { LeaseChecks } from "./lease-check.ts";
import { TaskFollowers } from "./task-followers.ts";
import { LEASE_EXPIRED, isTerminal } from "./terminal.ts";

/** The incidents of the handler, as the extension point gives them. */
export type TaskIncidents = McpExtensionPoint["incidents"];

export class TaskManager {
  readonly options: ResolvedTasksOptions;
  readonly incidents: TaskIncidents;
  /**
   * The task handlers running on this instance, by task id: each from before it starts until its
   * task is released (outcome stored, cancelled, expired or gone), at most `maxRunningTasks` in all
   * and `maxRunningTasksPerOwner` per owner, whatever the store holds.
   */
  readonly running = new Map<string, RunningTask>();
  /** How many of {@link running} each owner has (owners with none are not kept). */
  readonly #runningPerOwner = new Map<string, number>();
  /** Status changes followed by `tasks/result` waiters and listen streams: one store subscription per task. */
  readonly followers: TaskFollowers;
  readonly #statusListeners = new Set<(task: TaskState) => void>();
  /** The tasks found past their lease, being confirmed before they are failed. */
  readonly #leaseChecks: LeaseChecks;
  /** Set by {@link close}: the tasks still finishing write nothing more (their store may be closed). */
  #closed = false;

  constructor(options: ResolvedTasksOptions, incidents: TaskIncidents) {
    this.options = options;
    this.incidents = incidents;
    this.followers = new TaskFollowers(options.store, incidents);
    this.#leaseChecks = new LeaseChecks({
      store: options.store,
      leaseMs: options.leaseMs,
      fail: async (taskId) => {
        const failed = await this.update(taskId, { status: "failed", error: LEASE_EXPIRED, inputRequests: null });
        return failed ?? (await this.options.store.get(taskId));
      },
    });
  }

  /**
   * The TTL of a new task: `requested` (legacy `params.task.ttl`) raised to `minTtlMs` and cut to
   * `maxTtlMs`, else the default; never longer than the store keeps a task.
   */
  ttlFor(requested: number | undefined): number {
    const { defaultTtlMs, maxTtlMs, minTtlMs, store } = this.options;
    const kept = typeof store.maxTtlMs === "number" && store.maxTtlMs >= 1 ? store.maxTtlMs : maxTtlMs;
    const longest = Math.min(maxTtlMs, kept);
    if (requested === undefined || !Number.isFinite(requested) || requested <= 0) {
      return Math.min(defaultTtlMs, longest);
    }
    return Math.min(Math.max(Math.floor(requested), minTtlMs), longest);
  }

  /**
   * Counts `task` among the handlers running here, before it starts; throws (`-32603` with
   * `data.limit`, as a full store does) when this instance runs its most, in all or for the owner.
   */
  admit(task: RunningTask): void {
    const { maxRunningTasks, maxRunningTasksPerOwner } = this.options;
    if (this.running.size >= maxRunningTasks) {
      throw new McpError(
        ErrorCode.InternalError,
        `Too many tasks: ${maxRunningTasks} are running here; try again later`,
        {
          limit: "runningTasks",
          max: maxRunningTasks,
        },
      );
    }
    const owned = this.#runningPerOwner.get(task.owner) ?? 0;
    if (owned >= maxRunningTasksPerOwner) {
      throw new McpError(
        ErrorCode.InternalError,
        `Too many tasks: ${maxRunningTasksPerOwner} of yours are running here; try again later`,
        { limit: "runningTasksPerOwner", max: maxRunningTasksPerOwner },
      );
    }
    this.running.set(task.taskId, task);
    this.#runningPerOwner.set(task.owner, owned + 1);
  }

  /** Frees the place {@link admit} gave `task` (once; a task not admitted is ignored). */
  release(task: RunningTask): void {
    if (this.running.get(task.taskId) !== task) return;
    this.running.delete(task.taskId);
    const owned = (this.#runningPerOwner.get(task.owner) ?? 1) - 1;
    if (owned > 0) this.#runningPerOwner.set(task.owner, owned);
    else this.#runningPerOwner.delete(task.owner);
  }

  /**
   * The task `taskId` as `viewer` may see it, or undefined when it is unknown, expired, another
   * owner's, or of a tool the viewer's request may not call. A task still `working` or
   * `input_required` past its lease is failed first, unless its instance renews it when asked (a
   * lapsed lease may be a renewal refused while the store was away: lease-check.ts).
   */
  async get(taskId: string, viewer: TaskViewer): Promise<TaskState | undefined> {
    const task = await this.options.store.get(taskId);
    if (task === undefined || !mayView(task, viewer)) return undefined;
    return this.#leaseChecks.check(task);
  }

  /**
   * The viewer's tasks, oldest first (legacy `tasks/list`), without those of tools its request may
   * not call (a page may hold fewer than `limit`, none even, and still name the next); undefined
   * when `cursor` is not one the store gave.
   */
  async list(viewer: TaskViewer, cursor: string | undefined, limit: number): Promise<TaskPage | undefined> {
    const page = await this.options.store.list(viewer.owner, cursor, limit);
    if (page === undefined) return undefined;
    const seen = page.tasks.filter((task) => mayView(task, viewer));
    const checked = await Promise.all(seen.map((task) => this.#leaseChecks.check(task)));
    const tasks = checked.filter((task) => task !== undefined);
    return { ...page, tasks };
  }

  /**
   * Cancels the task: it becomes `cancelled` now, and the instance running it aborts the handler's
   * `signal`. A terminal task is left as it is. Resolves the task as it is now; undefined: unknown.
   */
  async cancel(taskId: string, viewer: TaskViewer): Promise<TaskState | undefined> {
    const task = await this.get(taskId, viewer);
    if (task === undefined || isTerminal(task)) return task;
    const cancelled = await this.update(taskId, { status: "cancelled", inputRequests: null });
    await this.options.store.publish(taskId, { type: "cancel" });
    return cancelled ?? (await this.options.store.get(taskId));
  }

  /**
   * Delivers answers to the task's open input requests (modern `tasks/update`): the answered keys
   * leave `inputRequests` now, and the instance running the task resumes the handler. Answers to
   * keys that are not open are ignored. Resolves the task; undefined: unknown.
   */
  async deliverInput(taskId: string, viewer: TaskViewer, responses: JsonObject): Promise<TaskState | undefined> {
    const task = await this.get(taskId, viewer);
    if (task === undefined || task.status !== "input_required") return task;
    const open = { ...task.inputRequests };
    for (const key of Object.keys(responses)) delete open[key];
    const left = Object.keys(open).length > 0;
    const updated = await this.update(
      taskId,
      left ? { inputRequests: open } : { status: "working", inputRequests: null },
    );
    await this.options.store.publish(taskId, { type: "input", responses });
    return updated ?? task;
  }

  /**
   * Resolves the task once it is terminal (legacy `tasks/result`), or undefined when it is unknown;
   * rejects with `signal`'s reason when the waiter goes away first. Status messages from any instance
   * wake it; it reads again every two poll intervals all the same (a message may be lost).
   */
  async waitForTerminal(taskId: string, viewer: TaskViewer, signal?: AbortSignal): Promise<TaskState | undefined> {
    let wake: (() => void) | undefined;
    // A message that comes while the task is being read is not lost: the loop reads again.
    let changed = false;
    const unsubscribe = await this.options.store.subscribe(taskId, (message) => {
      if (message.type !== "status") return;
      changed = true;
      wake?.();
    });
    try {
      for (;;) {
        signal?.throwIfAborted();
        changed = false;
        const task = await this.get(taskId, viewer);
        if (task === undefined || isTerminal(task)) return task;
        if (changed) continue;
        await new Promise<void>((resolve) => {
          const timer = setTimeout(done, this.options.pollIntervalMs * 2);
          function done(): void {
            clearTimeout(timer);
            signal?.removeEventListener("abort", done);
            wake = undefined;
            resolve();
          }
          wake = done;
          signal?.addEventListener("abort", done, { once: true });
        });
      }
    } finally {
      unsubscribe();
    }
  }

  /**
   * Applies `change` to the store; a change of status is told to every instance (`status` message)
   * and to this one's listeners. Undefined: the task is unknown or already terminal.
   */
  async update(taskId: string, change: TaskChange): Promise<TaskState | undefined> {
    if (this.#closed) return undefined;
    const task = await this.options.store.update(taskId, change, Date.now());
    if (task !== undefined && (change.status !== undefined || change.inputRequests !== undefined)) {
      this.announce(task);
      await this.options.store.publish(taskId, { type: "status", task });
    }
    return task;
  }

  /** Tells this instance's status listeners (status notifications) that `task` changed. */
  announce(task: TaskState): void {
    for (const listener of this.#statusListeners) {
      try {
        listener(task);
      } catch (error) {
        this.incidents.record("background_failure", error);
      }
    }
  }

  /** Calls `listener` with every task this instance changes, until the returned function is called. */
  onStatus(listener: (task: TaskState) => void): () => void {
    this.#statusListeners.add(listener);
    return () => this.#statusListeners.delete(listener);
  }

  /**
   * Stops every task running here (the handler closes): their handlers' signals abort, and nothing
   * more is written (a task left `working` fails once its lease runs out, as when an instance dies).
   */
  close(): void {
    this.#closed = true;
    // Each close() releases its task from the map: a Map goes on past entries deleted while it is walked.
    for (const task of this.running.values()) {
      task.controller.abort(new Error("The server is shutting down"));
      task.close();
    }
    this.running.clear();
    this.#runningPerOwner.clear();
  }
}
