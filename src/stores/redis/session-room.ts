/**
 * Room for a new session in {@link RedisSessionStore}, by the policy of `SessionStore`: pending
 * sessions (no `notifications/initialized` yet) have their own cap and are ended first, then the
 * least recently used idle session; a session live in this process is never ended, nor one within
 * its handshake grace (a pending one since its `initialize`, any one since its last use), so
 * concurrent clients connecting at the cap do not end each other's unfinished handshakes: with
 * nothing else to end, the create answers "full" (503 with `Retry-After`).
 *
 * The cap holds across instances: the count and the new session's place in the index are one
 * script, so whatever several instances do at once, a place is taken only while the count is under
 * the cap. Liveness is known only in the process that holds a stream or a call, so the script
 * cannot judge it: when the store is full it answers with the oldest sessions, this process picks
 * the first one not live here, and the next run of the script ends it, only if it is still where it
 * was seen (same score: not used, moved or ended since, by any instance), and tries again. Live
 * sessions met on the way go to the newest end of the index in that same run, so that neither this
 * create nor later ones look at them again until they have become the oldest once more: an idle
 * session behind them is found on the first try. A session live only on another instance is not
 * known here; that instance moves it forward whenever it meets it while making room, and its
 * refresh (every third of the TTL) moves all it holds live.
 *
 * Two slots on a Redis Cluster: the indexes share one (`{sessions}`), each session's keys their
 * own. The decision is the index's, made atomically there; the session's keys are written before
 * and deleted after, each in one more round trip: the new session's key is written before it asks
 * for a place (and deleted when it gets none), an ended session's keys are deleted once it left
 * the index. So a session can be ended only once it is placed, and its delete always comes after
 * its write. The keys may outnumber the index only by the creates and evictions in flight, for a
 * round trip each. A process that dies between two steps leaves either a new key with no place
 * (its id was never handed out: it expires unused at its TTL), an entry with no key (it counts
 * until it is picked, which ends nothing, or swept as stale after the TTL: the cap is then reached
 * sooner, never passed) or an evicted session's key with no entry (it lives on uncounted until its
 * TTL, or until its next read puts it back in the index: see session-scripts.ts). A read that
 * finds a session between its eviction and its delete moves it back into the index, and the delete
 * then leaves that entry keyless: counted, as above, never the other way round.
 *
 * Work per create: two round trips while there is room (the key, then the place); when full,
 * {@link MAX_ROUNDS} more at most, each reading at most {@link SCAN} entries of each index and
 * writing back those found live, plus one delete per session ended (so at most 2 × SCAN ×
 * MAX_ROUNDS entries looked at, whatever the cap).
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
 * Ends the first session the previous round picked that is still where it was seen (it leaves the
 * indexes; the caller deletes its keys), moves the sessions found live to the newest end, sweeps
 * stale entries (older than a key can live: their keys expired), then takes the new session's
 * place when both caps allow, else lists the oldest sessions (pending ones first) that are past the
 * handshake grace, for this process to pick from: a pending session by the time of its
 * `initialize` (the third index, which nothing but its end moves), any other by its last use.
 * `now` is the one the caller passed, as in every script of the store (see
 * {@link RoomRules.handshakeGraceMs}).
 * KEYS: the index, the pending index, the creation times of pending sessions.
 * ARGV: 1 now (ms), 2 session id, 3 most sessions, 4 most pending sessions, 5 age of a stale entry
 * (ms), 6 '1' when the new session is pending, 7 entries to list, 8 grace of a pending session
 * since its creation (ms), 9 grace of any session since its last move in the index (ms), 10 the
 * number of picked sessions, then each one's id and score as listed, then the ids found live.
 * Returns { 1 when placed else 0, the id ended ('' for none), then id, score pairs when not placed }.
 */
