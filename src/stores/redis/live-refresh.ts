/**
 * Keeps alive in Redis the sessions live in this process: a GET stream open for hours with no
 * request would otherwise see its session's key expire. Every third of the TTL, by a timer started
 * with the store's first use (unref'd, so it keeps no process alive, and stopped by `stop`).
 */
import type { RedisClient, RedisConnection } from "./connection.ts";

/** Most live sessions one refresh touches, and how many go in one round trip. */
const MAX_REFRESH = 10_000;
const REFRESH_BATCH = 500;

export interface LiveRefreshOptions {
  connection: RedisConnection;
  ttlMs: number;
  /** The key of a session. */
  key(id: string): string;
  /** The index of all sessions by last use (a live session is put back in it when it lost its entry). */
  index: string;
  /** Indexes by last use a session may be in besides (moved only where it is). */
  subsets: string[];
  /** A key owned by each session that is kept alive with it (its subscription set), with its own TTL. */
  companion?: { key(id: string): string; ttlMs: number };
  /** Keys shared by several sessions (their principals' sets), kept alive while one of them is live. */
  owners?: { keys(ids: string[]): string[]; ttlMs: number };
  /** A live session's key was gone: it ended elsewhere. */
  ended(id: string): void;
}

export class LiveRefresh {
  readonly #options: LiveRefreshOptions;
  readonly #liveLists: (() => Iterable<string>)[] = [];
  #timer: ReturnType<typeof setInterval> | undefined;
  #refreshing = false;
  #stopped = false;

  constructor(options: LiveRefreshOptions) {
    this.#options = options;
  }

  /** Adds a list of the sessions live in this process. */
  add(liveIds: () => Iterable<string>): void {
    this.#liveLists.push(liveIds);
  }

  /** The timer, made on first use (inside a request: nothing is timed at construction). */
  start(): void {
    if (this.#timer !== undefined || this.#stopped || this.#liveLists.length === 0) return;
    this.#timer = setInterval(() => void this.#refresh(), Math.max(50, Math.floor(this.#options.ttlMs / 3)));
    (this.#timer as { unref?: () => void }).unref?.();
  }

  stop(): void {
    this.#stopped = true;
    if (this.#timer !== undefined) clearInterval(this.#timer);
    this.#timer = undefined;
  }

  /** The index moves of sessions whose keys were found (one command per index: they share a slot). */
  #moveInIndexes(client: RedisClient, ids: string[], now: number): Promise<unknown>[] {
    const members = ids.map((id) => ({ score: now, value: id }));
    return [
      client.zAdd(this.#options.index, members),
      ...this.#options.subsets.map((subset) => client.zAdd(subset, members, { condition: "XX" })),
    ];
  }

  /**
   * Gives the sessions live in this process a new idle TTL (an ended one stays ended: only existing
   * keys and index entries are touched). One refresh at a time; a failure waits for the next tick.
   */
  async #refresh(): Promise<void> {
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
      const { connection, ttlMs, key, companion, owners } = this.#options;
      const client = await connection.client();
      const all = [...ids];
      for (let start = 0; start < all.length; start += REFRESH_BATCH) {
        const some = all.slice(start, start + REFRESH_BATCH);
        // Each key in its own slot on a cluster: separate commands, all sent at once (node-redis
        // writes the commands of one tick together, per node).
        const kept = await Promise.all(some.map((id) => client.pExpire(key(id), ttlMs)));
        const found = some.filter((_, index) => Number(kept[index]) === 1);
        // A live session whose key is gone ended elsewhere (and its "ended" message was lost): end it here too.
        const gone = some.filter((_, index) => Number(kept[index]) !== 1);
        const now = Date.now();
        await Promise.all([
          // The index follows the keys found (and takes back one it lost, see session-scripts.ts).
          ...(found.length > 0 ? this.#moveInIndexes(client, found, now) : []),
          ...found.map((id) => (companion ? client.pExpire(companion.key(id), companion.ttlMs) : undefined)),
          ...(owners?.keys(found) ?? []).map((shared) => client.pExpire(shared, owners!.ttlMs)),
          // Their companion keys go with them.
          ...gone.map((id) => (companion ? client.del(companion.key(id)) : undefined)),
        ]);
        for (const id of gone) this.#options.ended(id);
      }
    } catch {
      // Redis away: the next tick tries again (well within the TTL).
    } finally {
      this.#refreshing = false;
    }
  }
}
