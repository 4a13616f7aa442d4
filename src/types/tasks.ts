/**
 * The store behind tasks (long work that outlives its request): one era-neutral record per task,
 * from which each era's wire is written. The memory default lives in `mcp-h3/tasks`; `mcp-h3/redis`
 * implements it on Redis, and an edge store (KV, Durable Objects, an HTTP Redis) can implement it
 * too: every method is a promise, messages between instances are plain JSON.
 */
import type { JsonObject } from "../protocol/jsonrpc.ts";

/** The five statuses; the last three are terminal: a terminal task never changes again. */
export type TaskStatus = "working" | "input_required" | "completed" | "failed" | "cancelled";

/** One task as stored. Plain JSON data, so any store can keep it. */
export interface TaskState {
  /** Unguessable (at least 128 random bits), made by the engine. */
  readonly taskId: string;
  /**
   * Who created it: the caller's principal, or a key the engine derives for an anonymous caller.
   * The engine answers a task of another owner exactly as an unknown one.
   */
  readonly owner: string;
  /**
   * The tool the task runs (its `tools/call` name): reading, answering, cancelling or listening to
   * the task needs what calling that tool needs, on the request's own token (its scopes, its
   * `enabled`). The engine answers a task the request may not call exactly as an unknown one.
   */
  readonly tool: string;
  readonly status: TaskStatus;
  readonly statusMessage?: string;
  /** Epoch milliseconds. */
  readonly createdAt: number;
  readonly lastUpdatedAt: number;
  /** How long after `createdAt` the task is kept, in ms (already capped by the engine); `null`: the store's longest. */
  readonly ttlMs: number | null;
  /** How often a client should poll, in ms. */
  readonly pollIntervalMs?: number;
  /** `completed`: the tool's result (an `isError` result is `completed` too). */
  readonly result?: JsonObject;
  /** `failed`: the JSON-RPC error object (`code`, `message`, `data?`). */
  readonly error?: JsonObject;
  /** `input_required`: the open input requests by key (keys are never reused within a task). */
  readonly inputRequests?: JsonObject;
  /**
   * Until when (epoch ms) the instance running the task vouches for it; it renews this while the
   * work runs. A reader finding a non-terminal task past its lease fails it (its instance died).
   */
  readonly leaseUntil?: number;
}

/** What {@link TaskStore.update} may change; `null` removes an optional field. */
export interface TaskChange {
  readonly status?: TaskStatus;
  readonly statusMessage?: string | null;
  readonly result?: JsonObject;
  readonly error?: JsonObject;
  readonly inputRequests?: JsonObject | null;
  readonly leaseUntil?: number;
}

/** A message about one task, between the instances serving it (see {@link TaskStore.publish}). */
export type TaskMessage =
  /** The task's owner asked to cancel it: the instance running it aborts its work. */
  | { readonly type: "cancel" }
  /** Answers to the task's input requests (modern `tasks/update`), by key. */
  | { readonly type: "input"; readonly responses: JsonObject }
  /**
   * A reader found the task past its lease: the instance running it renews the lease at once (a
   * renewal refused while the store was away may not have been retried yet); the reader fails the
   * task only when no renewal comes.
   */
  | { readonly type: "lease" }
  /** The task changed: what it is now (for `tasks/result` waiters and status notifications). */
  | { readonly type: "status"; readonly task: TaskState };

/** A page of {@link TaskStore.list}. */
export interface TaskPage {
  readonly tasks: readonly TaskState[];
  /** Opaque; absent on the last page. */
  readonly nextCursor?: string;
}

/** What {@link TaskStore.create} did. */
export type TaskCreateOutcome =
  | "created"
  /** The store holds its most tasks, or the owner holds theirs: nothing was stored. */
  | "full";

/**
 * Where tasks live. Implementations keep every bound (the most tasks, the most per owner, the
 * longest TTL) and forget a task once its TTL has passed since `createdAt`. Every method may
 * reject (a networked store that fails); the engine answers `-32603` then, and records an incident.
 */
