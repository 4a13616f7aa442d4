/**
 * The Lua scripts of {@link RedisTaskStore}: a create checks both caps and writes the task with its
 * index entries, an update checks that the task is not terminal and changes it, and a page is read
 * from a cursor, each in one round trip and atomically for every instance sharing the Redis.
 *
 * A task is a hash whose fields hold the JSON text of the record's fields: the scripts compare the
 * `status` field's text and never decode the rest, so a result goes back to the client byte for
 * byte (Lua's cjson would turn an empty array into an object).
 */
import { RedisScript } from "./script.ts";

/**
 * Stores a new task unless its id is taken (-1) or a cap is reached (0: the most tasks in all, or
 * the owner's most); answers 1 when stored. Expired entries leave the indexes first, so they take
 * no room (the owner's expired tasks leave its two indexes, all expired
 * tasks the index by expiry). The owner's indexes live as long as its longest-lived task.
 * KEYS: the task's hash, all tasks by expiry, the owner's tasks by creation, the owner's tasks by
 * expiry. ARGV: now (ms), the most tasks, the owner's most, the task's TTL from now (ms), when it
 * expires (ms), its createdAt, its id, then the hash's field/value pairs.
 */
export const CREATE_TASK = new RedisScript(`
local expired = redis.call('ZRANGEBYSCORE', KEYS[4], '-inf', ARGV[1])
for _, id in ipairs(expired) do redis.call('ZREM', KEYS[3], id) end
redis.call('ZREMRANGEBYSCORE', KEYS[4], '-inf', ARGV[1])
if redis.call('EXISTS', KEYS[1]) == 1 then return -1 end
redis.call('ZREMRANGEBYSCORE', KEYS[2], '-inf', ARGV[1])
if redis.call('ZCARD', KEYS[2]) >= tonumber(ARGV[2]) then return 0 end
if redis.call('ZCARD', KEYS[3]) >= tonumber(ARGV[3]) then return 0 end
redis.call('HSET', KEYS[1], unpack(ARGV, 8))
redis.call('PEXPIRE', KEYS[1], ARGV[4])
redis.call('ZADD', KEYS[2], ARGV[5], ARGV[7])
redis.call('ZADD', KEYS[3], ARGV[6], ARGV[7])
redis.call('ZADD', KEYS[4], ARGV[5], ARGV[7])
for i = 3, 4 do
  if redis.call('PTTL', KEYS[i]) < tonumber(ARGV[4]) then redis.call('PEXPIRE', KEYS[i], ARGV[4]) end
end
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
 * One page of the owner's tasks, in the order of (createdAt, id), after a cursor's position. The
 * position is found in O(log n) whether its task still exists or not: its member is added for the
 * moment of a ZRANK (and taken out again in the same script, so nobody sees it).
 * KEYS: the owner's tasks by creation, the owner's tasks by expiry. ARGV: now (ms), the cursor's
 * createdAt ('' for the first page), its task id, the page's size, the prefix of task hashes.
 * Answers { 1 when more follow, {id, createdAt, the task's HGETALL pairs}... } (the pairs are
 * empty for a task expiring this very moment).
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
local page = {}
for i = 1, math.min(#ids / 2, limit) do
  local id = ids[2 * i - 1]
  page[i] = { id, ids[2 * i], redis.call('HGETALL', ARGV[5] .. id) }
end
return { #ids / 2 > limit and 1 or 0, page }`);
