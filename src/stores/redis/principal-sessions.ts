/**
 * `sessions.maxSessionsPerPrincipal` across every instance sharing one Redis: one sorted set per
 * principal of its session ids, scored by when each was counted. Counting a new session is one
 * script (one round trip, on `initialize` only): the check and the add are atomic across instances,
 * so concurrent `initialize`s of one principal through any number of instances never pass the cap.
 *
 * A member counts while its session's key exists, or, before it exists, while it is a reservation in
 * flight: counted less than {@link RESERVATION_HOLD_MS} ago (or the TTL, when shorter). The engine
 * removes a member when its create stores nothing and when it deletes the session (DELETE); a
 * session that ends otherwise (TTL, eviction, a process that died between counting and creating)
 * leaves the count when the script meets its member with no key: the set is looked at only when the
 * principal is at its cap, its {@link SCAN} oldest members (those found alive move to the newest end
 * when the set holds more, so later calls look at the others). The set never holds more than the cap
 * (a member is added only while fewer are counted), so the work per call is bounded by the cap and
 * the scan.
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
 * Counts a session for its principal unless the principal holds the cap. KEYS: the principal's set.
 * ARGV: 1 the prefix of session keys, 2 session id, 3 the cap, 4 now (ms), 5 reservation hold (ms),
 * 6 the set's TTL (ms), 7 members scanned at the cap. Returns 1 when counted, 0 when at the cap
 * (nothing added). Session keys are the prefix and a member (one Redis, as the rest of the store).
 */
const RESERVE = new RedisScript(`
local now = tonumber(ARGV[4])
local max = tonumber(ARGV[3])
local count = redis.call('ZCARD', KEYS[1])
if count >= max then
  local scan = tonumber(ARGV[7])
  local rotate = count > scan
  local held = now - tonumber(ARGV[5])
  local oldest = redis.call('ZRANGE', KEYS[1], 0, scan - 1, 'WITHSCORES')
  for i = 1, #oldest, 2 do
    local id = oldest[i]
    if redis.call('EXISTS', ARGV[1] .. id) == 1 then
      if rotate then redis.call('ZADD', KEYS[1], now, id) end
    elseif tonumber(oldest[i + 1]) < held then
      redis.call('ZREM', KEYS[1], id)
      count = count - 1
    end
  end
  if count >= max then return 0 end
end
redis.call('ZADD', KEYS[1], now, ARGV[2])
redis.call('PEXPIRE', KEYS[1], ARGV[6])
return 1`);

/** The per-principal session sets of one {@link RedisSessionStore}. */
export class PrincipalSessionSets {
  readonly #connection: RedisConnection;
  readonly #sessionKeyPrefix: string;
  readonly #holdMs: number;
  /** The TTL a set is given (see {@link SET_TTL_SLACK}). */
  readonly ttlMs: number;
  /** Principal of sessions created or read by their owner here, least recently seen first. */
  readonly #principalOf = new Map<string, string>();

  constructor(connection: RedisConnection, sessionTtlMs: number, sessionKeyPrefix: string) {
    this.#connection = connection;
    this.#sessionKeyPrefix = sessionKeyPrefix;
    this.#holdMs = Math.min(RESERVATION_HOLD_MS, sessionTtlMs);
    this.ttlMs = SET_TTL_SLACK * sessionTtlMs + 2 * INDEX_TOUCH_MS;
  }

  /** The key of a principal's set. */
  key(principal: string): string {
    return `${this.#connection.prefix}principal-sessions:${principal}`;
  }

  /** As `SessionStore.reservePrincipal` promises; one round trip. */
  async reserve(principal: string, id: string, max: number): Promise<boolean> {
    const client = await this.#connection.client();
    // A cap past what Lua's numbers hold exactly is no cap at all.
    const cap = String(Number.isSafeInteger(max) ? max : Number.MAX_SAFE_INTEGER);
    const answer = await RESERVE.run(
      client,
      [this.key(principal)],
      [this.#sessionKeyPrefix, id, cap, String(Date.now()), String(this.#holdMs), String(this.ttlMs), String(SCAN)],
    );
    return Number(answer) === 1;
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
