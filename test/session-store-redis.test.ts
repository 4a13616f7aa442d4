/**
 * RedisSessionStore (mcp-h3/redis) against the SessionStore contract, on a real Redis (`REDIS_URL`,
 * else one started for this file). What only a shared store shows (two instances, conflicts, the
 * keys' TTLs, a Redis restart) is in redis-stores.test.ts and the other redis-*.test.ts files.
 */
import { RedisSessionStore } from "../src/_entries/redis.ts";
import { describeOnContractRedis } from "./helpers/redis-contract-keys.ts";
import { describeSessionStoreContract } from "./helpers/session-store-contract.ts";

describeOnContractRedis(({ options }) => {
  describeSessionStoreContract("RedisSessionStore", (bounds) => new RedisSessionStore({ ...options(), ...bounds }), {
    close: (store) => (store as RedisSessionStore).close(),
    knownGaps: {
      "onEvict after the TTL": "Redis expires an idle session's key itself, and no instance hears of it",
      "subscriptions end with the TTL":
        "a session's set outlives its expired key by up to 2 s, and isSubscribed asks only the set",
    },
  });
});
