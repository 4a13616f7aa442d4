/**
 * mcp-h3 on the stores of `mcp-h3/redis` (session store, event log and bus on one connection to
 * the bench's own redis-server, `BENCH_REDIS_URL`, on loopback), otherwise the same server as
 * `mcp-h3.mjs`: measured in the Redis scenario only, against mcp-h3 on its memory stores, for
 * `redis_legacy_vs_memory`.
 */
import { H3 } from "h3";
import { RedisBus, RedisConnection, RedisEventStore, RedisSessionStore } from "../../dist/redis.mjs";
import { benchRedisOptions } from "../lib/redis.mjs";
import { createHandler } from "./mcp-h3.mjs";

export const info = {
  name: "mcp-h3-redis",
  label: "mcp-h3 on mcp-h3/redis (loopback redis-server)",
  modern: true,
  nodeServer: null,
  legacy: "session",
};

/** Its own connection and a key prefix of its own, so repetitions never share sessions (`system`: whose Redis). */
export async function create(system = info.name) {
  const connection = new RedisConnection(benchRedisOptions(system, `bench-${process.pid}-${Date.now()}:`));
  const handler = createHandler({
    sessions: { store: new RedisSessionStore({ connection }) },
    events: new RedisEventStore({ connection }),
    bus: new RedisBus({ connection }),
  });
  const app = new H3().all("/mcp", handler);
  return {
    fetch: (request) => app.fetch(request),
    close: async () => {
      await handler.close();
      await connection.close();
    },
  };
}
