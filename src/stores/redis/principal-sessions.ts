/**
 * `sessions.maxSessionsPerPrincipal` across every instance sharing one Redis: one sorted set per
 * principal of its session ids, scored by when each was counted, in the principal's own slot of a
 * Redis Cluster (`{principal:<name>}`). Counting a new session is one script while the principal is
 * under its cap (one round trip, on `initialize` only): the check and the add are atomic across
 * instances, so concurrent `initialize`s of one principal through any number of instances never
 * pass the cap.
 *
 * A member counts while its session's key exists, or, before it exists, while it is a reservation in
 * flight: counted less than {@link RESERVATION_HOLD_MS} ago (or the TTL, when shorter). The engine
 * removes a member when its create stores nothing and when it deletes the session (DELETE); a
 * session that ends otherwise (TTL, eviction, a process that died between counting and creating)
 * leaves the count when a reservation at the cap meets its member with no key. The sessions' keys
 * live in their own slots, so that takes two more round trips: the script answers the set's
 * {@link SCAN} oldest members, this process asks which of those past the hold still have a key, and
 * the script runs again with the answer, removing each keyless one only if its score is still the
 * one seen (nothing counted it again meanwhile), moving those found alive to the newest end when
 * the set holds more (so later calls look at the others), and counting the new session if that made
 * room. A key created between the look and the removal would need a create that took longer than
 * the hold; the set never holds more than the cap (a member is added only while fewer are
 * counted), so the work per call is bounded by the cap and the scan.
 *
 * The set is owned by its sessions: its TTL is twice the session TTL and 2 s ({@link SET_TTL_SLACK}),
 * started again on each count, whenever an owned read moves a session in the index, and by the
 * live refresh for the sessions live in this process (whose principals this store remembers), so it
 * outlives the last of its sessions by at most that, never the other way round; an empty set is
 * gone (Redis deletes it).
 */
import type { RedisConnection } from "./connection.ts";
import { INDEX_TOUCH_MS } from "./index-touches.ts";
import { RedisScript } from "./script.ts";
import { slotTag } from "./slot-keys.ts";

/** How long a counted session with no key yet is taken to be a create in flight. */
const RESERVATION_HOLD_MS = 30_000;

/** Oldest members of a principal's set looked at when it is at its cap. */
const SCAN = 32;

/**
 * The set's TTL in session TTLs, plus `2 × INDEX_TOUCH_MS`: a session's key may be refreshed (a
 * plain read when its GET stream closes) without its set, up to a third of a TTL after the live
 * refresh last kept the set; twice the TTL covers that with room.
 */
const SET_TTL_SLACK = 2;

/** Most sessions whose principal this store remembers for the live refresh. */
const MAX_REMEMBERED = 10_000;

/**
 * Counts a session for its principal unless the principal holds the cap, after removing the members
 * this process found keyless (each only while its score is the one seen) and moving those found
 * alive to the newest end (when the set holds more than the scan). KEYS: the principal's set.
 * ARGV: 1 session id, 2 the cap, 3 now (ms), 4 the set's TTL (ms), 5 members scanned at the cap,
 * 6 the number n of keyless members, then n id, score pairs, then the ids found alive. Returns {1}
 * when counted, else {0, then id, score pairs of the oldest members} (nothing added).
 */
const RESERVE = new RedisScript(`
local now = tonumber(ARGV[3])
local scan = tonumber(ARGV[5])
local keyless = tonumber(ARGV[6])
for i = 1, keyless do
  local id = ARGV[5 + 2 * i]
  if redis.call('ZSCORE', KEYS[1], id) == ARGV[6 + 2 * i] then redis.call('ZREM', KEYS[1], id) end
end
if redis.call('ZCARD', KEYS[1]) > scan then
  for i = 7 + 2 * keyless, #ARGV do redis.call('ZADD', KEYS[1], 'XX', now, ARGV[i]) end
end
if redis.call('ZCARD', KEYS[1]) < tonumber(ARGV[2]) then
  redis.call('ZADD', KEYS[1], now, ARGV[1])
  redis.call('PEXPIRE', KEYS[1], ARGV[4])
  return { 1 }
end
local reply = { 0 }
for _, item in ipairs(redis.call('ZRANGE', KEYS[1], 0, scan - 1, 'WITHSCORES')) do reply[#reply + 1] = item end
return reply`);

