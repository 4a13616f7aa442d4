/**
 * Room for a new session in {@link RedisSessionStore}, by the policy of `SessionStore`: pending
 * sessions (no `notifications/initialized` yet) have their own cap and are ended first, then the
 * least recently used idle session; a session live in this process is never ended, nor one within
 * its handshake grace (a pending one since its `initialize`, any one since its last use), so
 * concurrent clients connecting at the cap do not end each other's unfinished handshakes: with
 * nothing else to end, the create answers "full" (503 with `Retry-After`).
 *
 * The cap holds across instances: the count and the write are one script, so whatever several
 * instances do at once, a session is added only while the count is under the cap. Liveness is known
 * only in the process that holds a stream or a call, so the script cannot judge it: when the store
 * is full it answers with the oldest sessions, this process picks the first one not live here, and
 * the next run of the script ends it, only if it is still where it was seen (same score: not used,
 * moved or ended since, by any instance), and tries again. Live sessions met on the way go to the
 * newest end of the index in that same run, so that neither this create nor later ones look at them
 * again until they have become the oldest once more: an idle session behind them is found on the
 * first try. A session live only on another instance is not known here; that instance moves it
 * forward whenever it meets it while making room, and its refresh (every third of the TTL) moves
 * all it holds live.
 *
 * Work per create: one round trip while there is room; when full, {@link MAX_ROUNDS} more at most,
 * each reading at most {@link SCAN} entries of each index and writing back those found live (so at
 * most 2 × SCAN × MAX_ROUNDS entries looked at, whatever the cap).
 */
import type { RedisClient } from "./connection.ts";
import { INDEX_TOUCH_MS } from "./index-touches.ts";
import { RedisScript } from "./script.ts";

/** Oldest entries of each index one round reads. */
const SCAN = 128;

/** Most rounds one create makes room in; past them it answers "full" (the live ones met are moved by then). */
const MAX_ROUNDS = 4;

/**
 * Sessions not live here that one round offers to end, oldest first: the script ends the first
 * still where it was seen, so creates racing for room (here or on other instances) do not all
 * lose to the one that ended the oldest.
 */
const PICKS = 4;

/**
 * Ends the first session the previous round picked that is still where it was seen, moves the sessions
 * found live to the newest end, sweeps stale entries (older than a key can live: their keys
 * expired), then stores the new session when both caps allow, else lists the oldest sessions
 * (pending ones first) that are past the handshake grace, for this process to pick from: a pending
 * session by the time of its `initialize` (the third index, which nothing but its end moves), any
 * other by its last use. `now` is the one the caller passed, as in every script of the store (see
 * {@link RoomRules.handshakeGraceMs}).
 * KEYS: the new session's key, the index, the pending index, the creation times of pending
 * sessions, then the key of each picked session.
 * ARGV: 1 the value, 2 idle TTL (ms), 3 now (ms), 4 session id, 5 most sessions, 6 most pending
 * sessions, 7 age of a stale entry (ms), 8 '1' when the new session is pending, 9 entries to list,
 * 10 grace of a pending session since its creation (ms), 11 grace of any session since its last
 * move in the index (ms), 12 the number of picked sessions, then each one's id and score as
 * listed, then the ids found live.
 * Returns { 1 when stored else 0, the id ended ('' for none), then id, score pairs when not stored }.
 */
const CREATE_OR_LIST = new RedisScript(`
local now = tonumber(ARGV[3])
local stale = now - tonumber(ARGV[7])
redis.call('ZREMRANGEBYSCORE', KEYS[2], 0, stale)
redis.call('ZREMRANGEBYSCORE', KEYS[3], 0, stale)
redis.call('ZREMRANGEBYSCORE', KEYS[4], 0, stale)
local picks = tonumber(ARGV[12])
for i = 13 + 2 * picks, #ARGV do
  redis.call('ZADD', KEYS[2], 'XX', now, ARGV[i])
  redis.call('ZADD', KEYS[3], 'XX', now, ARGV[i])
end
local ended = ''
for i = 1, picks do
  local id = ARGV[11 + 2 * i]
  local score = redis.call('ZSCORE', KEYS[2], id)
  if score == ARGV[12 + 2 * i] then
    redis.call('DEL', KEYS[4 + i])
    redis.call('ZREM', KEYS[2], id)
    redis.call('ZREM', KEYS[3], id)
    redis.call('ZREM', KEYS[4], id)
    ended = id
    break
  elseif not score then
    redis.call('ZREM', KEYS[3], id)
    redis.call('ZREM', KEYS[4], id)
  end
end
local pending = ARGV[8] == '1'
local pendingFull = pending and redis.call('ZCARD', KEYS[3]) >= tonumber(ARGV[6])
local full = redis.call('ZCARD', KEYS[2]) >= tonumber(ARGV[5])
if not pendingFull and not full then
  redis.call('SET', KEYS[1], ARGV[1], 'PX', ARGV[2])
  redis.call('ZADD', KEYS[2], now, ARGV[4])
  if pending then
    redis.call('ZADD', KEYS[3], now, ARGV[4])
    redis.call('ZADD', KEYS[4], now, ARGV[4])
  end
  return { 1, ended }
end
local reply = { 0, ended }
local last = tonumber(ARGV[9]) - 1
local pendingGrace = tonumber(ARGV[10])
local oldest = redis.call('ZRANGE', KEYS[3], 0, last, 'WITHSCORES')
for i = 1, #oldest, 2 do
  local born = pendingGrace > 0 and redis.call('ZSCORE', KEYS[4], oldest[i])
  if not born or now - tonumber(born) >= pendingGrace then
    reply[#reply + 1] = oldest[i]
    reply[#reply + 1] = oldest[i + 1]
  end
end
if not pendingFull then
  local usedGrace = tonumber(ARGV[11])
  local newest = usedGrace > 0 and now - usedGrace or '+inf'
  for _, item in ipairs(redis.call('ZRANGEBYSCORE', KEYS[2], '-inf', newest, 'WITHSCORES', 'LIMIT', 0, ARGV[9])) do
    reply[#reply + 1] = item
  end
end
return reply`);

