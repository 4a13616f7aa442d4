/**
 * The Lua scripts of {@link RedisSessionStore}. Each touches one slot of a Redis Cluster: a
 * session's own keys (its record and its subscription set), or the indexes over all sessions. A
 * read a request waits on is one round trip to the session's slot; the index follows it, in a
 * second round trip, only when the read finds the session and the index is due a move
 * (index-touches.ts: at most once per `INDEX_TOUCH_MS` per session and instance).
 *
 * The index follows the keys: it is written after its session's key is known to exist, so a read
 * of an unknown id never adds to it. It may hold an entry whose key is gone (an eviction raced by a
 * read, a process that died between the two writes): such an entry counts toward the cap until it
 * is picked to end or swept as stale, which is the safe way to be wrong (see session-room.ts).
 *
 * Why one script per slot rather than separate commands: a speed change, measured with
 * `redis_legacy_vs_memory` (legacy in-session `tools/call` on the Redis stores against the memory
 * stores, in process, loopback redis-server; `bench/run.mjs --only=redis`, 5 repetitions, median of
 * the paired ratios). Before, a read was GETEX then ZADD, awaited one after the other: 0.390; the
 * two sent together without waiting: 0.472; one script for both: 0.462 and 0.477 against 0.449 and
 * 0.416 in the same runs. Per read at 32 in flight a script costs about 12 µs of Node CPU and 6 µs
 * of Redis CPU, a MULTI 13 µs and 4 µs, two separate commands 21 µs and 4 µs.
 */
import { RedisScript } from "./script.ts";

/**
 * Reads a session and starts its idle TTL again, and its subscription set's; a session that is
 * gone stays gone (nothing is written for it). KEYS: the session's key, its subscription set.
 * ARGV: idle TTL (ms), the set's TTL (ms). Returns the session's value, or nil.
 */
export const READ_AND_KEEP = new RedisScript(`
local data = redis.call('GET', KEYS[1])
if not data then return false end
redis.call('PEXPIRE', KEYS[1], ARGV[1])
redis.call('PEXPIRE', KEYS[2], ARGV[2])
return data`);

/**
 * {@link READ_AND_KEEP} for the principal that owns the session only: a session of another
 * principal is returned untouched (its TTL stays as it was), so that with auth on a request reads
 * its session in one round trip, and a stranger carrying its id changes nothing. The owner is the
 * `principal` of the stored JSON (a value that does not parse counts as foreign).
 * KEYS: as READ_AND_KEEP. ARGV: idle TTL (ms), principal, '1' to start the set's TTL too ('' to
 * start the session's only, see index-touches.ts), the set's TTL (ms). Returns the value, or nil.
 */
export const READ_OWNED = new RedisScript(`
local data = redis.call('GET', KEYS[1])
if not data then return false end
local newline = string.find(data, '\\n', 1, true) or 0
local parsed, session = pcall(cjson.decode, string.sub(data, newline + 1))
if not parsed or type(session) ~= 'table' or session.principal ~= ARGV[2] then return data end
redis.call('PEXPIRE', KEYS[1], ARGV[1])
if ARGV[3] == '1' then redis.call('PEXPIRE', KEYS[2], ARGV[4]) end
return data`);

/**
 * Replaces an existing session's data with the idle TTL; a session that ended meanwhile stays
 * ended. A session's value is its revision, a line break, then its JSON; the write is refused when
 * the revision is not the one the data was read at (another request wrote it since).
 * KEYS: the session's key, its subscription set. ARGV: JSON, idle TTL (ms), the revision read (''
 * to write whatever is there), the set's TTL (ms). Returns the new revision when stored, 0 when the
 * session is gone, -1 when its revision moved on.
 */
export const REPLACE = new RedisScript(`
local current = redis.call('GET', KEYS[1])
if not current then return 0 end
local revision = tonumber(string.match(current, '^(%d+)\\n')) or 0
if ARGV[3] ~= '' and tonumber(ARGV[3]) ~= revision then return -1 end
revision = revision + 1
redis.call('SET', KEYS[1], revision .. '\\n' .. ARGV[1], 'PX', ARGV[2])
redis.call('PEXPIRE', KEYS[2], ARGV[4])
return revision`);

/**
 * Moves a session whose key exists to the newest end of the index, and of the pending index while
 * it is there; an initialized session leaves the pending index for good, and its creation time
 * with it. KEYS: the index, the pending index, the pending sessions' creation times. ARGV: now
 * (ms), session id, '1' when the session is initialized.
 */
export const MOVE_IN_INDEX = new RedisScript(`
redis.call('ZADD', KEYS[1], ARGV[1], ARGV[2])
if ARGV[3] == '1' then
  if redis.call('ZREM', KEYS[2], ARGV[2]) == 1 then redis.call('ZREM', KEYS[3], ARGV[2]) end
else
  redis.call('ZADD', KEYS[2], 'XX', ARGV[1], ARGV[2])
end
return 0`);
