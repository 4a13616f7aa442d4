/**
 * RedisSessionStore (mcp-h3/redis) against the SessionStore contract, on a real Redis (`REDIS_URL`,
 * else one started for this file). What only a shared store shows (two instances, conflicts, the
 * keys' TTLs, a Redis restart) is in redis-stores.test.ts and the other redis-*.test.ts files.
 */
import { afterAll, beforeAll, describe } from "vitest";
import { RedisSessionStore } from "../src/_entries/redis.ts";
import { ContractPrefixes } from "./helpers/redis-contract-keys.ts";
import { sharedOrOwnRedis } from "./helpers/redis-server.ts";
import { describeSessionStoreContract } from "./helpers/session-store-contract.ts";
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

  describeSessionStoreContract(
    "RedisSessionStore",
    (bounds) => new RedisSessionStore({ url: redis.url, prefix: prefixes.next(), ...bounds }),
    {
      close: (store) => (store as RedisSessionStore).close(),
      knownGaps: {
        "onEvict after the TTL": "Redis expires an idle session's key itself, and no instance hears of it",
        "subscriptions end with the TTL":
          "a session's set outlives its expired key by up to 2 s, and isSubscribed asks only the set",
      },
    },
  );
});