/** What {@link createMakingRoom} needs of the store. */
export interface RoomKeys {
  /** The key of a session. */
  session(id: string): string;
  /** The index of all sessions by last use. */
  index: string;
  /** The index of pending sessions by last use. */
  pending: string;
  /** Pending sessions by the time of their `initialize` (moved by nothing, ended with them). */
  pendingSince: string;
}

export interface RoomRules {
  maxSessions: number;
  maxPendingSessions: number;
  ttlMs: number;
  /**
   * How long a session is safe from being ended for room: a pending one since its `initialize`, any
   * one since its last use (its last move in the index plus the {@link INDEX_TOUCH_MS} that move may
   * lag the use). 0 for none. Judged on the `now` the store passes to every script (`Date.now()` of
   * the instance that writes or looks), so the instances' clocks must agree to well within the
   * grace, as the order by last use already needs.
   */
  handshakeGraceMs: number;
  /** Whether the session is live in this process. */
  isLive(id: string): boolean;
  /**
   * Sessions picked by the creates of this store in flight: another create picks them last, so
   * creates racing here end different sessions.
   */
  picking: Set<string>;
  /** The store ended the session to make room. */
  evicted(id: string): void;
}

/** A session to store: its id, its record as the store writes it, and whether it is still pending (not initialized). */
export interface NewSession {
  id: string;
  value: string;
  pending: boolean;
}

/**
 * Stores the new session, making room by the rules above when a cap is reached; false when nothing
 * could be ended (then nothing is stored).
 */
export async function createMakingRoom(
  client: RedisClient,
  keys: RoomKeys,
  session: NewSession,
  rules: RoomRules,
): Promise<boolean> {
  const { id, value, pending } = session;
  let picked: Pick[] = [];
  let live: string[] = [];
  /** The picks this create added to `rules.picking` (not those another create holds there). */
  let claimed: string[] = [];
  const release = (): void => {
    for (const claim of claimed) rules.picking.delete(claim);
    claimed = [];
  };
  try {
    for (let round = 0; ; round++) {
      const reply = (await CREATE_OR_LIST.run(
        client,
        [keys.session(id), keys.index, keys.pending, keys.pendingSince, ...picked.map((pick) => keys.session(pick.id))],
        [
          value,
          String(rules.ttlMs),
          String(Date.now()),
          id,
          String(rules.maxSessions),
          String(rules.maxPendingSessions),
          // An entry is stale only past the TTL and the time its last move may lag its last read.
          String(rules.ttlMs + INDEX_TOUCH_MS),
          pending ? "1" : "0",
          String(SCAN),
          String(rules.handshakeGraceMs),
          String(rules.handshakeGraceMs > 0 ? rules.handshakeGraceMs + INDEX_TOUCH_MS : 0),
          String(picked.length),
          ...picked.flatMap((pick) => [pick.id, pick.score]),
          ...live,
        ],
      )) as unknown[];
      release();
      picked = [];
      const ended = String(reply[1] ?? "");
      if (ended !== "") rules.evicted(ended);
      if (Number(reply[0]) === 1) return true;
      if (round === MAX_ROUNDS) return false;
      ({ picked, live } = choose(reply, rules));
      claimed = picked.filter((pick) => !rules.picking.has(pick.id)).map((pick) => pick.id);
      for (const claim of claimed) rules.picking.add(claim);
      if (picked.length === 0 && live.length === 0) return false;
    }
  } finally {
    release();
  }
}

interface Pick {
  id: string;
  /** Its score as listed: the script ends it only while the score is the same. */
  score: string;
}

/**
 * Up to {@link PICKS} listed sessions not live here, oldest first (the pending ones come first, and
 * those another create here picked come last), and the live ones listed before the last pick.
 * Sessions within the handshake grace are not listed (the script passes them over), so they are
 * neither picked nor moved: a handshake in flight keeps its place and its turn.
 */
function choose(reply: unknown[], rules: RoomRules): { picked: Pick[]; live: string[] } {
  const seen = new Set<string>();
  const live: string[] = [];
  const free: Pick[] = [];
  const taken: Pick[] = [];
  for (let at = 2; at + 1 < reply.length && free.length < PICKS; at += 2) {
    const id = String(reply[at]);
    if (seen.has(id)) continue;
    seen.add(id);
    if (rules.isLive(id)) live.push(id);
    else (rules.picking.has(id) ? taken : free).push({ id, score: String(reply[at + 1]) });
  }
  return { picked: [...free, ...taken].slice(0, PICKS), live };
}
