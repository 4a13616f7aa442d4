/**
 * A {@link SessionStore} on Redis: a legacy session opened on one instance is known to every
 * instance that shares the Redis, so a client behind a balancer without sticky sessions keeps it.
 */
import type { SessionData, SessionStore } from "../types/stores.ts";
import { RedisConnection, type RedisConnectionOptions } from "./connection.ts";

/** Options of {@link RedisSessionStore}. */
export interface RedisSessionStoreOptions extends RedisConnectionOptions {
  /** Idle time after which a session ends (default 30 minutes, as in memory). */
  ttlMs?: number;
  /** Most sessions kept across all instances (default 10,000). */
  maxSessions?: number;
}

/** Most sessions looked at to make room for a new one, as in {@link MemorySessionStore}. */
const EVICTION_SCAN = 32;

/**
 * Keeps legacy sessions in Redis. Each session is one key holding its data as JSON, with the idle
 * TTL as its expiry, refreshed on every read; a sorted set by last use finds the least recently
 * used when the store is full. A session live in this process (an open stream or a call in
 * flight) is never ended to make room; one live only on another instance is known there alone,
 * so keep `maxSessions` above what all instances hold open at once.
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
  #evictListeners: ((id: string) => void)[] = [];
  #liveChecks: ((id: string) => boolean)[] = [];

  constructor(options: RedisSessionStoreOptions = {}) {
    this.#connection = options.connection ?? new RedisConnection(options);
    this.ttlMs = options.ttlMs ?? 30 * 60_000;
    this.maxSessions = options.maxSessions ?? 10_000;
  }

  #key(id: string): string {
    return `${this.#connection.prefix}session:${id}`;
  }

  get #index(): string {
    return `${this.#connection.prefix}sessions`;
  }

  async get(id: string): Promise<SessionData | undefined> {
    const client = await this.#connection.client();
    const text = await client.getEx(this.#key(id), { type: "PX", value: this.ttlMs });
    if (text === null) return undefined;
    await client.zAdd(this.#index, { score: Date.now(), value: id });
    return JSON.parse(text) as SessionData;
  }

  async peek(id: string): Promise<SessionData | undefined> {
    const client = await this.#connection.client();
    const text = await client.get(this.#key(id));
    return text === null ? undefined : (JSON.parse(text) as SessionData);
  }

  async create(session: SessionData): Promise<"created" | "full"> {
    const client = await this.#connection.client();
    const now = Date.now();
    // Index entries of sessions whose key expired are stale: drop them before counting.
    await client.zRemRangeByScore(this.#index, 0, now - this.ttlMs);
    if ((await client.zCard(this.#index)) >= this.maxSessions && !(await this.#makeRoom())) return "full";
    await client
      .multi()
      .set(this.#key(session.id), JSON.stringify(session), { expiration: { type: "PX", value: this.ttlMs } })
      .zAdd(this.#index, { score: now, value: session.id })
      .exec();
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

  async set(session: SessionData): Promise<void> {
    const client = await this.#connection.client();
    // XX: a session that ended meanwhile stays ended.
    const stored = await client.set(this.#key(session.id), JSON.stringify(session), {
      condition: "XX",
      expiration: { type: "PX", value: this.ttlMs },
    });
    if (stored !== null) await client.zAdd(this.#index, { score: Date.now(), value: session.id });
  }

  async delete(id: string): Promise<boolean> {
    const client = await this.#connection.client();
    const [removed] = await client.multi().del(this.#key(id)).zRem(this.#index, id).exec();
    return Number(removed) > 0;
  }

  onEvict(listener: (id: string) => void): void {
    this.#evictListeners.push(listener);
  }

  addLiveCheck(isLive: (id: string) => boolean): void {
    this.#liveChecks.push(isLive);
  }

  /** Closes the connections (when this store made them). */
  close(): Promise<void> {
    return this.#connection.close();
  }
}
