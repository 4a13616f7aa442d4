/**
 * The Durable Object that serves MCP for a Worker: one handler per object, on stores in the
 * object's SQLite storage. Every request that needs state reaches the object that owns it, so a
 * session's GET stream, its calls and its notifications meet in one place and one thread (what
 * the memory stores assume), and nothing of it depends on an isolate staying up: the object may be
 * evicted or restarted between two requests and finds everything in its storage.
 *
 * Work that outlives its response (a task's handler) runs here too, handed to the object's
 * `ctx.waitUntil`: on a compatibility date of 2026-10-01 or later (or with the
 * `durable_object_io_tasks_prevent_eviction` flag) the platform keeps an object in memory while such
 * work, its timers or its fetches are pending, with no client connected. The object's alarm ends
 * sessions and tasks at their TTL when no request comes, and fails a task whose work died with a
 * previous life of the object at the end of its lease, as a reader would, telling its listeners
 * (orphans.ts says which tasks those are).
 */
import { defineMcpFetchHandler } from "../fetch.ts";
import type { McpFetchHandler } from "../handler-types.ts";
import { handlerNumbers } from "../request/numeric-options.ts";
import { sessionBounds } from "../stores/session-bounds.ts";
import { DurableEventStore } from "../stores/durable/event-store.ts";
import { DurableSessionStore } from "../stores/durable/session-store.ts";
import type { SqlStorage } from "../stores/durable/sql.ts";
import { DurableTaskStore } from "../stores/durable/task-store.ts";
import type { McpHandlerOptions } from "../types/options.ts";
import { MemoryBus } from "../stores/memory/bus.ts";
import { ObjectAlarm } from "./alarm.ts";
import { INTERNAL_HEADER, type InternalMessage } from "./internal.ts";
import { answerInternal } from "./object-internal.ts";
import { OrphanedTasks } from "./orphans.ts";
import type { DurableObjectState } from "./platform.ts";

/**
 * What the options builder gets of the object: its task store, for `tasks({ store: stores.tasks })`
 * (the object's alarm keeps its TTLs and leases), and its SQL storage, for a task store with other
 * bounds or the application's own tables. The session store and the event log are the object's
 * own: the handler gets them whatever the options say (with the bounds `sessions` names).
 */
export interface McpObjectStores {
  readonly tasks: DurableTaskStore;
  readonly sql: SqlStorage;
}

/** Builds the handler's options in the object, from the Worker's `env` and the object's stores. */
export type McpObjectOptions<Env> = (env: Env, stores: McpObjectStores) => McpHandlerOptions;

/** How a Worker's option is named in an error: `mcp-h3: defineMcpWorker: sessions.ttlMs`. */
const WORKER = "mcp-h3: defineMcpWorker: ";

/** Whether the warning of {@link warnReplaced} was written (once per isolate, not per object's life). */
let warned = false;

/**
 * The object's session store, event log and bus are its own (nothing else reaches every request of a
 * session); one given in the options is not used, which the developer is told once.
 */
function warnReplaced(options: McpHandlerOptions): void {
  const replaced = [
    options.sessions && options.sessions.store ? "sessions.store" : undefined,
    options.events ? "events" : undefined,
    options.bus ? "bus" : undefined,
  ].filter((name) => name !== undefined);
  if (replaced.length === 0 || warned) return;
  warned = true;
  console.warn(
    `mcp-h3: defineMcpWorker: the handler's ${replaced.join(", ")} ${replaced.length > 1 ? "are" : "is"} not used: ` +
      "the Durable Object keeps sessions and event logs in its SQLite storage and serves the bus itself; remove " +
      `${replaced.length > 1 ? "them" : "it"} from the options (reach the bus from the Worker with \`bus(env)\`)`,
  );
}

/** The Durable Object class for {@link McpObjectOptions}; export it from the Worker's module. */
export function mcpObjectClass<Env>(build: McpObjectOptions<Env>) {
  return class McpObject {
    readonly #env: Env;
    readonly #ctx: DurableObjectState;
    readonly #sql: SqlStorage;
    readonly #alarm: ObjectAlarm;
    readonly #events: DurableEventStore;
    /** The handler's bus: every stream is in this object; `DurableBus` reaches it from elsewhere. */
    readonly #bus = new MemoryBus();
    #tasks: DurableTaskStore | undefined;
    /** The tasks of the object's task store whose work died with its previous life. */
    #orphans: OrphanedTasks | undefined;
    /** Made with the handler, from the bounds its options name. */
    #sessions: DurableSessionStore | undefined;
    #handler: McpFetchHandler | undefined;

    constructor(ctx: DurableObjectState, env: Env) {
      this.#env = env;
      this.#ctx = ctx;
      this.#alarm = new ObjectAlarm(ctx.storage);
      this.#sql = ctx.storage.sql;
      this.#events = new DurableEventStore(this.#sql);
    }

    async fetch(request: Request): Promise<Response> {
      const handler = this.#handlerFor();
      const response = request.headers.has(INTERNAL_HEADER)
        ? await answerInternal(handler, this.#bus, (await request.json()) as InternalMessage)
        : await handler.fetch(request, this.#env, { waitUntil: (work) => this.#keep(work) });
      await this.#schedule();
      return response;
    }

    async alarm(): Promise<void> {
      this.#alarm.fired();
      this.#handlerFor();
      const now = Date.now();
      this.#sessions?.sweep(now);
      this.#tasks?.sweep(now);
      await this.#orphans?.failLapsed(now);
      await this.#schedule();
    }

    /** The handler, built on the object's first request or alarm; the session store takes the bounds its options name. */
    #handlerFor(): McpFetchHandler {
      if (this.#handler) return this.#handler;
      const sql = this.#sql;
      let tasks: DurableTaskStore | undefined;
      const options = build(this.#env, {
        sql,
        get tasks() {
          return (tasks ??= new DurableTaskStore(sql));
        },
      });
      const sessions = options.sessions;
      warnReplaced(options);
      // The bounds are checked here, before any request is served, and named as the Worker's options: a
      // `NaN` TTL (`Number(env.X)` of an unset variable) made every request fail on `setAlarm(NaN)`
      // after its work was done.
      if (sessions !== false)
        this.#sessions = new DurableSessionStore(sql, sessionBounds(`${WORKER}sessions.`, sessions ?? {}));
      handlerNumbers(options, WORKER);
      this.#handler = defineMcpFetchHandler({
        ...options,
        sessions: sessions === false ? false : { ...sessions, store: this.#sessions },
        events: this.#events,
        bus: this.#bus,
      });
      this.#tasks = tasks;
      // Read before the first request of this life is served: no task of this life is among them.
      if (tasks) this.#orphans = new OrphanedTasks(tasks);
      return this.#handler;
    }

    /** Work that outlives its response: the platform keeps the object while it is pending. */
    #keep(work: Promise<unknown>): void {
      // Owned here: what the work does on failure is its own (a task records it), never an unhandled rejection.
      work.catch(() => undefined);
      this.#ctx.waitUntil?.(work);
    }

    /**
     * Sets the alarm for the first thing due: a session's or a task's TTL, or an orphan's lease. The
     * leases of work running here are not among them: that work renews them.
     */
    async #schedule(): Promise<void> {
      const due = [this.#sessions?.nextExpiry(), this.#tasks?.nextExpiry(), this.#orphans?.nextDue()].filter(
        (time): time is number => time !== undefined,
      );
      if (due.length > 0) await this.#alarm.atMost(Math.min(...due));
    }
  };
}
