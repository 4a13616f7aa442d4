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
 * Reads a session and starts its idle TTL again, moving it to the newest end of the index; a
 * session that is gone stays gone (nothing is written for it). KEYS: the session's key, the index.
 * ARGV: idle TTL (ms), now (ms), session id. Returns the session's JSON, or nil.
 */
export const READ_AND_TOUCH = new RedisScript(`
local data = redis.call('GET', KEYS[1])
if not data then return false end
redis.call('PEXPIRE', KEYS[1], ARGV[1])
redis.call('ZADD', KEYS[2], ARGV[2], ARGV[3])
return data`);

/**
 * Replaces an existing session's data with the idle TTL, and moves it to the newest end of the
 * index; a session that ended meanwhile stays ended. A session's value is its revision, a line
 * break, then its JSON; the write is refused when the revision is not the one the data was read
 * at (another request wrote it since). KEYS: the session's key, the index. ARGV: JSON, idle TTL
 * (ms), now (ms), session id, the revision read ('' to write whatever is there). Returns the new
 * revision when stored, 0 when the session is gone, -1 when its revision moved on.
 */
export const REPLACE = new RedisScript(`
local current = redis.call('GET', KEYS[1])
if not current then return 0 end
local revision = tonumber(string.match(current, '^(%d+)\\n')) or 0
if ARGV[5] ~= '' and tonumber(ARGV[5]) ~= revision then return -1 end
revision = revision + 1
redis.call('SET', KEYS[1], revision .. '\\n' .. ARGV[1], 'PX', ARGV[2])
redis.call('ZADD', KEYS[2], ARGV[3], ARGV[4])
return revision`);

/**
 * Stores a new session when the index, once rid of its stale entries (older than a session's key
 * can live: their keys expired), has room for it. KEYS: the session's key, the index. ARGV: its
 * value (revision 1, see REPLACE), idle TTL (ms), now (ms), session id, most sessions, age of a
 * stale entry (ms). Returns 1 when stored, 0 when the store is full (then nothing is written but
 * the sweep: the caller makes room by its own rules and stores it).
 */
export const CREATE_IF_ROOM = new RedisScript(`
redis.call('ZREMRANGEBYSCORE', KEYS[2], 0, tonumber(ARGV[3]) - tonumber(ARGV[6]))
if redis.call('ZCARD', KEYS[2]) >= tonumber(ARGV[5]) then return 0 end
redis.call('SET', KEYS[1], ARGV[1], 'PX', ARGV[2])
redis.call('ZADD', KEYS[2], ARGV[3], ARGV[4])
return 1`);
