/**
 * The official conformance suite (`--requirements 2025-11-25`) through a round-robin balancer in
 * front of two fixture processes over one Redis (`REDIS_URL=… npm run fixture`, one on h3 v2, one on
 * h3 v1): every request of the suite's sessions may land on either instance. Held to the same pinned
 * per-check totals as the single-process run, with no expected-failures file; first, as the control,
 * against one of the two alone (the Redis stores without the crossing). Then `--requirements
 * 2026-07-28` through the balancer, the ten `tasks-*` scenarios included: a task created on one
 * instance is read, answered and cancelled on the other, on the Redis task store. All three again
 * over a 3-master Redis Cluster (`REDIS_CLUSTER_URLS=…`). Needs `npm run build`.
 */
import { afterAll, beforeAll, describe, expect, it as vitestIt } from "vitest";
import { startFixtureProcess, type FixtureProcess } from "../helpers/fixture-process.ts";
import { REDIS_TARGETS, startRedisTarget, type RedisTarget } from "../helpers/redis-target.ts";
import { startRoundRobin, type RoundRobin } from "../helpers/round-robin.ts";
import { LEGACY_2025_11_25, MODERN_2026_07_28 } from "./expected.ts";
import { judgeRun } from "./judge.ts";
import { runSuite } from "./run-suite.ts";
import { REDIS, unavailable } from "../helpers/services.ts";

// Every suite of this file needs redis-server: skipped, said loudly, where it is missing (helpers/services.ts).
const it = vitestIt.skipIf(unavailable(REDIS));

const RUN_TIMEOUT = 600_000;

describe.each(REDIS_TARGETS)("over %s", (kind) => {
  let redis: RedisTarget;
  let instances: FixtureProcess[] = [];
  let balancer: RoundRobin;

  beforeAll(async () => {
    redis = await startRedisTarget(kind);
    const prefix = `conformance-${process.pid}-${Date.now()}:`;
    instances = await Promise.all([
      startFixtureProcess({ redis: redis.env, prefix, instance: "A", h3: "v2" }),
      startFixtureProcess({ redis: redis.env, prefix, instance: "B", h3: "v1" }),
    ]);
    balancer = await startRoundRobin(instances.map((instance) => instance.url));
  }, 60_000);

  afterAll(async () => {
    await balancer?.close();
    await Promise.all(instances.map((instance) => instance.kill()));
    await redis?.stop();
  });

  it(
    "the control: --requirements 2025-11-25 against instance A alone, on the Redis stores, exactly the pinned checks",
    { timeout: RUN_TIMEOUT },
    async () => {
      const result = await runSuite(instances[0]!.url, ["--requirements", "2025-11-25"]);
      expect(judgeRun(result, LEGACY_2025_11_25), result.output).toEqual([]);
    },
  );

  it(
    "legacy: --requirements 2025-11-25 through the balancer, exactly the pinned checks",
    { timeout: RUN_TIMEOUT },
    async () => {
      const result = await runSuite(balancer.url, ["--requirements", "2025-11-25"]);
      expect(judgeRun(result, LEGACY_2025_11_25), result.output).toEqual([]);
      // Both instances served the run.
      expect(new Set(balancer.served)).toEqual(new Set([0, 1]));
    },
  );

  it(
    "modern: --requirements 2026-07-28 through the balancer, the tasks-* scenarios included, exactly the pinned checks",
    { timeout: RUN_TIMEOUT },
    async () => {
      const result = await runSuite(balancer.url, ["--requirements", "2026-07-28"]);
      expect(judgeRun(result, MODERN_2026_07_28), result.output).toEqual([]);
    },
  );
});
