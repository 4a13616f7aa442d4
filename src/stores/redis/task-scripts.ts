/**
 * The Lua scripts of {@link RedisTaskStore}, each on one Redis Cluster slot: a task's hash
 * (`{task:<id>}`), the index of all tasks by expiry (`{tasks}`, the cap in all), or an owner's two
 * indexes (`{owner:<name>}`, by creation for `list` and by expiry for its cap). A create takes its
 * places in both indexes and writes the hash, three scripts sent at once (task-store.ts says how a
 * refused one is undone); an update checks that the task is not terminal and changes it; a page
 * is read from a cursor in the owner's indexes, then the hashes of its tasks.
 *
 * A task is a hash whose fields hold the JSON text of the record's fields: the scripts compare the
 * `status` field's text and never decode the rest, so a result goes back to the client byte for
 * byte (Lua's cjson would turn an empty array into an object).
 */
import { RedisScript } from "./script.ts";

/**
 * Takes a place among all tasks: expired entries leave first, so they take no room. KEYS: all
 * tasks by expiry. ARGV: now (ms), the most tasks, when the task expires (ms), its id. Answers 1
 * when placed, 0 at the cap, -1 when the id is there already (nothing changed but the sweep).
 */
export const PLACE_TASK = new RedisScript(`
redis.call('ZREMRANGEBYSCORE', KEYS[1], '-inf', ARGV[1])
if redis.call('ZSCORE', KEYS[1], ARGV[4]) then return -1 end
if redis.call('ZCARD', KEYS[1]) >= tonumber(ARGV[2]) then return 0 end
redis.call('ZADD', KEYS[1], ARGV[3], ARGV[4])
return 1`);

/**
 * Takes a place among an owner's tasks: its expired tasks leave both indexes first. The indexes
 * live as long as the owner's longest-lived task. KEYS: the owner's tasks by creation, by expiry.
 * ARGV: now (ms), the owner's most, the task's createdAt, when it expires (ms), its TTL from now
 * (ms), its id. Answers as {@link PLACE_TASK}.
 */
export const PLACE_OWNED_TASK = new RedisScript(`
local expired = redis.call('ZRANGEBYSCORE', KEYS[2], '-inf', ARGV[1])
for _, id in ipairs(expired) do redis.call('ZREM', KEYS[1], id) end
redis.call('ZREMRANGEBYSCORE', KEYS[2], '-inf', ARGV[1])
if redis.call('ZSCORE', KEYS[2], ARGV[6]) then return -1 end
if redis.call('ZCARD', KEYS[2]) >= tonumber(ARGV[2]) then return 0 end
redis.call('ZADD', KEYS[1], ARGV[3], ARGV[6])
redis.call('ZADD', KEYS[2], ARGV[4], ARGV[6])
for i = 1, 2 do
  if redis.call('PTTL', KEYS[i]) < tonumber(ARGV[5]) then redis.call('PEXPIRE', KEYS[i], ARGV[5]) end
end
return 1`);

/**
 * Writes a new task's hash unless one is there. KEYS: the task's hash. ARGV: its TTL from now (ms),
 * then the hash's field/value pairs. Answers 1 when written, -1 when the id is taken.
 */
export const STORE_TASK = new RedisScript(`
if redis.call('EXISTS', KEYS[1]) == 1 then return -1 end
redis.call('HSET', KEYS[1], unpack(ARGV, 2))
redis.call('PEXPIRE', KEYS[1], ARGV[1])
return 1`);

/**
 * Changes a task that exists and is not terminal, and answers it as it is now (HGETALL's pairs);
 * answers nil, changing nothing, for a task that is gone or terminal. KEYS: the task's hash.
 * ARGV: lastUpdatedAt (JSON), the number n of fields set, n field/value pairs, then the fields
 * removed.
 */
export const UPDATE_TASK = new RedisScript(`
local status = redis.call('HGET', KEYS[1], 'status')
if not status then return false end
if status == '"completed"' or status == '"failed"' or status == '"cancelled"' then return false end
local n = tonumber(ARGV[2])
redis.call('HSET', KEYS[1], 'lastUpdatedAt', ARGV[1], unpack(ARGV, 3, 2 + 2 * n))
for i = 3 + 2 * n, #ARGV do redis.call('HDEL', KEYS[1], ARGV[i]) end
return redis.call('HGETALL', KEYS[1])`);

/**
 * The ids of one page of the owner's tasks, in the order of (createdAt, id), after a cursor's
 * position. The position is found in O(log n) whether its task still exists or not: its member is
 * added for the moment of a ZRANK (and taken out again in the same script, so nobody sees it).
 * KEYS: the owner's tasks by creation, by expiry. ARGV: now (ms), the cursor's createdAt ('' for
 * the first page), its task id, the page's size. Answers { 1 when more follow, id, createdAt, … }.
 */
export const LIST_TASKS = new RedisScript(`
local expired = redis.call('ZRANGEBYSCORE', KEYS[2], '-inf', ARGV[1])
for _, id in ipairs(expired) do redis.call('ZREM', KEYS[1], id) end
redis.call('ZREMRANGEBYSCORE', KEYS[2], '-inf', ARGV[1])
local limit = tonumber(ARGV[4])
local start = 0
if ARGV[2] ~= '' then
  local added = redis.call('ZADD', KEYS[1], 'NX', ARGV[2], ARGV[3])
  start = redis.call('ZRANK', KEYS[1], ARGV[3])
  if added == 1 then redis.call('ZREM', KEYS[1], ARGV[3]) else start = start + 1 end
end
local ids = redis.call('ZRANGE', KEYS[1], start, start + limit, 'WITHSCORES')
local page = { #ids / 2 > limit and 1 or 0 }
for i = 1, math.min(#ids, 2 * limit) do page[#page + 1] = ids[i] end
return page`);
