/**
 * Prefixes for the contract suites' stores on a shared Redis (`REDIS_URL`, or one started for the
 * file): each store its own, all under one prefix of this run, whose keys are deleted at the end.
 */
import { createClient } from "redis";
import { afterAll, beforeAll, describe } from "vitest";
import { sharedOrOwnRedis } from "./redis-server.ts";
import { REDIS, unavailable } from "./services.ts";

export class ContractPrefixes {
  readonly #run = `contract-${process.pid}-${Date.now()}:`;
  #count = 0;

  /** A prefix no other store of any run uses. */
  next(): string {
    return `${this.#run}${++this.#count}:`;
  }

  /** Deletes every key of this run (most expire by themselves; some only after an hour). */
  async clear(url: string): Promise<void> {
    const client = createClient({ url });
    await client.connect();
    try {
      for await (const keys of client.scanIterator({ MATCH: `${this.#run}*`, COUNT: 500 })) {
        if (keys.length > 0) await client.del(keys);
      }
    } finally {
      await client.close();
    }
  }
}

/** What a contract file's stores are made on: the Redis URL (read inside a case) and the run's prefixes. */
export interface ContractRedis {
  readonly url: () => string;
  readonly prefixes: ContractPrefixes;
}

/**
 * Declares `body`'s cases "on Redis": a shared or own redis-server (`REDIS_URL`, else one started
 * for the file), each store under its own prefix, this run's keys deleted and the server let go
 * after. Skipped, said loudly, where redis-server is missing; a failure under CI (helpers/services.ts).
 */
export function describeOnContractRedis(body: (redis: ContractRedis) => void): void {
  let redis: Awaited<ReturnType<typeof sharedOrOwnRedis>> | undefined;
  const prefixes = new ContractPrefixes();
  describe.skipIf(unavailable(REDIS))("on Redis", () => {
    beforeAll(async () => {
      redis = await sharedOrOwnRedis();
    });
    afterAll(async () => {
      if (redis) await prefixes.clear(redis.url);
      await redis?.stop();
    });
    body({ url: () => redis!.url, prefixes });
  });
}
