/**
 * Legacy sessions in a Durable Object's SQLite storage, by the policy of {@link SessionStore}: the
 * same order of use, caps, graces and TTL as the memory store, kept in tables so that the object
 * may be evicted or restarted between two requests of a session and lose nothing. The object runs
 * one request at a time between awaits, and every method here reads and writes without awaiting,
 * so each is one atomic step (the caps hold without compare-and-set).
 */
import type { SessionData, SessionStore, SubscribeOutcome } from "../../types/stores.ts";
import { firstRow, rows, type SqlStorage } from "./sql.ts";

/** Options of {@link DurableSessionStore} (those of `MemorySessionStore`, with the same defaults). */
export interface DurableSessionStoreOptions {
  /** Idle time after which a session ends (default 30 minutes). */
  ttlMs?: number;
  /** Most sessions kept (default 10,000); see {@link SessionStore} for who makes room. */
  maxSessions?: number;
  /** Most sessions kept that never sent `notifications/initialized` (default 1,000). */
  maxPendingSessions?: number;
  /** How long a new or just-used session is safe from being ended to make room (default 2,000 ms). */
  handshakeGraceMs?: number;
}

/** Most sessions looked at per sweep or per search for room, as the memory store looks at. */
const SCAN = 1024;

/**
 * How long a principal's place counted for a session not created yet is kept (the object stopped
 * between `reservePrincipal` and `create`): then it stops counting.
 */
const RESERVATION_MS = 60_000;

const SCHEMA = [
  `CREATE TABLE IF NOT EXISTS mcp_sessions (id TEXT PRIMARY KEY, data TEXT NOT NULL, pending INTEGER NOT NULL,
    last_used INTEGER NOT NULL, use_seq INTEGER NOT NULL, created_at INTEGER NOT NULL)`,
  "CREATE INDEX IF NOT EXISTS mcp_sessions_order ON mcp_sessions (pending, use_seq)",
  "CREATE INDEX IF NOT EXISTS mcp_sessions_expiry ON mcp_sessions (last_used)",
  "CREATE TABLE IF NOT EXISTS mcp_subscriptions (session_id TEXT NOT NULL, uri TEXT NOT NULL, PRIMARY KEY (session_id, uri))",
  `CREATE TABLE IF NOT EXISTS mcp_principal_places (principal TEXT NOT NULL, id TEXT NOT NULL,
    reserved_at INTEGER NOT NULL, PRIMARY KEY (principal, id))`,
  "CREATE INDEX IF NOT EXISTS mcp_principal_places_id ON mcp_principal_places (id)",
];

interface OrderRow extends Record<string, string | number> {
  id: string;
  last_used: number;
  created_at: number;
}

/**
 * Keeps legacy sessions in the SQLite storage of the Durable Object that serves them. One store per
 * object's storage: the order of use is numbered by this store, read once from the tables.
 *
 * @example
 * // In a SQLite-backed Durable Object (mcp-h3/cloudflare builds this for you):
 * const store = new DurableSessionStore(ctx.storage.sql, { ttlMs: 60_000 });
 */
export class DurableSessionStore implements SessionStore {
  readonly ttlMs: number;
  readonly maxSessions: number;
  readonly maxPendingSessions: number;
  readonly handshakeGraceMs: number;
  readonly #sql: SqlStorage;
  /** The number the next use gets: uses are ordered by it, not by the clock (two in one ms). */
  #nextUse: number;
  /**
   * How many sessions each list holds, counted once per object's life and kept with every write:
   * a `count(*)` per `create` read every session's index row (107 rows read by an `initialize`
   * with 101 sessions kept, test/cloudflare-costs.test.ts), and Cloudflare bills rows read.
   */
  #counts: { pending: number; ready: number } | undefined;
  #evictListeners: ((id: string) => void)[] = [];
  #liveChecks: ((id: string) => boolean)[] = [];

  constructor(sql: SqlStorage, options: DurableSessionStoreOptions = {}) {
    this.#sql = sql;
    this.ttlMs = options.ttlMs ?? 30 * 60_000;
    this.maxSessions = options.maxSessions ?? 10_000;
    this.maxPendingSessions = Math.max(1, Math.min(options.maxPendingSessions ?? 1000, this.maxSessions));
    this.handshakeGraceMs = Math.max(0, options.handshakeGraceMs ?? 2000);
    for (const statement of SCHEMA) sql.exec(statement);
    const last = firstRow<{ last: number | null }>(sql, "SELECT max(use_seq) AS last FROM mcp_sessions");
    this.#nextUse = (last?.last ?? 0) + 1;
  }

  async get(id: string): Promise<SessionData | undefined> {
    const now = Date.now();
    this.sweep(now);
    const data = this.#data(id);
    if (data) this.#touch(id, now);
    return data;
  }

