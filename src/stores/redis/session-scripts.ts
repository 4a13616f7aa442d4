/**
 * The Lua scripts of {@link RedisSessionStore}: each store call a request waits on is one round
 * trip to Redis, and what it reads and writes is seen by other instances all at once (a session's
 * key and its entry in the index by last use never disagree, not even for a moment).
 *
 * Why: a speed change, measured with `redis_legacy_vs_memory` (legacy in-session `tools/call` on
 * the Redis stores against the memory stores, in process, loopback redis-server; `bench/run.mjs
 * --only=redis`, 5 repetitions, median of the paired ratios; a shared 2-core machine with a load
 * of 2 to 3.5, so the spread is wide). Before, a read was GETEX then ZADD, awaited one after the
 * other: 0.390; the two sent together without waiting: 0.472. This script, against the old read
 * in the same runs: 0.462 (runs 0.43–0.64) vs 0.449 (0.39–0.59), and 0.477 (0.37–0.59) vs 0.416
 * (0.36–0.55); alone, three runs: 0.425, 0.439, 0.505 (runs 0.30–0.69). Per read at 32 in flight,
 * the script costs about 12 µs of Node CPU and 6 µs of Redis CPU, a MULTI of GETEX and ZADD XX
 * 13 µs and 4 µs, two separate commands 21 µs and 4 µs: the script keeps the index repaired (ZADD
 * without XX once the key is known to exist) at the same cost as a MULTI.
 */
import { RedisScript } from "./script.ts";

/**
 * Reads a session and starts its idle TTL again, moving it to the newest end of the index (and of
 * the pending index, when it is there); a session that is gone stays gone (nothing is written for
 * it). KEYS: the session's key, the index, the pending index. ARGV: idle TTL (ms), now (ms),
 * session id. Returns the session's value, or nil.
 */
export const READ_AND_TOUCH = new RedisScript(`
local data = redis.call('GET', KEYS[1])
if not data then return false end
redis.call('PEXPIRE', KEYS[1], ARGV[1])
redis.call('ZADD', KEYS[2], ARGV[2], ARGV[3])
redis.call('ZADD', KEYS[3], 'XX', ARGV[2], ARGV[3])
return data`);

/**
 * {@link READ_AND_TOUCH} for the principal that owns the session only: a session of another
 * principal is returned untouched (its TTL and place in the index stay as they were), so that with
 * auth on a request reads its session in one round trip, and a stranger carrying its id changes
 * nothing. The owner is the `principal` of the stored JSON (a value that does not parse counts as
 * foreign). When it moves the session in the indexes it also starts the TTL of the principal's
 * set of sessions again (see principal-sessions.ts: the set lives while its sessions do). KEYS: as
 * READ_AND_TOUCH, then the principal's set. ARGV: idle TTL (ms), now (ms), session id, principal,
 * '1' to move it in the indexes ('' to start its TTL only, see index-touches.ts), the set's TTL
 * (ms). Returns the session's value, or nil.
 */
export const READ_OWNED = new RedisScript(`
local data = redis.call('GET', KEYS[1])
if not data then return false end
local newline = string.find(data, '\\n', 1, true) or 0
local parsed, session = pcall(cjson.decode, string.sub(data, newline + 1))
if not parsed or type(session) ~= 'table' or session.principal ~= ARGV[4] then return data end
redis.call('PEXPIRE', KEYS[1], ARGV[1])
if ARGV[5] == '1' then
  redis.call('ZADD', KEYS[2], ARGV[2], ARGV[3])
  redis.call('ZADD', KEYS[3], 'XX', ARGV[2], ARGV[3])
  redis.call('PEXPIRE', KEYS[4], ARGV[6])
end
return data`);

/**
 * Replaces an existing session's data with the idle TTL, and moves it to the newest end of the
 * index; a session that ended meanwhile stays ended. A session's value is its revision, a line
 * break, then its JSON; the write is refused when the revision is not the one the data was read
 * at (another request wrote it since). An initialized session leaves the pending index (it never
 * goes back), and its creation time with it; a pending one moves in it. KEYS: the session's key,
 * the index, the pending index, the pending sessions' creation times.
 * ARGV: JSON, idle TTL (ms), now (ms), session id, the revision read ('' to write whatever is
 * there), '1' when the session is initialized. Returns the new revision when stored, 0 when the
 * session is gone, -1 when its revision moved on.
 */
export const REPLACE = new RedisScript(`
local current = redis.call('GET', KEYS[1])
if not current then return 0 end
local revision = tonumber(string.match(current, '^(%d+)\\n')) or 0
if ARGV[5] ~= '' and tonumber(ARGV[5]) ~= revision then return -1 end
revision = revision + 1
redis.call('SET', KEYS[1], revision .. '\\n' .. ARGV[1], 'PX', ARGV[2])
redis.call('ZADD', KEYS[2], ARGV[3], ARGV[4])
if ARGV[6] == '1' then
  if redis.call('ZREM', KEYS[3], ARGV[4]) == 1 then redis.call('ZREM', KEYS[4], ARGV[4]) end
else
  redis.call('ZADD', KEYS[3], 'XX', ARGV[3], ARGV[4])
end
return revision`);
