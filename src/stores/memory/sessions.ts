/**
 * The default session store: two lists in order of last use (pending sessions, initialized ones),
 * so that expiry and eviction both start from the front.
 */
import type { SessionData, SessionStore, SubscribeOutcome } from "../../types/stores.ts";
import { sessionBounds } from "../session-bounds.ts";
import { UseOrder } from "../use-order.ts";

interface Entry {
  data: SessionData;
  lastUsed: number;
  /** When the store took the session in (its `initialize`). */
  createdAt: number;
}

/** Options of {@link MemorySessionStore}. */
export interface MemorySessionStoreOptions {
  /** Idle time after which a session ends (default 30 minutes). */
  ttlMs?: number;
  /** Most sessions kept (default 10,000); see {@link SessionStore} for who makes room. */
  maxSessions?: number;
  /** Most sessions kept that never sent `notifications/initialized` (default 1,000). */
  maxPendingSessions?: number;
  /**
   * How long a new or just-used session is safe from being ended to make room (default 2,000 ms): a
   * pending session for this long after its `initialize`, an initialized one for this long after
   * its last request. See {@link SessionStore} for the policy.
   */
  handshakeGraceMs?: number;
}

/**
 * Most sessions of each list looked at to find one that may make room, as many as
 * `RedisSessionStore` looks at in one create. Live sessions met on the way are moved to the back
 * (they are in use), so neither this search nor the next meets them again before the others: an
 * idle session behind up to this many live ones is ended on the first try (with 32, an
 * `initialize` behind 32 GET streams got 503, and only the next one was served), and a `create`
 * still costs a bounded amount of work (a map lookup and a move per live session met).
 */
const EVICTION_SCAN = 1024;

/**
 * Keeps legacy sessions in this process, by the policy of {@link SessionStore}: pending sessions
 * past their handshake grace are ended first, live or recent ones never to make room. Expired sessions are swept on every access, so
 * nothing of an ended session stays in memory even without a timer (edge runtimes allow none at
 * startup).
 *
 * @example
 * defineMcpHandler({ name: "demo", version: "1.0.0", sessions: { store: new MemorySessionStore({ ttlMs: 60_000 }) } });
 */
export class MemorySessionStore implements SessionStore {
  readonly ttlMs: number;
  readonly maxSessions: number;
  readonly maxPendingSessions: number;
  readonly handshakeGraceMs: number;
  /** Sessions that never sent `notifications/initialized`, least recently used first. */
  #pending = new UseOrder<Entry>();
  /** Initialized sessions, least recently used first. */
  #ready = new UseOrder<Entry>();
  /** `resources/subscribe` URIs by session id; an entry goes with its session (delete, expiry, eviction). */
  #subscriptions = new Map<string, Set<string>>();
  #evictListeners: ((id: string) => void)[] = [];
  #liveChecks: ((id: string) => boolean)[] = [];
  /**
   * No session expires before this time, so a sweep before it has nothing to do: every request of a
   * session sweeps, and a sweep that finds nothing still walked both lists with an iterator (about
   * 300 B of garbage per handshake, see bench/scenarios/memory.mjs).
   */
  #nextExpiry = Number.POSITIVE_INFINITY;

  constructor(options: MemorySessionStoreOptions = {}) {
    ({
      ttlMs: this.ttlMs,
      maxSessions: this.maxSessions,
      maxPendingSessions: this.maxPendingSessions,
      handshakeGraceMs: this.handshakeGraceMs,
    } = sessionBounds("mcp-h3: MemorySessionStore ", options));
  }

  /** Number of sessions kept. */
  get size(): number {
    this.#sweep(Date.now());
    return this.#pending.size + this.#ready.size;
  }

  /** Number of sessions kept that never sent `notifications/initialized`. */
  get pendingSize(): number {
    this.#sweep(Date.now());
    return this.#pending.size;
  }

  async get(id: string): Promise<SessionData | undefined> {
    const now = Date.now();
    this.#sweep(now);
    const order = this.#orderOf(id);
    const entry = order?.get(id);
    if (!entry) return undefined;
    order!.touch(id, entry, now);
    return entry.data;
  }

  async getOwned(id: string, principal: string): Promise<SessionData | undefined> {
    const now = Date.now();
    this.#sweep(now);
    const order = this.#orderOf(id);
    const entry = order?.get(id);
    if (!entry) return undefined;
    if (entry.data.principal === principal) order!.touch(id, entry, now);
    return entry.data;
  }

  async peek(id: string): Promise<SessionData | undefined> {
    this.#sweep(Date.now());
    return this.#orderOf(id)?.get(id)?.data;
  }