  async getOwned(id: string, principal: string): Promise<SessionData | undefined> {
    const now = Date.now();
    this.sweep(now);
    const data = this.#data(id);
    if (data?.principal === principal) this.#touch(id, now);
    return data;
  }

  async peek(id: string): Promise<SessionData | undefined> {
    this.sweep(Date.now());
    return this.#data(id);
  }

  async create(session: SessionData): Promise<"created" | "full"> {
    const now = Date.now();
    this.sweep(now);
    this.#removeSession(session.id);
    const pending = !session.initialized;
    if (pending && this.#count(true) >= this.maxPendingSessions && !this.#evictFrom(true, now)) return "full";
    if (this.#count(true) + this.#count(false) >= this.maxSessions) {
      if (!this.#evictFrom(true, now) && !this.#evictFrom(false, now)) return "full";
    }
    this.#sql.exec(
      "INSERT INTO mcp_sessions (id, data, pending, last_used, use_seq, created_at) VALUES (?, ?, ?, ?, ?, ?)",
      session.id,
      JSON.stringify(session),
      pending ? 1 : 0,
      now,
      this.#nextUse++,
      now,
    );
    this.#adjust(pending, 1);
    return "created";
  }

  async set(session: SessionData): Promise<void> {
    const now = Date.now();
    this.sweep(now);
    const stored = firstRow<{ pending: number }>(
      this.#sql,
      "SELECT pending FROM mcp_sessions WHERE id = ?",
      session.id,
    );
    if (!stored) return; // Ended meanwhile: it stays ended.
    // An initialized session leaves the pending ones (it never goes back).
    const pending = stored.pending === 1 && !session.initialized;
    this.#sql.exec(
      "UPDATE mcp_sessions SET data = ?, pending = ?, last_used = ?, use_seq = ? WHERE id = ?",
      JSON.stringify(session),
      pending ? 1 : 0,
      now,
      this.#nextUse++,
      session.id,
    );
    if (stored.pending === 1 && !pending) {
      this.#adjust(true, -1);
      this.#adjust(false, 1);
    }
  }

  async delete(id: string): Promise<boolean> {
    this.sweep(Date.now()); // A session past its TTL ended already: it did not exist.
    return this.#remove(id);
  }

