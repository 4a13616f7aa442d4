/**
 * The three small interfaces behind sessions, resumability and cross-instance delivery.
 * In-memory implementations are the default; `mcp-h3/redis` implements all three on one Redis.
 */
import type { JsonRpcMessage } from "../protocol/jsonrpc.ts";
import type { ClientCapabilities, Implementation, LogLevel } from "../protocol/types.ts";

/** What a legacy session remembers between requests. Plain data, so any store can keep it. */
export interface SessionData {
  id: string;
  protocolVersion: string;
  clientInfo?: Implementation;
  clientCapabilities: ClientCapabilities;
  logLevel?: LogLevel;
  /** The principal the session was opened by (auth on). */
  principal?: string;
  /** Whether `notifications/initialized` arrived. */
  initialized: boolean;
  /** The instance holding the session's GET stream, for notifications sent from other instances. */
  streamInstance?: string;
  createdAt: number;
}

/** What {@link SessionStore.subscribe} did. */
export type SubscribeOutcome =
  /** The session holds the URI now (it may have held it already). */
  | "subscribed"
  /** The session already holds `max` other URIs: nothing was stored. */
  | "full"
  /** The session is unknown, expired or deleted: nothing was stored. */
  | "ended";

/**
 * Where legacy sessions live. Implementations expire sessions idle longer than their TTL and keep
 * at most a number of sessions, by this policy (the engine's liveness check is given through
 * {@link SessionStore.addLiveCheck}):
 * - a live session (an open stream or a call in flight) is never ended to make room, and is not
 *   expired by the TTL while it is live: the store treats it as just used;
 * - a session within its handshake grace (`sessions.handshakeGraceMs`, default 2 s) is not ended to
 *   make room either: a pending one until that long after its `initialize` (however it is used
 *   meanwhile), an initialized one until that long after its last use. Concurrent clients at the
 *   cap thus never end each other's handshakes, and a client is not cut off before its first call;
 * - sessions that never sent `notifications/initialized` ("pending") have their own, smaller cap
 *   and are ended first, least recently used first, once past their grace;
 * - then an idle initialized session past its grace may be ended, least recently used first;
 * - when nothing may be ended, {@link SessionStore.create} answers `"full"` and stores nothing (at
 *   either cap: a pending cap full of fresh handshakes refuses the next pending session).
 *
 * Every method may reject (a networked store that fails): the engine answers 503 with
 * `Retry-After`, or `-32603` inside a call.
 */
export interface SessionStore {
  /** The session, refreshing its idle timer; undefined when unknown, expired or deleted. */
  get(id: string): Promise<SessionData | undefined>;
  /**
   * The session as {@link SessionStore.get} finds it, but without refreshing its idle timer. With
   * auth on the engine looks first and refreshes (`get`) only when the caller's principal owns the
   * session, so a request from someone else carrying its id changes nothing, not even when it
   * expires. Optional: a store without it is read with `get`, which refreshes the session for
   * whoever sends its id (it still answers them 404), and sessions counted per principal are then
   * not checked against the store when a principal reaches its cap.
   */
  peek?(id: string): Promise<SessionData | undefined>;
  /**
   * The session read for `principal` in one step: refreshed as by {@link SessionStore.get} when its
   * `principal` is `principal`, else returned untouched, as {@link SessionStore.peek} would (the
   * engine then answers 404, as for an unknown id). Optional: with auth on the engine uses it when
   * present, so a request reads its session once (one round trip to a networked store); without it
   * the engine calls `peek`, then `get` when the principal matches. The engine compares the
   * principal itself too, so a store that refreshes too much costs only the idle timer.
   *
   * @example
   * async getOwned(id, principal) {
   *   const session = await this.peek(id);
   *   return session?.principal === principal ? this.get(id) : session;
   * }
   */
  getOwned?(id: string, principal: string): Promise<SessionData | undefined>;
  /**
   * Stores a new session, first making room by the policy above when the store is at a cap.
   * `"full"` when no session may be ended for room (then nothing is stored).
   */
  create(session: SessionData): Promise<"created" | "full">;
  /**
   * Replaces the data of an existing session (and refreshes its idle timer). A session that ended
   * meanwhile stays ended: its data is not stored again. A store shared by several instances
   * answers `"conflict"` (storing nothing) when the session was written since this copy of it was
   * read: the engine then reads it again, makes its change to the fresh copy, and saves that, so
   * two requests changing one session at once (a GET stream opening while `logging/setLevel` is
   * served on another instance) both keep their change.
   */
  set(session: SessionData): Promise<void | "conflict">;
  /** Ends a session; returns whether it existed. */
  delete(id: string): Promise<boolean>;
  /**
   * Counts a session about to be created for `principal`, so that `sessions.maxSessionsPerPrincipal`
   * holds across every instance sharing the store: false (nothing counted) when the principal
   * already holds `max` sessions, counting both created ones and reservations in flight; else `id`
   * is counted and the answer is true. The check and the count are one atomic step across all
   * instances, so concurrent `initialize`s of one principal never pass `max`, and the work per call
   * is bounded (a principal never has more than `max` counted).
   *
   * A store has both this and {@link SessionStore.releasePrincipal} or neither (`defineMcpHandler`
   * throws otherwise). With auth on the engine calls it before {@link SessionStore.create}, and
   * releases the place when the create answers `"full"` or rejects, and after it deletes the
   * session (DELETE). A session that ends any other way (its TTL, eviction, a process that died
   * between counting and creating) the store must stop counting on its own, e.g. when the count is
   * checked and its key is gone. The handler's `close()` releases nothing: the sessions stay in the
   * shared store for the other instances. Optional: without it each process counts the sessions
   * opened through it (exact for a store used by one process, as the memory store is; a shared
   * store without it lets a principal hold the cap on each instance).
   *
   * @example
   * // Alice holds 9 sessions: the 10th is counted, the 11th is refused.
   * await store.reservePrincipal("alice", crypto.randomUUID(), 10); // true
   * await store.reservePrincipal("alice", crypto.randomUUID(), 10); // false
   */
  reservePrincipal?(principal: string, id: string, max: number): Promise<boolean>;
  /**
   * Stops counting `id` for `principal` (see {@link SessionStore.reservePrincipal}); nothing
   * happens when it is not counted.
   */
  releasePrincipal?(principal: string, id: string): Promise<void>;
  /** Called with the id of every session the store ends on its own (TTL, count limit). */
  onEvict?(listener: (id: string) => void): void;
  /**
   * Gives the store the engine's liveness check, when the engine starts using the store (each
   * handler sharing one store adds its own; a session is live when any check says so): `isLive(id)`
   * is true while the session has an open stream or a call in flight in this process. It is cheap
   * (a map lookup) and synchronous. In a store shared by several processes (`mcp-h3/redis`) each
   * process's check knows only its own sessions: such a store asks it for the sessions it would
   * end from this process, and refreshes the live ones so their TTL does not run out. The engine
   * also refreshes a session (`get`) when its GET stream closes, so its idle time counts from then.
   * `liveIds()` lists the sessions live in this process (bounded by what it holds open), for a
   * store whose entries expire on their own (a Redis key's TTL) to refresh them periodically.
   */
  addLiveCheck?(isLive: (id: string) => boolean, liveIds?: () => Iterable<string>): void;

