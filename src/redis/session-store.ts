/**
 * A {@link SessionStore} on Redis: a legacy session opened on one instance is known to every
 * instance that shares the Redis, so a client behind a balancer without sticky sessions keeps it.
 */
import type { SessionData, SessionStore, SubscribeOutcome } from "../types/stores.ts";
import { RedisConnection, type RedisConnectionOptions } from "./connection.ts";
import { INDEX_TOUCH_MS, IndexTouches } from "./index-touches.ts";
import { CREATE_IF_ROOM, READ_AND_TOUCH, REPLACE } from "./session-scripts.ts";
import { SubscriptionSets } from "./subscriptions.ts";

/** Options of {@link RedisSessionStore}. */
export interface RedisSessionStoreOptions extends RedisConnectionOptions {
  /** Idle time after which a session ends (default 30 minutes, as in memory). */
  ttlMs?: number;
  /** Most sessions kept across all instances (default 10,000). */
  maxSessions?: number;
}

/** The revision a session is stored with (see `REPLACE` in session-scripts.ts). */
const FIRST_REVISION = 1;

/** Most sessions looked at to make room for a new one, as in {@link MemorySessionStore}. */
const EVICTION_SCAN = 32;

/** Most live sessions one refresh touches, and how many go in one round trip. */
const MAX_REFRESH = 10_000;
const REFRESH_BATCH = 500;

/**
 * Keeps legacy sessions in Redis. Each session is one key holding its revision and its data as
 * JSON (see {@link RedisSessionStore.set}), with the idle TTL as its expiry, refreshed on every
 * read; a sorted set by last use finds the least recently used when the store is full (its order
 * is exact to {@link INDEX_TOUCH_MS}: a session read again within that time of its last move in
 * the set is not moved again). A session live in this process (an open stream or a call in
 * flight) is never ended to make room; one live only on another instance is known there alone, so
 * keep `maxSessions` above what all instances hold open at once. A session live in this process (a
 * GET stream open for hours with no request) has its key's TTL refreshed every third of the TTL,
 * by a timer started with the first use (unref'd, so it keeps no process alive, and stopped by
 * {@link RedisSessionStore.close}).
 *
 * @example
 * defineMcpHandler({
 *   name: "app",
 *   version: "1.0.0",
 *   sessions: { store: new RedisSessionStore({ url: process.env.REDIS_URL }) },
 *   events: new RedisEventStore({ url: process.env.REDIS_URL }),
 *   bus: new RedisBus({ url: process.env.REDIS_URL }),
 * });
 */
export class RedisSessionStore implements SessionStore {
  readonly ttlMs: number;
  readonly maxSessions: number;
  readonly #connection: RedisConnection;
  readonly #indexTouches = new IndexTouches();
  /** Each session's `resources/subscribe` URIs, in a set of their own (see subscriptions.ts). */
  readonly #subscriptions: SubscriptionSets;
  /** The revision of each copy this store handed out or stored (see {@link RedisSessionStore.set}). */
  readonly #revisions = new WeakMap<SessionData, number>();
  #evictListeners: ((id: string) => void)[] = [];
  #liveChecks: ((id: string) => boolean)[] = [];
  #liveLists: (() => Iterable<string>)[] = [];
  #refreshTimer: ReturnType<typeof setInterval> | undefined;
  #refreshing = false;
  #closed = false;

  constructor(options: RedisSessionStoreOptions = {}) {
    this.#connection = options.connection ?? new RedisConnection(options);
    this.ttlMs = options.ttlMs ?? 30 * 60_000;
    this.maxSessions = options.maxSessions ?? 10_000;
    this.#subscriptions = new SubscriptionSets(this.#connection, this.ttlMs);
  }