export interface TaskStore {
  /**
   * The longest this store keeps a task after its `createdAt`, in ms, when it has such a bound: the
   * engine caps the TTLs it grants to it, so a client is never promised more than is kept.
   */
  readonly maxTtlMs?: number;
  /**
   * The most tasks this store keeps in all, when it has such a bound: unless `tasks()` names its own
   * `maxRunningTasks`, an instance runs at most this many task handlers at once.
   */
  readonly maxTasks?: number;
  /** The most tasks this store keeps per owner, when it has such a bound (the default of `maxRunningTasksPerOwner`). */
  readonly maxTasksPerOwner?: number;
  /** Stores a new task; resolves only once it is durable (before `CreateTaskResult` is sent). */
  create(task: TaskState): Promise<TaskCreateOutcome>;
  /** The task, or undefined when unknown or expired (the engine checks the owner). */
  get(taskId: string): Promise<TaskState | undefined>;
  /**
   * Applies `change` and sets `lastUpdatedAt` to `now`, unless the task is unknown or already
   * terminal (then nothing changes and it resolves undefined); resolves the task as it is now.
   * Atomic: of two racing terminal changes, one wins and the other resolves undefined.
   */
  update(taskId: string, change: TaskChange, now: number): Promise<TaskState | undefined>;
  /**
   * The owner's tasks, oldest first (by `createdAt`, then `taskId`), at most `limit`, from `cursor`
   * (a `nextCursor` given before; it stays valid while tasks are deleted or expire). Resolves
   * undefined when `cursor` is not one the store gave (a client's cursor: the engine answers -32602).
   */
  list(owner: string, cursor: string | undefined, limit: number): Promise<TaskPage | undefined>;
  /** Sends `message` to the task's subscribers on every instance (none listening: it is dropped). */
  publish(taskId: string, message: TaskMessage): Promise<void>;
  /**
   * Calls `listener` with the messages about `taskId` published from now on (by any instance,
   * this one included), until the returned function is called. Resolves once it is listening.
   */
  subscribe(taskId: string, listener: (message: TaskMessage) => void): Promise<() => void>;
  /** Releases what the store holds (timers, connections); optional. */
  close?(): Promise<void>;
}

/**
 * Options of `tasks()` (`mcp-h3/tasks`). Every bound has a default; the store keeps its own (count,
 * per-owner cap, longest TTL).
 *
 * @example
 * import { tasks } from "mcp-h3/tasks";
 * defineMcpHandler({ name: "app", version: "1.0.0", tools, extensions: [tasks({ defaultTtlMs: 600_000 })] });
 */
export interface TasksOptions {
  /** Where tasks live (default: the memory store of `mcp-h3/tasks`, per process or Worker isolate). */
  store?: TaskStore;
  /** How long a task is kept after it was created, when the client asks for no TTL (default 1 hour). */
  defaultTtlMs?: number;
  /** The longest TTL a client may ask for (legacy `params.task.ttl`); longer ones are cut (default 1 hour, the memory store's longest). */
  maxTtlMs?: number;
  /**
   * The shortest TTL a client may ask for (legacy `params.task.ttl`); shorter ones are raised to it
   * (default 5 s, five default poll intervals, or `maxTtlMs` when that is shorter). A task kept for a
   * millisecond is gone before its client can read it.
   */
  minTtlMs?: number;
  /**
   * The most task handlers this instance runs at once (default: the store's `maxTasks`, else 10,000).
   * A task past it is refused (`-32603`, `data.limit: "runningTasks"`), whatever the store holds: a
   * task whose record left the store while its handler runs still counts until it is released.
   */
  maxRunningTasks?: number;
  /** The most task handlers this instance runs at once for one owner (default: the store's `maxTasksPerOwner`, else 1,000; `data.limit: "runningTasksPerOwner"`). */
  maxRunningTasksPerOwner?: number;
  /** How often clients are told to poll (`pollIntervalMs`, default 1000). */
  pollIntervalMs?: number;
  /**
   * The largest tool result a task keeps, as JSON bytes; a larger one fails the task (default 1 MiB).
   * An error the handler throws (`McpError`) is bounded alike: a larger one is stored as a short one saying so.
   */
  maxResultBytes?: number;
  /**
   * How long the instance running a task vouches for it without renewing (default 30 s; renewed every
   * third of it). A task whose instance stopped fails once this ran out, when it is next read.
   */
  leaseMs?: number;
}
