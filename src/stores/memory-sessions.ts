/** The default session store: a Map in insertion order of last use, so expiry sweeps from the front. */
import type { SessionData, SessionStore } from "./types.ts";

interface Entry {
  data: SessionData;
  lastUsed: number;
}

/** Options of {@link MemorySessionStore}. */
export interface MemorySessionStoreOptions {
  /** Idle time after which a session ends (default 30 minutes). */
  ttlMs?: number;
  /** Most sessions kept; the least recently used is ended past it (default 10,000). */
  maxSessions?: number;
}

/**
 * Keeps legacy sessions in this process. Expired sessions are swept on every access, so nothing
 * of an ended session stays in memory even without a timer (edge runtimes allow none at startup).
 *
 * @example
 * defineMcpHandler({ name: "demo", version: "1.0.0", sessions: { store: new MemorySessionStore({ ttlMs: 60_000 }) } });
 */
export class MemorySessionStore implements SessionStore {
  readonly ttlMs: number;
  readonly maxSessions: number;
  #entries = new Map<string, Entry>();
  #listeners: ((id: string) => void)[] = [];

  constructor(options: MemorySessionStoreOptions = {}) {
    this.ttlMs = options.ttlMs ?? 30 * 60_000;
    this.maxSessions = options.maxSessions ?? 10_000;
  }

  /** Number of live sessions. */
  get size(): number {
    this.#sweep(Date.now());
    return this.#entries.size;
  }

  async get(id: string): Promise<SessionData | undefined> {
    const now = Date.now();
    this.#sweep(now);
    const entry = this.#entries.get(id);
    if (!entry) return undefined;
    // Re-insert to keep the map ordered by last use.
    this.#entries.delete(id);
    entry.lastUsed = now;
    this.#entries.set(id, entry);
    return entry.data;
  }

  async set(session: SessionData): Promise<void> {
    const now = Date.now();
    this.#sweep(now);
    this.#entries.delete(session.id);
    this.#entries.set(session.id, { data: session, lastUsed: now });
    while (this.#entries.size > this.maxSessions) {
      const oldest = this.#entries.keys().next().value as string;
      this.#evict(oldest);
    }
  }

  async delete(id: string): Promise<boolean> {
    return this.#entries.delete(id);
  }

  onEvict(listener: (id: string) => void): void {
    this.#listeners.push(listener);
  }

  #sweep(now: number): void {
    for (const [id, entry] of this.#entries) {
      if (now - entry.lastUsed < this.ttlMs) break;
      this.#evict(id);
    }
  }

  #evict(id: string): void {
    this.#entries.delete(id);
    for (const listener of this.#listeners) listener(id);
  }
}