  async create(session: SessionData): Promise<"created" | "full"> {
    const now = Date.now();
    this.#sweep(now);
    this.#orderOf(session.id)?.delete(session.id);
    this.#subscriptions.delete(session.id);
    const pending = !session.initialized;
    if (pending && this.#pending.size >= this.maxPendingSessions && !this.#evictFrom(this.#pending, now)) {
      return "full";
    }
    if (this.#pending.size + this.#ready.size >= this.maxSessions) {
      if (!this.#evictFrom(this.#pending, now) && !this.#evictFrom(this.#ready, now)) return "full";
    }
    (pending ? this.#pending : this.#ready).add(session.id, { data: session, lastUsed: now, createdAt: now });
    this.#expiresAt(now);
    return "created";
  }

  async set(session: SessionData): Promise<void> {
    const now = Date.now();
    this.#sweep(now);
    const order = this.#orderOf(session.id);
    const previous = order?.get(session.id);
    if (!order || !previous) return; // Ended meanwhile: it stays ended.
    order.delete(session.id);
    // An initialized session leaves the pending ones (it never goes back).
    const target = session.initialized ? this.#ready : order;
    target.add(session.id, { data: session, lastUsed: now, createdAt: previous.createdAt });
    this.#expiresAt(now);
  }

  async delete(id: string): Promise<boolean> {
    this.#sweep(Date.now()); // A session past its TTL ended already: it did not exist.
    this.#subscriptions.delete(id);
    return this.#pending.delete(id) || this.#ready.delete(id);
  }

  async subscribe(id: string, uri: string, max: number): Promise<SubscribeOutcome> {
    this.#sweep(Date.now());
    if (!this.#orderOf(id)) return "ended";
    let uris = this.#subscriptions.get(id);
    if (uris?.has(uri)) return "subscribed";
    if ((uris?.size ?? 0) >= max) return "full";
    if (!uris) this.#subscriptions.set(id, (uris = new Set()));
    uris.add(uri);
    return "subscribed";
  }

  async unsubscribe(id: string, uri: string): Promise<void> {
    const uris = this.#subscriptions.get(id);
    if (uris?.delete(uri) && uris.size === 0) this.#subscriptions.delete(id);
  }

  async isSubscribed(id: string, uri: string): Promise<boolean> {
    this.#sweep(Date.now());
    return this.#subscriptions.get(id)?.has(uri) === true;
  }

  onEvict(listener: (id: string) => void): void {
    this.#evictListeners.push(listener);
  }

  addLiveCheck(isLive: (id: string) => boolean): void {
    this.#liveChecks.push(isLive);
  }

  #orderOf(id: string): UseOrder<Entry> | undefined {
    if (this.#ready.has(id)) return this.#ready;
    if (this.#pending.has(id)) return this.#pending;
    return undefined;
  }

  #isLive(id: string): boolean {
    for (const check of this.#liveChecks) if (check(id)) return true;
    return false;
  }

  /** A session was stored as used at `now`: it expires `ttlMs` later, perhaps before every other one. */
  #expiresAt(now: number): void {
    this.#nextExpiry = Math.min(this.#nextExpiry, now + this.ttlMs);
  }

  /** Ends expired sessions from the front of both maps; a live one is treated as just used. */
  #sweep(now: number): void {
    if (now < this.#nextExpiry) return;
    // Using a session only pushes its expiry later, so the fronts give the next one.
    this.#nextExpiry = Math.min(this.#sweepMap(this.#pending, now), this.#sweepMap(this.#ready, now));
  }

  /** Sweeps one map; answers when its first session not ended now expires (infinity when none is left). */
  #sweepMap(order: UseOrder<Entry>, now: number): number {
    // Each entry is looked at once at most: a live one moved to the back is not met again.
    let left = order.size;
    for (const [id, entry] of order.entries) {
      if (left-- === 0) break;
      if (now - entry.lastUsed < this.ttlMs) return entry.lastUsed + this.ttlMs;
      if (this.#isLive(id)) order.touch(id, entry, now);
      else this.#evict(order, id);
    }
    // Every entry was looked at: those left are live ones, just marked as used now.
    return order.size > 0 ? now + this.ttlMs : Number.POSITIVE_INFINITY;
  }

  /**
   * Ends the least recently used session of `order` that is neither live nor within the grace
   * (`handshakeGraceMs` since its `initialize` for a pending one, since its last use for an
   * initialized one); false when none was found.
   */
  #evictFrom(order: UseOrder<Entry>, now: number): boolean {
    const pending = order === this.#pending;
    // Each entry is looked at once at most: a live one moved to the back is not met again.
    let left = Math.min(order.size, EVICTION_SCAN);
    for (const [id, entry] of order.entries) {
      if (left-- === 0) break;
      if (now - (pending ? entry.createdAt : entry.lastUsed) < this.handshakeGraceMs) {
        // Initialized sessions are in order of use: all those behind are more recent still.
        if (!pending) break;
        // A handshake in flight keeps its place: it may be the oldest once its grace is over.
        continue;
      }
      if (!this.#isLive(id)) {
        this.#evict(order, id);
        return true;
      }
      order.touch(id, entry, now);
    }
    return false;
  }

  #evict(order: UseOrder<Entry>, id: string): void {
    order.delete(id);
    this.#subscriptions.delete(id);
    for (const listener of this.#evictListeners) listener(id);
  }
}
