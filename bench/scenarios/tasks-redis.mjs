/**
 * Child process: `tasks/get` of a finished task on the Redis task store (`RedisTaskStore` of
 * `mcp-h3/redis`, its own connection to the bench's redis-server, `BENCH_REDIS_URL`, on loopback)
 * against the same on the memory store, two servers in one process, in short alternating windows
 * (lib/load-windows.mjs, the pair `redis/memory`). Both are mcp-h3 with the tasks extension; the
 * finished tasks each reads are made on it through HTTP before each of its windows, one per worker.
 * A `tasks/get` on Redis is one HGETALL. Payload: { rep, concurrency: 32, warmupMs, windowMs, pairs }.
 * Prints `tasks/get`/s per store over all windows, the windows and `failedResponses` (any answer not
 * the finished task with the echo inline, warm-up included).
 */
import { childPayload } from "../lib/child.mjs";
import { alternateLoads, perSecond } from "../lib/load-windows.mjs";
import { round } from "../lib/stats.mjs";
import { taskLoads } from "../lib/task-load.mjs";
import { RedisConnection, RedisTaskStore } from "../../dist/redis.mjs";
import { create } from "../systems/mcp-h3-tasks.mjs";

const { rep = 0, concurrency = 32, warmupMs = 500, windowMs = 500, pairs = 6 } = childPayload();
const url = process.env.BENCH_REDIS_URL;
if (!url) throw new Error("BENCH_REDIS_URL is not set: the runner starts redis-server for this scenario");

// A key prefix of its own, so repetitions never share tasks.
const connection = new RedisConnection({ url, prefix: `bench-tasks-${process.pid}-${Date.now()}:` });
const onRedis = await create({ store: new RedisTaskStore({ connection }) });
const inMemory = await create();
const loads = { redis: taskLoads(onRedis), memory: taskLoads(inMemory) };

const {
  failedResponses,
  totals,
  pairs: windows,
} = await alternateLoads({
  loads: { redis: loads.redis.taskGet, memory: loads.memory.taskGet },
  compared: [["redis", "memory"]],
  rep,
  concurrency,
  warmupMs,
  windowMs,
  pairs,
  before: (name) => loads[name].prepareTargets(concurrency),
});
const redis = perSecond(totals.redis);
const memory = perSecond(totals.memory);
console.log(
  JSON.stringify({
    system: "mcp-h3",
    failedResponses,
    redisGetsPerS: round(redis, 1),
    memoryGetsPerS: round(memory, 1),
    redisVsMemory: redis / memory,
    pairs: windows,
  }),
);
await Promise.all([onRedis.close(), inMemory.close()]);
await connection.close();
process.exit(0);