const CREATE_OR_LIST = new RedisScript(`
local now = tonumber(ARGV[1])
local stale = now - tonumber(ARGV[5])
redis.call('ZREMRANGEBYSCORE', KEYS[1], 0, stale)
redis.call('ZREMRANGEBYSCORE', KEYS[2], 0, stale)
redis.call('ZREMRANGEBYSCORE', KEYS[3], 0, stale)
local picks = tonumber(ARGV[10])
for i = 11 + 2 * picks, #ARGV do
  redis.call('ZADD', KEYS[1], 'XX', now, ARGV[i])
  redis.call('ZADD', KEYS[2], 'XX', now, ARGV[i])
end
local ended = ''
for i = 1, picks do
  local id = ARGV[9 + 2 * i]
  local score = redis.call('ZSCORE', KEYS[1], id)
  if score == ARGV[10 + 2 * i] then
    redis.call('ZREM', KEYS[1], id)
    redis.call('ZREM', KEYS[2], id)
    redis.call('ZREM', KEYS[3], id)
    ended = id
    break
  elseif not score then
    redis.call('ZREM', KEYS[2], id)
    redis.call('ZREM', KEYS[3], id)
  end
end
local pending = ARGV[6] == '1'
local pendingFull = pending and redis.call('ZCARD', KEYS[2]) >= tonumber(ARGV[4])
local full = redis.call('ZCARD', KEYS[1]) >= tonumber(ARGV[3])
if not pendingFull and not full then
  redis.call('ZADD', KEYS[1], now, ARGV[2])
  if pending then
    redis.call('ZADD', KEYS[2], now, ARGV[2])
    redis.call('ZADD', KEYS[3], now, ARGV[2])
  end
  return { 1, ended }
end
local reply = { 0, ended }
local last = tonumber(ARGV[7]) - 1
local pendingGrace = tonumber(ARGV[8])
local oldest = redis.call('ZRANGE', KEYS[2], 0, last, 'WITHSCORES')
for i = 1, #oldest, 2 do
  local born = pendingGrace > 0 and redis.call('ZSCORE', KEYS[3], oldest[i])
  if not born or now - tonumber(born) >= pendingGrace then
    reply[#reply + 1] = oldest[i]
    reply[#reply + 1] = oldest[i + 1]
  end
end
if not pendingFull then
  local usedGrace = tonumber(ARGV[9])
  local newest = usedGrace > 0 and now - usedGrace or '+inf'
  for _, item in ipairs(redis.call('ZRANGEBYSCORE', KEYS[1], '-inf', newest, 'WITHSCORES', 'LIMIT', 0, ARGV[7])) do
    reply[#reply + 1] = item
  end
end
return reply`);

/** What {@link createMakingRoom} needs of the store. */
export interface RoomKeys {
  /** The key of a session's record. */
  session(id: string): string;
  /** The key of a session's subscription set, which goes with it. */
  subscriptions(id: string): string;
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
 * could be ended (then nothing is kept).
 */
export async function createMakingRoom(
  client: RedisClient,
  keys: RoomKeys,
  session: NewSession,
  rules: RoomRules,
): Promise<boolean> {
  // The key first, then the place: a create racing this one can end the session only once it is
  // in the index, and then its delete comes after this write, never before it (a key written after
  // its eviction would live on, uncounted). Until it has its place nobody knows its id.
  await client.set(keys.session(session.id), session.value, { expiration: { type: "PX", value: rules.ttlMs } });
  let placed = false;
  try {
    placed = await takePlace(client, keys, session, rules);
    return placed;
  } finally {
    // No place (full, or the index's node away): the key goes; should that fail too, it expires
    // unused at its TTL, its id never handed out.
    if (!placed) await client.del(keys.session(session.id)).catch(() => {});
  }
}

/** The rounds of {@link CREATE_OR_LIST} for a session whose key is written: true once it has its place. */
async function takePlace(client: RedisClient, keys: RoomKeys, session: NewSession, rules: RoomRules): Promise<boolean> {
  const { id, pending } = session;
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
        [keys.index, keys.pending, keys.pendingSince],
        [
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
      if (ended !== "") {
        // Out of the index: its keys go (the subscription set with the record, as with a DELETE).
        await client.del([keys.session(ended), keys.subscriptions(ended)]);
        rules.evicted(ended);
      }
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
