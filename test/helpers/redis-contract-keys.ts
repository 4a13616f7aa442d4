/**
 * Prefixes for the contract suites' stores on a shared Redis (`REDIS_URL`, or one started for the
 * file) and on a Redis Cluster started for the file: each store its own, all under one prefix of
 * this run, whose keys are deleted at the end.
 */
import type { createClient } from "redis";
import { afterAll, describe } from "vitest";
import type { RedisConnectionOptions } from "../../src/_entries/redis.ts";
import { REDIS_TARGETS, useRedisTarget, type RedisTarget } from "./redis-target.ts";
import { REDIS, unavailable } from "./services.ts";

export class ContractPrefixes {
  readonly #run = `contract-${process.pid}-${Date.now()}:`;
  #count = 0;

  /** A prefix no other store of any run uses. */
  next(): string {
    return `${this.#run}${++this.#count}:`;
  }

  /** Deletes every key of this run on a shared Redis (most expire by themselves; some only after an hour). */
  async clear(target: RedisTarget): Promise<void> {
    if (target.kind === "a Redis Cluster") return; // The file's own: it goes whole.
    const client = (await target.watcher()) as ReturnType<typeof createClient>;
    for await (const keys of client.scanIterator({ MATCH: `${this.#run}*`, COUNT: 500 })) {
      if (keys.length > 0) await client.del(keys);
    }
  }
}

/** What a contract file's stores are made on: connection options with a fresh prefix (read inside a case). */
export interface ContractRedis {
  /** Options for one store: the target's connection and a prefix no other store uses. */
  readonly options: () => RedisConnectionOptions;
}

/**
 * Declares `body`'s cases "on one Redis" (`REDIS_URL`, else one started for the file) and again
 * "on a Redis Cluster" (three masters started for the file), each store under its own prefix, this
 * run's keys deleted and what was started let go after. Skipped, said loudly, where redis-server is
 * missing; a failure under CI (helpers/services.ts).
 */
export function describeOnContractRedis(body: (redis: ContractRedis) => void): void {
  describe.skipIf(unavailable(REDIS)).each(REDIS_TARGETS)("on %s", (kind) => {
    const target = useRedisTarget(kind);
    const prefixes = new ContractPrefixes();
    // Registered after the target's own afterAll, so it runs before it (vitest runs them in reverse).
    afterAll(() => prefixes.clear(target));
    body({ options: () => target.options(prefixes.next()) });
  });
}
