/**
 * Where a Redis test runs: one redis-server (`REDIS_URL` when `.ci/run` started one, else one of the
 * file's own) or a real 3-master Redis Cluster started for the file (redis-cluster.ts). A test
 * written against a target runs unchanged on both: its stores take {@link RedisTarget.options}, its
 * fixture processes {@link RedisTarget.env}, and {@link RedisTarget.watcher} looks at the keys.
 */
import { createClient, createCluster } from "redis";
import { afterAll, beforeAll } from "vitest";
import type { RedisConnectionOptions } from "../../src/_entries/redis.ts";
import { startRedisCluster } from "./redis-cluster.ts";
import { sharedOrOwnRedis } from "./redis-server.ts";

export type RedisTargetKind = "one Redis" | "a Redis Cluster";

/** Both targets, for `describe.each`. */
export const REDIS_TARGETS: readonly RedisTargetKind[] = ["one Redis", "a Redis Cluster"];

/** What a plain node-redis client of either kind offers a test looking at keys. */
export type RedisWatcher = ReturnType<typeof createClient> | ReturnType<typeof createCluster>;

export interface RedisTarget {
  readonly kind: RedisTargetKind;
  /** Connection options for stores in this process, keys under `prefix`. */
  options(prefix: string): RedisConnectionOptions;
  /** The environment a fixture process reads (`REDIS_URL` or `REDIS_CLUSTER_URLS`; the other cleared). */
  readonly env: Record<string, string>;
  /** A connected plain client, to look at keys with; closed by {@link RedisTarget.stop}. */
  watcher(): Promise<RedisWatcher>;
  /** Stops what was started for the file (a shared Redis is left running). */
  stop(): Promise<void>;
}

/** Starts the target (for a cluster: 3 masters, and a replica each when `replicas` is 1). */
export async function startRedisTarget(
  kind: RedisTargetKind,
  cluster: { replicas?: 0 | 1 } = {},
): Promise<RedisTarget> {
  const watchers: RedisWatcher[] = [];
  const watcher = async (client: RedisWatcher): Promise<RedisWatcher> => {
    client.on("error", () => {});
    await client.connect();
    watchers.push(client);
    return client;
  };
  const closeWatchers = async (): Promise<void> => {
    for (const client of watchers.splice(0)) if (client.isOpen) await client.close().catch(() => {});
  };
  if (kind === "one Redis") {
    const redis = await sharedOrOwnRedis();
    return {
      kind,
      options: (prefix) => ({ url: redis.url, prefix }),
      env: { REDIS_URL: redis.url, REDIS_CLUSTER_URLS: "" },
      watcher: () => watcher(createClient({ url: redis.url })),
      stop: async () => {
        await closeWatchers();
        await redis.stop();
      },
    };
  }
  const running = await startRedisCluster({ replicasPerMaster: cluster.replicas ?? 0 });
  return {
    kind,
    options: (prefix) => ({ clusterUrls: running.urls, prefix }),
    env: { REDIS_URL: "", REDIS_CLUSTER_URLS: running.urls.join(",") },
    watcher: () => watcher(createCluster({ rootNodes: running.urls.map((url) => ({ url })) })),
    stop: async () => {
      await closeWatchers();
      await running.stop();
    },
  };
}

/**
 * The target of the suite it is called in: started before the suite's cases, stopped after them.
 * Call it in a `describe` body, once per kind (`describe.each(REDIS_TARGETS)`), and use what it
 * returns in the cases: before the target is started it throws.
 */
export function useRedisTarget(kind: RedisTargetKind): RedisTarget {
  let started: RedisTarget | undefined;
  beforeAll(async () => {
    started = await startRedisTarget(kind);
  }, 60_000);
  afterAll(async () => {
    await started?.stop();
  });
  const current = (): RedisTarget => {
    if (!started) throw new Error(`${kind} is not started yet: use the target inside a case or hook`);
    return started;
  };
  return {
    kind,
    options: (prefix) => current().options(prefix),
    get env() {
      return current().env;
    },
    watcher: () => current().watcher(),
    stop: () => current().stop(),
  };
}
