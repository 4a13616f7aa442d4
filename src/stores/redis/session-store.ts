/**
 * A {@link SessionStore} on Redis: a legacy session opened on one instance is known to every
 * instance that shares the Redis, so a client behind a balancer without sticky sessions keeps it.
 */
import type { SessionData, SessionStore, SubscribeOutcome } from "../../types/stores.ts";
import { RedisConnection, type RedisClient } from "./connection.ts";
import { IndexTouches } from "./index-touches.ts";
import { LiveRefresh } from "./live-refresh.ts";
import { MOVE_IN_INDEX, READ_AND_KEEP, READ_OWNED, REPLACE } from "./session-scripts.ts";
import { SessionKeys } from "./session-keys.ts";
import { SessionRevisions } from "./session-revisions.ts";
import { sessionBounds } from "../session-bounds.ts";
import type { RedisSessionStoreOptions } from "./session-options.ts";
import { createMakingRoom } from "./session-room.ts";
import { SubscriptionSets } from "./subscriptions.ts";
import { PrincipalSessionSets } from "./principal-sessions.ts";

/**
 * Keeps legacy sessions in Redis: one key per session (its revision and JSON, session-revisions.ts)
 * with the idle TTL as its expiry, refreshed on every read, and sorted sets by last use and for the
 * pending sessions (session-keys.ts, index-touches.ts) that pick whom to end at a cap. On a Redis
 * Cluster a session's keys share its slot and the sorted sets another; every script touches one
 * slot (session-scripts.ts says how the two are kept in step). The caps hold
 * across all instances; a session live in this process or within its handshake grace is never ended
 * to make room, one live only on another instance is known there alone (session-room.ts), so keep
 * `maxSessions` above what all instances hold open at once. Sessions live in this process have
 * their TTL refreshed every third of it (live-refresh.ts; stopped by {@link RedisSessionStore.close}).
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
  readonly maxPendingSessions: number;
  readonly handshakeGraceMs: number;
  readonly #connection: RedisConnection;
  readonly #keys: SessionKeys;
  readonly #indexTouches = new IndexTouches();
  /** Each session's `resources/subscribe` URIs, in a set of their own (see subscriptions.ts). */
  readonly #subscriptions: SubscriptionSets;
  /** Each principal's sessions, counted across instances (see principal-sessions.ts). */
  readonly #principals: PrincipalSessionSets;
  /** The revision of each copy this store handed out or stored (see {@link RedisSessionStore.set}). */
  readonly #revisions = new SessionRevisions();
  #evictListeners: ((id: string) => void)[] = [];
  #liveChecks: ((id: string) => boolean)[] = [];
  readonly #refresh: LiveRefresh;
  /** Sessions the creates in flight here picked to end (see session-room.ts). */
  readonly #picking = new Set<string>();

  constructor(options: RedisSessionStoreOptions = {}) {
    // Checked before a connection is opened: a bound that is not one is refused with nothing to close.
    ({
      ttlMs: this.ttlMs,
      maxSessions: this.maxSessions,
      maxPendingSessions: this.maxPendingSessions,
      handshakeGraceMs: this.handshakeGraceMs,
    } = sessionBounds("mcp-h3: RedisSessionStore ", options));
    this.#connection = options.connection ?? new RedisConnection(options);
    this.#keys = new SessionKeys(this.#connection.prefix);
    this.#subscriptions = new SubscriptionSets(this.#connection, this.#keys, this.ttlMs);
    this.#principals = new PrincipalSessionSets(this.#connection, this.ttlMs, (id) => this.#keys.session(id));
    this.#refresh = new LiveRefresh({
      connection: this.#connection,
      ttlMs: this.ttlMs,
      key: (id) => this.#keys.session(id),
      index: this.#keys.index,
      subsets: [this.#keys.pending],
      companion: { key: (id) => this.#keys.subscriptions(id), ttlMs: this.#subscriptions.ttlMs },
      owners: { keys: (ids) => this.#principals.keysOf(ids), ttlMs: this.#principals.ttlMs },
      ended: (id) => {
        for (const listener of this.#evictListeners) listener(id);
      },
    });
  }

  async get(id: string): Promise<SessionData | undefined> {
    this.#refresh.start();
    const client = await this.#connection.client();
    const now = Date.now();
    // One round trip, and a second to the index only when a move is due (every legacy request in a
    // session waits on this read): GETEX alone costs Redis a tenth of the script (index-touches.ts).
    const moved = this.#indexTouches.due(id, now);
    const text = moved
      ? await READ_AND_KEEP.run(
          client,
          [this.#keys.session(id), this.#keys.subscriptions(id)],
          [String(this.ttlMs), String(this.#subscriptions.ttlMs)],
        )
      : await client.getEx(this.#keys.session(id), { type: "PX", value: this.ttlMs });
    // nil when the session is gone; a string, or a Buffer from a client of yours that maps strings so.
    if (text === null || text === undefined) {
      this.#indexTouches.forget(id);
      return undefined;
    }
    const session = this.#revisions.decode(text);
    if (moved) await this.#moveInIndex(client, session, now);
    return session;
  }

  /**
   * {@link RedisSessionStore.get} for `principal` only: a session of another principal is returned
   * as it is stored, its TTL and place in the index untouched. One round trip, and a second to the
   * index and the principal's set when a move is due.
   */
  async getOwned(id: string, principal: string): Promise<SessionData | undefined> {
    this.#refresh.start();
    const client = await this.#connection.client();
    const now = Date.now();
    const moved = this.#indexTouches.due(id, now);
    const text = await READ_OWNED.run(
      client,
      [this.#keys.session(id), this.#keys.subscriptions(id)],
      [String(this.ttlMs), principal, moved ? "1" : "", String(this.#subscriptions.ttlMs)],
    );
    if (text === null || text === undefined) {
      this.#indexTouches.forget(id);
      return undefined;
    }
    const session = this.#revisions.decode(text);
    if (moved && session.principal === principal) {
      this.#principals.seen(id, principal);
      await Promise.all([
        this.#moveInIndex(client, session, now),
        client.pExpire(this.#principals.key(principal), this.#principals.ttlMs).catch(() => {}),
      ]);
    }
    return session;
  }

  async peek(id: string): Promise<SessionData | undefined> {
    const client = await this.#connection.client();
    const text = await client.get(this.#keys.session(id));
    return text === null || text === undefined ? undefined : this.#revisions.decode(text);
  }

  /** Stores a new session, making room by the policy of `SessionStore` (see session-room.ts). */
  async create(session: SessionData): Promise<"created" | "full"> {
    this.#refresh.start();
    const client = await this.#connection.client();
    const created = { id: session.id, value: this.#revisions.created(session), pending: !session.initialized };
    const stored = await createMakingRoom(client, this.#keys, created, {
      maxSessions: this.maxSessions,
      maxPendingSessions: this.maxPendingSessions,
      ttlMs: this.ttlMs,
      handshakeGraceMs: this.handshakeGraceMs,
      isLive: (id) => this.#liveChecks.some((isLive) => isLive(id)),
      picking: this.#picking,
      evicted: (id) => {
        this.#indexTouches.forget(id);
        for (const listener of this.#evictListeners) listener(id);
      },
    });
    if (!stored) return "full";
    this.#indexTouches.written(session.id, Date.now());
    if (session.principal !== undefined) this.#principals.seen(session.id, session.principal);
    return "created";
  }

  /**
   * Saves a copy this store handed out only when no other request saved the session since it was
   * read (else `"conflict"`, and the engine makes its change to a fresh copy); a copy of yours that
   * this store never handed out is written whatever is there.
   */
  async set(session: SessionData): Promise<void | "conflict"> {
    const client = await this.#connection.client();
    const read = this.#revisions.of(session);
    // A session that ended meanwhile stays ended; the index follows a write that was stored.
    const revision = Number(
      await REPLACE.run(
        client,
        [this.#keys.session(session.id), this.#keys.subscriptions(session.id)],
        [
          JSON.stringify(session),
          String(this.ttlMs),
          read === undefined ? "" : String(read),
          String(this.#subscriptions.ttlMs),
        ],
      ),
    );
    if (revision === -1) return "conflict";
    if (revision <= 0) return;
    this.#revisions.saved(session, revision);
    await this.#moveInIndex(client, session, Date.now());
  }

  async delete(id: string): Promise<boolean> {
    const client = await this.#connection.client();
    this.#indexTouches.forget(id);
    this.#principals.forget(id);
    // The session's slot and the indexes' slot, both at once.
    const [removed] = await Promise.all([
      client.del([this.#keys.session(id), this.#keys.subscriptions(id)]),
      client.multi().zRem(this.#keys.index, id).zRem(this.#keys.pending, id).zRem(this.#keys.pendingSince, id).exec(),
    ]);
    return Number(removed) > 0;
  }

  /** Counts a session for its principal across instances (see principal-sessions.ts); one round trip. */
  reservePrincipal(principal: string, id: string, max: number): Promise<boolean> {
    return this.#principals.reserve(principal, id, max);
  }

  releasePrincipal(principal: string, id: string): Promise<void> {
    return this.#principals.release(principal, id);
  }

  subscribe(id: string, uri: string, max: number): Promise<SubscribeOutcome> {
    return this.#subscriptions.subscribe(id, uri, max);
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
    if (liveIds) this.#refresh.add(liveIds);
  }

  /**
   * Moves a session whose key was just read or written to the newest end of the indexes, and out
   * of the pending ones once it is initialized (see session-scripts.ts). The request does not fail
   * with it: while the indexes' node is away (a cluster failing over) the session is served, and
   * its next read moves it, as it does one whose move was lost in a failover.
   */
  async #moveInIndex(client: RedisClient, session: SessionData, now: number): Promise<void> {
    try {
      await MOVE_IN_INDEX.run(
        client,
        [this.#keys.index, this.#keys.pending, this.#keys.pendingSince],
        [String(now), session.id, session.initialized ? "1" : ""],
      );
      this.#indexTouches.written(session.id, now);
    } catch {
      this.#indexTouches.forget(session.id);
    }
  }

  /** Stops refreshing live sessions and closes the connections (when this store made them). */
  close(): Promise<void> {
    this.#refresh.stop();
    return this.#connection.close();
  }
}
