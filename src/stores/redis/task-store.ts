/**
 * A {@link TaskStore} on Redis: a task created on one instance is read, changed, listed and
 * cancelled from any instance sharing the Redis, and it outlives the instance that runs it.
 */
import { positiveOption } from "../../protocol/positive-option.ts";
import type { TaskChange, TaskCreateOutcome, TaskMessage, TaskPage, TaskState, TaskStore } from "../../types/tasks.ts";
import { checkTaskState, isPossibleTaskId, taskExpiresAt } from "../task-change.ts";
import { decodeTaskCursor, encodeTaskCursor, taskPageSize } from "../task-cursor.ts";
import { TaskListeners } from "../task-listeners.ts";
import { RedisConnection, type RedisConnectionOptions } from "./connection.ts";
import { decodeTask, encodeTask, encodeTaskChange } from "./task-record.ts";
import { slotTag } from "./slot-keys.ts";
import { LIST_TASKS, PLACE_OWNED_TASK, PLACE_TASK, STORE_TASK, UPDATE_TASK } from "./task-scripts.ts";

/**
 * Options of {@link RedisTaskStore}; the bounds hold across all instances sharing the Redis. Every
 * bound has a default, and one given must be a positive whole number (else the store is not made:
 * a `RangeError` names it).
 */
export interface RedisTaskStoreOptions extends RedisConnectionOptions {
  /** Most tasks kept in all (default 10,000); at the cap `create` answers `"full"`. */
  maxTasks?: number;
  /** Most tasks kept per owner (default 1,000); at the cap `create` answers `"full"` for that owner. */
  maxTasksPerOwner?: number;
  /** Longest a task is kept after its `createdAt`, in ms (default one hour); a TTL of `null` gets this. */
  maxTtlMs?: number;
  /** Most listeners on one task in this process (default 16); `subscribe` rejects past it. */
  maxListenersPerTask?: number;
  /** Most listeners on all tasks in this process (default 10,000); `subscribe` rejects past it. */
  maxListeners?: number;
}

/**
 * Keeps tasks in Redis, under the connection's prefix: `{task:<id>}` is a hash with the record's
 * fields (as JSON) and a PEXPIRE at the task's TTL, `{tasks}:by-expiry` all tasks by expiry (the
 * cap in all), `{owner:<owner>}:tasks` and `{owner:<owner>}:tasks-by-expiry` an owner's tasks by
 * creation (for `list`) and by expiry (its cap); the braces are Redis Cluster hash tags, so each of
 * the three is one slot. Updating (never a terminal task) is one Lua script; paging is one on the
 * owner's indexes, then the page's hashes, read at once.
 *
 * Creating is three scripts sent at once, one per slot: a place among all tasks, a place among the
 * owner's (each refused at its cap, atomically for every instance) and the hash. When one refuses,
 * the others' writes are undone and the create answers "full" (or fails, for an id taken): the caps
 * are never passed by tasks that stay. A process that dies between the answers and the undo
 * leaves what it wrote: a place with no hash counts toward a cap until the task's expiry (the cap is
 * reached sooner, never passed), a hash with no place was never handed to a client (its id is
 * known to no one) and expires at its TTL. Messages go over pub/sub on the channel `task:<id>`: this
 * store SUBSCRIBEs once per task that has listeners here, on its connection's subscriber, and
 * `subscribe` resolves once Redis confirmed. Every failure rejects with an error saying which call
 * failed; the client reconnects by itself, and the store works again once Redis is back.
 *
 * @example
 * import { RedisConnection, RedisTaskStore } from "mcp-h3/redis";
 * const tasks = new RedisTaskStore({ connection: new RedisConnection({ url: process.env.REDIS_URL }) });
 */
export class RedisTaskStore implements TaskStore {
  readonly maxTasks: number;
  readonly maxTasksPerOwner: number;
  readonly maxTtlMs: number;
  readonly #connection: RedisConnection;
  /** Whether {@link RedisTaskStore.close} closes the connection (this store made it). */
  readonly #ownsConnection: boolean;
  readonly #listeners: TaskListeners;
  /** The SUBSCRIBE of each task with listeners here, and the function it delivers with. */
  readonly #channels = new Map<string, { ready: Promise<void>; deliver: (text: string) => void }>();

