/**
 * Prefixes for the contract suites' stores on a shared Redis (`REDIS_URL`, or one started for the
 * file): each store its own, all under one prefix of this run, whose keys are deleted at the end.
 */
import { createClient } from "redis";

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