/** The per-principal session sets of one {@link RedisSessionStore}. */
export class PrincipalSessionSets {
  readonly #connection: RedisConnection;
  readonly #sessionKey: (id: string) => string;
  readonly #holdMs: number;
  /** The TTL a set is given (see {@link SET_TTL_SLACK}). */
  readonly ttlMs: number;
  /** Principal of sessions created or read by their owner here, least recently seen first. */
  readonly #principalOf = new Map<string, string>();

  constructor(connection: RedisConnection, sessionTtlMs: number, sessionKey: (id: string) => string) {
    this.#connection = connection;
    this.#sessionKey = sessionKey;
    this.#holdMs = Math.min(RESERVATION_HOLD_MS, sessionTtlMs);
    this.ttlMs = SET_TTL_SLACK * sessionTtlMs + 2 * INDEX_TOUCH_MS;
  }

  /** The key of a principal's set. */
  key(principal: string): string {
    return `${this.#connection.prefix}${slotTag("principal", principal)}:sessions`;
  }

  /** As `SessionStore.reservePrincipal` promises; one round trip under the cap, three at it. */
  async reserve(principal: string, id: string, max: number): Promise<boolean> {
    const client = await this.#connection.client();
    // A cap past what Lua's numbers hold exactly is no cap at all.
    const cap = String(Number.isSafeInteger(max) ? max : Number.MAX_SAFE_INTEGER);
    const run = (keyless: [string, string][], alive: string[]): Promise<unknown[]> =>
      RESERVE.run(
        client,
        [this.key(principal)],
        [
          id,
          cap,
          String(Date.now()),
          String(this.ttlMs),
          String(SCAN),
          String(keyless.length),
          ...keyless.flat(),
          ...alive,
        ],
      ) as Promise<unknown[]>;
    const first = await run([], []);
    if (Number(first[0]) === 1) return true;
    // At the cap: which of the oldest members past the hold still have a session?
    const held = Date.now() - this.#holdMs;
    const oldest: [string, string][] = [];
    for (let at = 1; at + 1 < first.length; at += 2) oldest.push([String(first[at]), String(first[at + 1])]);
    const lapsed = oldest.filter(([, score]) => Number(score) < held);
    const exists = await Promise.all(lapsed.map(([member]) => client.exists(this.#sessionKey(member))));
    const keyless = lapsed.filter((_, index) => Number(exists[index]) === 0);
    // Those with a key move to the newest end; reservations in flight keep their place, so that one
    // whose create never came still lapses.
    const alive = lapsed.filter((_, index) => Number(exists[index]) === 1).map(([member]) => member);
    // All counted, and the set no larger than the scan (nothing to move): the principal holds its cap.
    if (keyless.length === 0 && oldest.length < SCAN) return false;
    const second = await run(keyless, alive);
    return Number(second[0]) === 1;
  }

  async release(principal: string, id: string): Promise<void> {
    this.#principalOf.delete(id);
    const client = await this.#connection.client();
    await client.zRem(this.key(principal), id);
  }

  /** The session of `principal` was created or used here: its set is kept alive while it is live here. */
  seen(id: string, principal: string): void {
    this.#principalOf.delete(id);
    if (this.#principalOf.size >= MAX_REMEMBERED) this.#principalOf.delete(this.#principalOf.keys().next().value!);
    this.#principalOf.set(id, principal);
  }

  forget(id: string): void {
    this.#principalOf.delete(id);
  }

  /** The keys of the sets of these sessions (those whose principal is remembered), each once. */
  keysOf(ids: Iterable<string>): string[] {
    const keys = new Set<string>();
    for (const id of ids) {
      const principal = this.#principalOf.get(id);
      if (principal === undefined) continue;
      // Live here: it stays remembered while it is.
      this.seen(id, principal);
      keys.add(this.key(principal));
    }
    return [...keys];
  }
}
