/**
 * mcp-h3/redis: the session store, the event log and the bus on one Redis, so several instances
 * serve the same clients; and the task store (`RedisTaskStore`), so any instance answers for a task.
 * Give them all one {@link RedisConnection} (`{ connection }`) to share its connections.
 *
 * @example
 * import { RedisBus, RedisConnection, RedisEventStore, RedisSessionStore } from "mcp-h3/redis";
 * const redis = new RedisConnection({ url: process.env.REDIS_URL });
 * defineMcpHandler({
 *   name: "app",
 *   version: "1.0.0",
 *   sessions: { store: new RedisSessionStore({ connection: redis }) },
 *   events: new RedisEventStore({ connection: redis }),
 *   bus: new RedisBus({ connection: redis }),
 * });
 */
export { RedisConnection, type RedisClient, type RedisConnectionOptions } from "../stores/redis/connection.ts";
export { RedisSessionStore } from "../stores/redis/session-store.ts";
export type { RedisSessionStoreOptions } from "../stores/redis/session-options.ts";
export { RedisEventStore, type RedisEventStoreOptions } from "../stores/redis/event-store.ts";
export { RedisBus } from "../stores/redis/bus.ts";
export { RedisTaskStore, type RedisTaskStoreOptions } from "../stores/redis/task-store.ts";