  async reservePrincipal(principal: string, id: string, max: number): Promise<boolean> {
    const now = Date.now();
    this.sweep(now);
    // Places of sessions that ended are removed with them; a reservation never followed by its
    // session (the object stopped in between) stops counting after a while.
    this.#sql.exec(
      `DELETE FROM mcp_principal_places WHERE principal = ? AND reserved_at <= ?
        AND id NOT IN (SELECT id FROM mcp_sessions)`,
      principal,
      now - RESERVATION_MS,
    );
    const counted = rows<{ id: string }>(
      this.#sql,
      "SELECT id FROM mcp_principal_places WHERE principal = ?",
      principal,
    );
    if (counted.some((row) => row.id === id)) return true;
    if (counted.length >= max) return false;
    this.#sql.exec(
      "INSERT INTO mcp_principal_places (principal, id, reserved_at) VALUES (?, ?, ?)",
      principal,
      id,
      now,
    );
    return true;
  }

  async releasePrincipal(principal: string, id: string): Promise<void> {
    this.#sql.exec("DELETE FROM mcp_principal_places WHERE principal = ? AND id = ?", principal, id);
  }

  async subscribe(id: string, uri: string, max: number): Promise<SubscribeOutcome> {
    this.sweep(Date.now());
    if (!this.#exists(id)) return "ended";
    const held = firstRow(
      this.#sql,
      "SELECT 1 AS held FROM mcp_subscriptions WHERE session_id = ? AND uri = ?",
      id,
      uri,
    );
    if (held) return "subscribed";
    const count = firstRow<{ n: number }>(
      this.#sql,
      "SELECT count(*) AS n FROM mcp_subscriptions WHERE session_id = ?",
      id,
    );
    if ((count?.n ?? 0) >= max) return "full";
    this.#sql.exec("INSERT INTO mcp_subscriptions (session_id, uri) VALUES (?, ?)", id, uri);
    return "subscribed";
  }

  async unsubscribe(id: string, uri: string): Promise<void> {
    this.#sql.exec("DELETE FROM mcp_subscriptions WHERE session_id = ? AND uri = ?", id, uri);
  }

  async isSubscribed(id: string, uri: string): Promise<boolean> {
    this.sweep(Date.now());
    return (
      firstRow(this.#sql, "SELECT 1 AS held FROM mcp_subscriptions WHERE session_id = ? AND uri = ?", id, uri) !==
      undefined
    );
  }

  onEvict(listener: (id: string) => void): void {
    this.#evictListeners.push(listener);
  }

  addLiveCheck(isLive: (id: string) => boolean): void {
    this.#liveChecks.push(isLive);
  }

  /**
   * Ends the sessions idle past the TTL (a live one is marked as used now instead), telling
   * `onEvict`. Every method sweeps first; the object's alarm calls it at {@link nextExpiry} so that
   * sessions also end, and their listeners hear of it, when no request comes.
   */
  sweep(now = Date.now()): void {
    const expired = rows<OrderRow>(
      this.#sql,
      "SELECT id, last_used, created_at FROM mcp_sessions WHERE last_used <= ? ORDER BY use_seq LIMIT ?",
      now - this.ttlMs,
      SCAN,
    );
    for (const { id } of expired) {
      if (this.#isLive(id)) this.#touch(id, now);
      else this.#evict(id);
    }
  }

  /** When the first kept session expires (ms since the epoch), or undefined when none is kept. */
  nextExpiry(): number | undefined {
    const first = firstRow<{ at: number | null }>(this.#sql, "SELECT min(last_used) AS at FROM mcp_sessions");
    return first?.at == null ? undefined : first.at + this.ttlMs;
  }

  #data(id: string): SessionData | undefined {
    const row = firstRow<{ data: string }>(this.#sql, "SELECT data FROM mcp_sessions WHERE id = ?", id);
    return row ? (JSON.parse(row.data) as SessionData) : undefined;
  }

  #exists(id: string): boolean {
    return firstRow(this.#sql, "SELECT 1 AS found FROM mcp_sessions WHERE id = ?", id) !== undefined;
  }

  #touch(id: string, now: number): void {
    this.#sql.exec("UPDATE mcp_sessions SET last_used = ?, use_seq = ? WHERE id = ?", now, this.#nextUse++, id);
  }

  /** Sessions of one list (pending or initialized). */
  #count(pending: boolean): number {
    const counts = this.#countsNow();
    return pending ? counts.pending : counts.ready;
  }

  #countsNow(): { pending: number; ready: number } {
    if (this.#counts) return this.#counts;
    const counts = { pending: 0, ready: 0 };
    for (const row of rows<{ pending: number; n: number }>(
      this.#sql,
      "SELECT pending, count(*) AS n FROM mcp_sessions GROUP BY pending",
    )) {
      if (row.pending === 1) counts.pending = row.n;
      else counts.ready = row.n;
    }
    return (this.#counts = counts);
  }

  /** Keeps the counts with a write made; not counted yet, they are read after it, as they are now. */
  #adjust(pending: boolean, by: number): void {
    const counts = this.#counts;
    if (!counts) return;
    if (pending) counts.pending += by;
    else counts.ready += by;
  }

  #isLive(id: string): boolean {
    for (const check of this.#liveChecks) if (check(id)) return true;
    return false;
  }

  /** Removes a session and its subscriptions; whether it was there. */
  #removeSession(id: string): boolean {
    const removed = rows<{ pending: number }>(
      this.#sql,
      "DELETE FROM mcp_sessions WHERE id = ? RETURNING pending",
      id,
    )[0];
    this.#sql.exec("DELETE FROM mcp_subscriptions WHERE session_id = ?", id);
    if (removed) this.#adjust(removed.pending === 1, -1);
    return removed !== undefined;
  }

  /** Ends a session: it, its subscriptions and its principal's place go; whether it was there. */
  #remove(id: string): boolean {
    this.#sql.exec("DELETE FROM mcp_principal_places WHERE id = ?", id);
    return this.#removeSession(id);
  }

  #evict(id: string): void {
    this.#remove(id);
    for (const listener of this.#evictListeners) listener(id);
  }

  /**
   * Ends the least recently used session of one list that is neither live nor within its grace
   * (since `initialize` for a pending one, since its last use for an initialized one); false when
   * none was found. A live one met is marked as used, so the next search does not meet it first.
   */
  #evictFrom(pending: boolean, now: number): boolean {
    const candidates = rows<OrderRow>(
      this.#sql,
      "SELECT id, last_used, created_at FROM mcp_sessions WHERE pending = ? ORDER BY use_seq LIMIT ?",
      pending ? 1 : 0,
      SCAN,
    );
    for (const { id, last_used, created_at } of candidates) {
      if (now - (pending ? created_at : last_used) < this.handshakeGraceMs) {
        // Initialized sessions are in order of use: all those behind are more recent still.
        if (!pending) break;
        continue;
      }
      if (!this.#isLive(id)) {
        this.#evict(id);
        return true;
      }
      this.#touch(id, now);
    }
    return false;
  }
}