  constructor(options: RedisTaskStoreOptions = {}) {
    this.maxTasks = positiveOption("mcp-h3: RedisTaskStore maxTasks", options.maxTasks, { fallback: 10_000 });
    this.maxTasksPerOwner = positiveOption("mcp-h3: RedisTaskStore maxTasksPerOwner", options.maxTasksPerOwner, {
      fallback: 1_000,
    });
    this.maxTtlMs = positiveOption("mcp-h3: RedisTaskStore maxTtlMs", options.maxTtlMs, { fallback: 60 * 60_000 });
    this.#listeners = new TaskListeners({
      maxListenersPerTask: positiveOption("mcp-h3: RedisTaskStore maxListenersPerTask", options.maxListenersPerTask, {
        fallback: 16,
      }),
      maxListeners: positiveOption("mcp-h3: RedisTaskStore maxListeners", options.maxListeners, { fallback: 10_000 }),
    });
    // Opened once the bounds are checked: a bound that is not one is refused with nothing to close.
    this.#ownsConnection = options.connection === undefined;
    this.#connection = options.connection ?? new RedisConnection(options);
  }

  create(task: TaskState): Promise<TaskCreateOutcome> {
    return failing("create", async () => {
      checkTaskState(task);
      const now = Date.now();
      const expiresAt = taskExpiresAt(task, this.maxTtlMs, now);
      // Expired before it is stored: nothing to keep (a read finds it gone, as it would a moment later).
      if (expiresAt <= now) return "created";
      const client = await this.#connection.client();
      const id = task.taskId;
      // Three slots on a cluster, so three scripts, sent at once: what one of them refuses, the
      // others' writes are undone (see {@link RedisTaskStore}).
      const steps: { answer: Promise<number>; undo: () => Promise<unknown> }[] = [
        {
          answer: PLACE_TASK.run(
            client,
            [this.#allByExpiry],
            [String(now), String(this.maxTasks), String(expiresAt), id],
          ).then(Number),
          undo: () => client.zRem(this.#allByExpiry, id),
        },
        {
          answer: PLACE_OWNED_TASK.run(
            client,
            [this.#ownerKey(task.owner), this.#ownerExpiryKey(task.owner)],
            [
              String(now),
              String(this.maxTasksPerOwner),
              String(task.createdAt),
              String(expiresAt),
              String(expiresAt - now),
              id,
            ],
          ).then(Number),
          undo: () =>
            client.multi().zRem(this.#ownerKey(task.owner), id).zRem(this.#ownerExpiryKey(task.owner), id).exec(),
        },
        {
          answer: STORE_TASK.run(client, [this.#taskKey(id)], [String(expiresAt - now), ...encodeTask(task)]).then(
            Number,
          ),
          undo: () => client.del(this.#taskKey(id)),
        },
      ];
      const answers = await Promise.allSettled(steps.map((step) => step.answer));
      const done = (index: number): boolean => {
        const answer = answers[index]!;
        return answer.status === "fulfilled" && answer.value === 1;
      };
      if (steps.every((_, index) => done(index))) return "created";
      await Promise.allSettled(steps.filter((_, index) => done(index)).map((step) => step.undo()));
      for (const answer of answers) if (answer.status === "rejected") throw answer.reason;
      if (answers.some((answer) => answer.status === "fulfilled" && answer.value === -1)) {
        throw new Error("a task with this id exists");
      }
      return "full";
    });
  }

  get(taskId: string): Promise<TaskState | undefined> {
    return failing("get", async () => {
      if (!isPossibleTaskId(taskId)) return undefined;
      const client = await this.#connection.client();
      return decodeTask(await client.hGetAll(this.#taskKey(taskId)));
    });
  }

  update(taskId: string, change: TaskChange, now: number): Promise<TaskState | undefined> {
    return failing("update", async () => {
      if (!isPossibleTaskId(taskId)) return undefined;
      const args = [JSON.stringify(now), ...encodeTaskChange(change)];
      const client = await this.#connection.client();
      return decodeTask(await UPDATE_TASK.run(client, [this.#taskKey(taskId)], args));
    });
  }

  list(owner: string, cursor: string | undefined, limit: number): Promise<TaskPage | undefined> {
    return failing("list", async () => {
      const from = cursor === undefined ? undefined : decodeTaskCursor(cursor);
      if (cursor !== undefined && from === undefined) return undefined;
      const size = taskPageSize(limit);
      const client = await this.#connection.client();
      const [more, ...page] = (await LIST_TASKS.run(
        client,
        [this.#ownerKey(owner), this.#ownerExpiryKey(owner)],
        [String(Date.now()), from ? String(from.createdAt) : "", from?.taskId ?? "", String(size)],
      )) as unknown[];
      const rows: { id: string; createdAt: number }[] = [];
      for (let at = 0; at + 1 < page.length; at += 2)
        rows.push({ id: String(page[at]), createdAt: Number(page[at + 1]) });
      // Each hash in its own slot: read all at once (one expiring this very moment is left out).
      const hashes = await Promise.all(rows.map((row) => client.hGetAll(this.#taskKey(row.id))));
      const tasks: TaskState[] = [];
      for (const hash of hashes) {
        const task = decodeTask(hash);
        if (task) tasks.push(task);
      }
      const last = rows[rows.length - 1];
      if (Number(more) !== 1 || !last) return { tasks };
      return { tasks, nextCursor: encodeTaskCursor({ taskId: last.id, createdAt: last.createdAt }) };
    });
  }

  publish(taskId: string, message: TaskMessage): Promise<void> {
    return failing("publish", async () => {
      const text = JSON.stringify(message);
      await this.#connection.publish(this.#channel(taskId), text);
    });
  }

  async subscribe(taskId: string, listener: (message: TaskMessage) => void): Promise<() => void> {
    // At a bound this throws before anything is sent to Redis.
    const release = this.#listeners.add(taskId, listener, (id) => this.#unsubscribe(id));
    let channel = this.#channels.get(taskId);
    if (!channel) {
      const deliver = (text: string): void => this.#listeners.deliver(taskId, text);
      const ready = this.#connection.subscribe(this.#channel(taskId), deliver);
      this.#channels.set(taskId, (channel = { ready, deliver }));
    }
    try {
      await channel.ready;
    } catch (error) {
      release();
      throw new Error(`mcp-h3/redis task store: subscribe failed: ${message(error)}`, { cause: error });
    }
    return release;
  }

  /** Drops every listener here, and closes the connections when this store made them. */
  async close(): Promise<void> {
    this.#listeners.clear();
    const channels = [...this.#channels.entries()];
    this.#channels.clear();
    if (this.#ownsConnection) return this.#connection.close();
    for (const [taskId, channel] of channels) await this.#unsubscribeChannel(taskId, channel.deliver);
  }

  /** The last listener of a task here went: its SUBSCRIBE goes too. */
  #unsubscribe(taskId: string): void {
    const channel = this.#channels.get(taskId);
    if (!channel) return;
    this.#channels.delete(taskId);
    void this.#unsubscribeChannel(taskId, channel.deliver);
  }

  async #unsubscribeChannel(taskId: string, deliver: (text: string) => void): Promise<void> {
    try {
      await this.#connection.unsubscribe(this.#channel(taskId), deliver);
    } catch {
      // Redis away: the connection's subscriptions go with it (a reconnect restores only those still held).
    }
  }

  get #allByExpiry(): string {
    return `${this.#connection.prefix}{tasks}:by-expiry`;
  }

  #taskKey(taskId: string): string {
    return this.#connection.prefix + slotTag("task", taskId);
  }

  #ownerKey(owner: string): string {
    return `${this.#connection.prefix}${slotTag("owner", owner)}:tasks`;
  }

  #ownerExpiryKey(owner: string): string {
    return `${this.#connection.prefix}${slotTag("owner", owner)}:tasks-by-expiry`;
  }

  #channel(taskId: string): string {
    return `${this.#connection.prefix}task:${taskId}`;
  }
}

/** Runs a store call; a failure rejects saying which call failed and why (TypeErrors of bad records pass as they are). */
async function failing<T>(call: string, run: () => Promise<T>): Promise<T> {
  try {
    return await run();
  } catch (error) {
    if (error instanceof TypeError) throw error;
    throw new Error(`mcp-h3/redis task store: ${call} failed: ${message(error)}`, { cause: error });
  }
}

function message(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
