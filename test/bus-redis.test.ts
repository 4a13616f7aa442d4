/**
 * RedisBus (mcp-h3/redis) against the Bus contract, on a real Redis (`REDIS_URL`, else one started
 * for this file): each instance of a case's network is a RedisBus of its own connections, sharing
 * the case's channel prefix, as two processes would. What only it shows is in redis-stores.test.ts.
 */
import { RedisBus } from "../src/_entries/redis.ts";
import { describeBusContract } from "./helpers/bus-contract.ts";
import { describeOnContractRedis } from "./helpers/redis-contract-keys.ts";

describeOnContractRedis(({ options }) => {
  describeBusContract("RedisBus", () => {
    const shared = options();
    const made: RedisBus[] = [];
    return {
      instance: () => {
        const bus = new RedisBus(shared);
        made.push(bus);
        return bus;
      },
      close: async () => {
        for (const bus of made.splice(0)) await bus.close();
      },
    };
  });
});
