/**
 * Legacy sessions in a Durable Object's SQLite storage, by the policy of {@link SessionStore}: the
 * same order of use, caps, graces and TTL as the memory store, kept in tables so that the object
 * may be evicted or restarted between two requests of a session and lose nothing. The object runs
 * one request at a time between awaits, and every method here reads and writes without awaiting,
 * so each is one atomic step (the caps hold without compare-and-set).
 */
import type { SessionData, SessionStore, SubscribeOutcome } from "../../types/stores.ts";
import { sessionBounds } from "../session-bounds.ts";
import { PrincipalPlaces } from "./principal-places.ts";
import { SessionCounts } from "./session-counts.ts";
import { SessionSubscriptions } from "./session-subscriptions.ts";
import { SESSIONS_SCHEMA, lastUse, leastRecentlyUsed, usedBefore } from "./session-tables.ts";
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
  readonly #subscriptions: SessionSubscriptions;
  readonly #places: PrincipalPlaces;
  /** The number the next use gets: uses are ordered by it, not by the clock (two in one ms). */
  #nextUse: number;
  readonly #counts: SessionCounts;
  #evictListeners: ((id: string) => void)[] = [];
  #liveChecks: ((id: string) => boolean)[] = [];

  constructor(sql: SqlStorage, options: DurableSessionStoreOptions = {}) {
    this.#sql = sql;
    ({
      ttlMs: this.ttlMs,
      maxSessions: this.maxSessions,
      maxPendingSessions: this.maxPendingSessions,
      handshakeGraceMs: this.handshakeGraceMs,
    } = sessionBounds("mcp-h3: DurableSessionStore ", options));
    for (const statement of SESSIONS_SCHEMA) sql.exec(statement);
    this.#subscriptions = new SessionSubscriptions(sql);
    this.#places = new PrincipalPlaces(sql);
    this.#counts = new SessionCounts(sql);
    this.#nextUse = lastUse(sql) + 1;
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
    if (pending && this.#counts.of(true) >= this.maxPendingSessions && !this.#evictFrom(true, now)) return "full";
    if (this.#counts.of(true) + this.#counts.of(false) >= this.maxSessions) {
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
    this.#counts.adjust(pending, 1);
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
      this.#counts.adjust(true, -1);
      this.#counts.adjust(false, 1);
    }
  }

  async delete(id: string): Promise<boolean> {
    this.sweep(Date.now()); // A session past its TTL ended already: it did not exist.
    return this.#remove(id);
  }

  async reservePrincipal(principal: string, id: string, max: number): Promise<boolean> {
    const now = Date.now();
    this.sweep(now); // The places of sessions past their TTL go with them.
    return this.#places.reserve(principal, id, max, now);
  }

  async releasePrincipal(principal: string, id: string): Promise<void> {
    this.#places.release(principal, id);
  }

  async subscribe(id: string, uri: string, max: number): Promise<SubscribeOutcome> {
    this.sweep(Date.now());
    return this.#exists(id) ? this.#subscriptions.add(id, uri, max) : "ended";
  }

  async unsubscribe(id: string, uri: string): Promise<void> {
    this.#subscriptions.remove(id, uri);
  }

  async isSubscribed(id: string, uri: string): Promise<boolean> {
    this.sweep(Date.now());
    return this.#subscriptions.holds(id, uri);
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
    for (const { id } of usedBefore(this.#sql, now - this.ttlMs)) {
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
    this.#subscriptions.forget(id);
    if (removed) this.#counts.adjust(removed.pending === 1, -1);
    return removed !== undefined;
  }

  /** Ends a session: it, its subscriptions and its principal's place go; whether it was there. */
  #remove(id: string): boolean {
    this.#places.forget(id);
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
    for (const { id, last_used, created_at } of leastRecentlyUsed(this.#sql, pending)) {
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