  #key(id: string): string {
    return `${this.#connection.prefix}session:${id}`;
  }

  get #index(): string {
    return `${this.#connection.prefix}sessions`;
  }

  async get(id: string): Promise<SessionData | undefined> {
    this.#startRefresh();
    const client = await this.#connection.client();
    const now = Date.now();
    // One round trip either way: every legacy request in a session waits on this read. The index
    // write is left out while a recent one stands: GETEX alone costs Redis a tenth of the script
    // (see index-touches.ts for what the bench showed).
    const moved = this.#indexTouches.due(id, now);
    const text = moved
      ? (
          await Promise.all([
            READ_AND_TOUCH.run(client, [this.#key(id), this.#index], [String(this.ttlMs), String(now), id]),
            this.#subscriptions.keep(client, this.#key(id), id),
          ])
        )[0]
      : await client.getEx(this.#key(id), { type: "PX", value: this.ttlMs });
    // nil when the session is gone; a string, or a Buffer from a client of yours that maps strings so.
    if (text === null || text === undefined) {
      this.#indexTouches.forget(id);
      return undefined;
    }
    if (moved) this.#indexTouches.written(id, now);
    return this.#decode(text);
  }

  async peek(id: string): Promise<SessionData | undefined> {
    const client = await this.#connection.client();
    const text = await client.get(this.#key(id));
    return text === null || text === undefined ? undefined : this.#decode(text);
  }

  async create(session: SessionData): Promise<"created" | "full"> {
    this.#startRefresh();
    const client = await this.#connection.client();
    const now = Date.now();
    const data = `${FIRST_REVISION}\n${JSON.stringify(session)}`;
    // One round trip while there is room: the sweep of stale index entries (sessions whose key
    // expired), the count and the write, atomically (two instances cannot both take the last place).
    // An entry is stale only past the TTL and the time its last move may lag its last read.
    const stored = await CREATE_IF_ROOM.run(
      client,
      [this.#key(session.id), this.#index],
      [
        data,
        String(this.ttlMs),
        String(now),
        session.id,
        String(this.maxSessions),
        String(this.ttlMs + INDEX_TOUCH_MS),
      ],
    );
    if (Number(stored) !== 1) {
      if (!(await this.#makeRoom())) return "full";
      await client
        .multi()
        .set(this.#key(session.id), data, { expiration: { type: "PX", value: this.ttlMs } })
        .zAdd(this.#index, { score: now, value: session.id })
        .exec();
    }
    this.#indexTouches.written(session.id, now);
    this.#revisions.set(session, FIRST_REVISION);
    return "created";
  }

  /** Ends the least recently used session that is not live here; false when none may end. */
  async #makeRoom(): Promise<boolean> {
    const client = await this.#connection.client();
    const oldest = await client.zRange(this.#index, 0, EVICTION_SCAN - 1);
    for (const id of oldest) {
      if (this.#liveChecks.some((isLive) => isLive(id))) continue;
      await this.delete(id);
      for (const listener of this.#evictListeners) listener(id);
      return true;
    }
    return false;
  }

  /**
   * Saves a copy this store handed out only when no other request saved the session since it was
   * read (else `"conflict"`, and the engine makes its change to a fresh copy); a copy of yours that
   * this store never handed out is written whatever is there.
   */
  async set(session: SessionData): Promise<void | "conflict"> {
    const client = await this.#connection.client();
    const read = this.#revisions.get(session);
    // One round trip; a session that ended meanwhile stays ended.
    const [replaced] = await Promise.all([
      REPLACE.run(
        client,
        [this.#key(session.id), this.#index],
        [
          JSON.stringify(session),
          String(this.ttlMs),
          String(Date.now()),
          session.id,
          read === undefined ? "" : String(read),
        ],
      ),
      this.#subscriptions.keep(client, this.#key(session.id), session.id),
    ]);
    const revision = Number(replaced);
    if (revision === -1) return "conflict";
    if (revision > 0) this.#revisions.set(session, revision);
  }

  /** A session from its stored value: its revision, a line break, its JSON (a string, or a Buffer from a client of yours). */
  #decode(value: unknown): SessionData {
    const text = String(value);
    const newline = text.indexOf("\n");
    const session = JSON.parse(text.slice(newline + 1)) as SessionData;
    if (newline > 0) this.#revisions.set(session, Number(text.slice(0, newline)));
    return session;
  }

  async delete(id: string): Promise<boolean> {
    const client = await this.#connection.client();
    this.#indexTouches.forget(id);
    const [removed] = await client
      .multi()
      .del(this.#key(id))
      .zRem(this.#index, id)
      .del(this.#subscriptions.key(id))
      .exec();
    return Number(removed) > 0;
  }

  subscribe(id: string, uri: string, max: number): Promise<SubscribeOutcome> {
    return this.#subscriptions.subscribe(this.#key(id), id, uri, max);
  }

  unsubscribe(id: string, uri: string): Promise<void> {
    return this.#subscriptions.unsubscribe(id, uri);
  }

  isSubscribed(id: string, uri: string): Promise<boolean> {
    return this.#subscriptions.isSubscribed(id, uri);
  }

  onEvict(listener: (id: string) => void): void {
    this.#evictListeners.push(listener);
  }

  addLiveCheck(isLive: (id: string) => boolean, liveIds?: () => Iterable<string>): void {
    this.#liveChecks.push(isLive);
    if (liveIds) this.#liveLists.push(liveIds);
  }

  /** Stops refreshing live sessions and closes the connections (when this store made them). */
  close(): Promise<void> {
    this.#closed = true;
    if (this.#refreshTimer !== undefined) clearInterval(this.#refreshTimer);
    this.#refreshTimer = undefined;
    return this.#connection.close();
  }

  /** The refresh timer, made on first use (inside a request: nothing is timed at construction). */
  #startRefresh(): void {
    if (this.#refreshTimer !== undefined || this.#closed || this.#liveLists.length === 0) return;
    this.#refreshTimer = setInterval(() => void this.#refreshLive(), Math.max(50, Math.floor(this.ttlMs / 3)));
    (this.#refreshTimer as { unref?: () => void }).unref?.();
  }

  /**
   * Gives the sessions live in this process a new idle TTL (an ended one stays ended: only existing
   * keys and index entries are touched). One refresh at a time; a failure waits for the next tick.
   */
  async #refreshLive(): Promise<void> {
    if (this.#refreshing) return;
    this.#refreshing = true;
    try {
      const ids = new Set<string>();
      for (const list of this.#liveLists) {
        for (const id of list()) {
          if (ids.size >= MAX_REFRESH) break;
          ids.add(id);
        }
      }
      if (ids.size === 0) return;
      const client = await this.#connection.client();
      const all = [...ids];
      for (let start = 0; start < all.length; start += REFRESH_BATCH) {
        const batch = client.multi();
        const now = Date.now();
        const some = all.slice(start, start + REFRESH_BATCH);
        for (const id of some) {
          batch.pExpire(this.#key(id), this.ttlMs);
          batch.zAdd(this.#index, { score: now, value: id }, { condition: "XX" });
          batch.pExpire(this.#subscriptions.key(id), this.#subscriptions.ttlMs);
        }
        const replies = await batch.execAsPipeline();
        // A live session whose key is gone ended elsewhere (and its "ended" message was lost): end it here too.
        const gone = some.filter((_, index) => Number(replies[index * 3]) === 0);
        for (const id of gone) for (const listener of this.#evictListeners) listener(id);
        // Their subscription sets were kept above: they go with their sessions.
        if (gone.length > 0) await client.del(gone.map((id) => this.#subscriptions.key(id)));
      }
    } catch {
      // Redis away: the next tick tries again (well within the TTL).
    } finally {
      this.#refreshing = false;
    }
  }
}
