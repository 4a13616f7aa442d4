/**
 * RedisEventStore (mcp-h3/redis) against the EventStore contract, on a real Redis (`REDIS_URL`,
 * else one started for this file). What only it shows (ids from the Redis clock, keys that expire,
 * two instances) is in redis-stores.test.ts and redis-event-ttl.test.ts.
 */
import { RedisEventStore } from "../src/_entries/redis.ts";
import { describeEventStoreContract } from "./helpers/event-store-contract.ts";
import { describeOnContractRedis } from "./helpers/redis-contract-keys.ts";

describeOnContractRedis(({ options }) => {
  describeEventStoreContract(
    "RedisEventStore",
    (bounds) => new RedisEventStore({ ...options(), ttlMs: 60_000, ...bounds }),
    { close: (store) => (store as RedisEventStore).close() },
  );
});
