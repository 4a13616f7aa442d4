/**
 * RedisBus (mcp-h3/redis) against the Bus contract, on a real Redis (`REDIS_URL`, else one started
 * for this file): each instance of a case's network is a RedisBus of its own connections, sharing
 * the case's channel prefix, as two processes would. What only it shows is in redis-stores.test.ts.
 */
import { afterAll, beforeAll, describe } from "vitest";
import { RedisBus } from "../src/_entries/redis.ts";
import { describeBusContract } from "./helpers/bus-contract.ts";
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
    await redis?.stop();
  });

  describeBusContract("RedisBus", () => {
    const prefix = prefixes.next();
    const made: RedisBus[] = [];
    return {
      instance: () => {
        const bus = new RedisBus({ url: redis.url, prefix });
        made.push(bus);
        return bus;
      },
      close: async () => {
        for (const bus of made.splice(0)) await bus.close();
      },
    };
  });
});
