/**
 * Task methods need what calling the task's tool needs, on the `RedisTaskStore` of a real Redis
 * (the store every instance shares): the suites of test/helpers/task-scopes-suite.ts, both wires.
 */
import { afterAll, beforeAll, describe } from "vitest";
import { RedisTaskStore } from "../src/_entries/redis.ts";
import { startRedis, type RunningRedis } from "./helpers/redis-server.ts";
import { REDIS, unavailable } from "./helpers/services.ts";
import { taskScopeSuites } from "./helpers/task-scopes-suite.ts";

describe.skipIf(unavailable(REDIS))("task methods and the tool's access on Redis", () => {
  let redis: RunningRedis;
  beforeAll(async () => {
    redis = await startRedis();
  });
  afterAll(() => redis.stop());
  taskScopeSuites("redis", "h3-v2", async () => new RedisTaskStore({ url: redis.url, prefix: "scopes:" }));
});