  // A session's `resources/subscribe` URIs are kept apart from its data: no request but
  // (un)subscribe writes them, and nothing reads them but a look-up of one URI when an update is
  // delivered, so no request's cost grows with a session's subscriptions. A handler that serves
  // resources needs all three methods (`defineMcpHandler` throws otherwise); one without resources
  // never calls them.

  /**
   * Adds `uri` to the session's subscriptions, unless it holds `max` others already (`"full"`,
   * nothing stored) or has ended (`"ended"`, nothing stored: a subscribe racing a DELETE leaves
   * nothing behind). The count check and the add are one atomic step, across every instance
   * sharing the store, so a session never holds more than `max`. A URI it holds already answers
   * `"subscribed"` at any count. The engine checks `uri` against `maxUriLength` first, so a session
   * holds at most `max × maxUriLength` characters of URIs. The subscriptions end with the session
   * (DELETE, TTL, eviction): nothing of them outlives it.
   *
   * @example
   * await store.subscribe(session.id, "docs://readme", 1000); // "subscribed"
   */
  subscribe?(id: string, uri: string, max: number): Promise<SubscribeOutcome>;
  /** Removes `uri` from the session's subscriptions (nothing happens when it does not hold it). */
  unsubscribe?(id: string, uri: string): Promise<void>;
  /**
   * Whether the session holds `uri`, in time independent of how many it holds (asked for each
   * GET stream when `notifications/resources/updated` is delivered); false once it ended. It does
   * not refresh the session's idle timer: an update the server sends is not a use by the client.
   */
  isSubscribed?(id: string, uri: string): Promise<boolean>;
}

/** One stored SSE event. */
export interface StoredEvent {
  id: string;
  message: JsonRpcMessage | null;
}

/** What {@link EventStore.replayAfter} found. */
export interface EventReplay {
  streamId: string;
  /** The events after the given one that are still kept, oldest first. */
  events: StoredEvent[];
  /**
   * True when some events after the given one are no longer kept (the log was trimmed to its
   * cap): `events` then has a hole at its start, and the engine replays nothing (400 "no longer
   * available") rather than skip events silently. Absent or false: `events` is everything after.
   */
  gap?: boolean;
}

/** The log behind `Last-Event-ID`: events per session and stream. */
export interface EventStore {
  /** Appends a message to one stream of one session and returns its event id, unique within the session. */
  append(sessionId: string, streamId: string, message: JsonRpcMessage | null): Promise<string>;
  /**
   * Events of the stream named by `lastEventId` that come after it, only when that stream belongs
   * to `sessionId`; undefined when the id is unknown, belongs to another session, or its stream
   * was dropped. See {@link EventReplay.gap} for a log trimmed past the id.
   */
  replayAfter(sessionId: string, lastEventId: string): Promise<EventReplay | undefined>;
  /** Forgets one finished stream (the engine calls it once the replay window has passed). */
  dropStream(sessionId: string, streamId: string): Promise<void>;
  /** Forgets everything of a session. */
  dropSession(sessionId: string): Promise<void>;
}

/** Publish/subscribe for messages that must reach streams on any instance. */
export interface Bus {
  publish(channel: string, message: unknown): Promise<void>;
  /** Subscribes and returns the function that unsubscribes. */
  subscribe(channel: string, listener: (message: unknown) => void): Promise<() => void>;
}
