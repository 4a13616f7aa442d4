/**
 * RedisEventStore (mcp-h3/redis) against the EventStore contract, on a real Redis (`REDIS_URL`,
 * else one started for this file). What only it shows (ids from the Redis clock, keys that expire,
 * two instances) is in redis-stores.test.ts and redis-event-ttl.test.ts.
 */
import { afterAll, beforeAll, describe } from "vitest";
import { RedisEventStore } from "../src/_entries/redis.ts";
import { describeEventStoreContract } from "./helpers/event-store-contract.ts";
import { ContractPrefixes } from "./helpers/redis-contract-keys.ts";
import { sharedOrOwnRedis } from "./helpers/redis-server.ts";
import { REDIS, unavailable } from "./helpers/services.ts";

let redis: Awaited<ReturnType<typeof sharedOrOwnRedis>>;
const prefixes = new ContractPrefixes();

// Skipped, said loudly, where redis-server is missing; a failure under CI (helpers/services.ts).
describe.skipIf(unavailable(REDIS))("on Redis", () => {
  beforeAll(async () => {
    redis = await sharedOrOwnRedis();
  });
  afterAll(async () => {
    if (redis) await prefixes.clear(redis.url);
    await redis?.stop();
  });

  describeEventStoreContract(
    "RedisEventStore",
    (bounds) => new RedisEventStore({ url: redis.url, prefix: prefixes.next(), ttlMs: 60_000, ...bounds }),
    { close: (store) => (store as RedisEventStore).close() },
  );
});
