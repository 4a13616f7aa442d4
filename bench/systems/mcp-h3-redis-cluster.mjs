/**
 * mcp-h3 on the stores of `mcp-h3/redis` over the bench's own 3-master Redis Cluster
 * (`BENCH_REDIS_CLUSTER_URLS`, on loopback), otherwise the same server as `mcp-h3-redis.mjs`:
 * measured in the Redis scenario only, against mcp-h3 on its memory stores, for
 * `redis_cluster_legacy_vs_memory`.
 */
import { create as createOnRedis } from "./mcp-h3-redis.mjs";

export const info = {
  name: "mcp-h3-redis-cluster",
  label: "mcp-h3 on mcp-h3/redis (loopback 3-master Redis Cluster)",
  modern: true,
  nodeServer: null,
  legacy: "session",
};

/** Its own cluster connection and a key prefix of its own, so repetitions never share sessions. */
export const create = () => createOnRedis(info.name);
