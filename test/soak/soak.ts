/**
 * The soak: legacy sessions over two fixture processes on one Redis, behind a round-robin balancer,
 * each session holding a GET stream and calling tools that report progress, while one instance is
 * SIGKILLed and started again and Redis is restarted once. Redis runs with an append-only file
 * fsynced on every write (`appendfsync always`) in a temporary directory: a restarted Redis without
 * persistence would come back empty, every session gone, and the soak would measure that instead of
 * the library. With it, what Redis acknowledged survives even its SIGKILL.
 *
 * On a Redis Cluster (three masters, a replica each) the Redis fault is a resharding instead: 2,000
 * slots, with their sessions, logs and indexes, move from one master to another (`redis-cli
 * --cluster reshard`, key by key with MIGRATE) while the sessions stream.
 *
 * `npm run soak` runs 200 sessions (test/soak/run.ts); `test/soak.test.ts` a bounded variant.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { startFixtureProcess } from "../helpers/fixture-process.ts";
import { startRedisCluster, type RunningCluster } from "../helpers/redis-cluster.ts";
import { startRedis, type RunningRedis } from "../helpers/redis-server.ts";
import { startRoundRobin } from "../helpers/round-robin.ts";
import { createClient, createCluster } from "redis";
import type { RedisWatcher } from "../helpers/redis-target.ts";
import { Ledger, type LedgerCounts } from "./ledger.ts";
import { SessionWorker, type WorkerCounts } from "./session-worker.ts";

export interface SoakOptions {
  sessions: number;
  /** How long the sessions call tools (the faults happen inside it). */
  durationMs: number;
  /** Progress lines while it runs (the CLI prints them; the test does not). */
  log?: (line: string) => void;
  /** Where the stores are: one Redis (restarted mid-run, the default) or a Redis Cluster (slots moved mid-run). */
  cluster?: boolean;
  /** On a cluster, a master is also SIGKILLed after the move, and its replica takes over. */
  failover?: boolean;
}

export interface SoakReport extends LedgerCounts, WorkerCounts {
  sessions: number;
  durationMs: number;
  instanceKilled: boolean;
  /** What happened to Redis mid-run ("" when the run ended before). */
  redisFault: string;
  /** Examples of duplicated or lost events (empty when none). */
  examples: string[];
  /** Instances that exited without being killed, with the end of what they printed. */
  crashes: string[];
}

const pause = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));

/** Opens `count` sessions, `batch` at a time (a burst of hundreds of initialize is not what is tested). */
async function openAll(workers: SessionWorker[], batch = 25): Promise<void> {
  for (let start = 0; start < workers.length; start += batch) {
    await Promise.all(workers.slice(start, start + batch).map((worker) => worker.open()));
  }
}

/** The Redis of a soak: what the fixture processes read, its fault, a client to read the log with. */
interface SoakRedis {
  env: Record<string, string>;
  /** Does the run's Redis fault; resolves with what happened, once Redis serves again. */
  fault(log: (line: string) => void): Promise<string>;
  watcher(): Promise<RedisWatcher>;
  stop(): Promise<void>;
}

/** One redis-server with an append-only file, SIGKILLed and started again on the same port and file. */
async function oneRedis(): Promise<SoakRedis> {
  const dataDir = mkdtempSync(join(tmpdir(), "mcp-h3-soak-redis-"));
  let redis: RunningRedis = await startRedis(undefined, { persistDir: dataDir });
  return {
    env: { REDIS_URL: redis.url, REDIS_CLUSTER_URLS: "" },
    fault: async (log) => {
      log("restarting Redis");
      await redis.stop();
      log("Redis stopped");
      await pause(500);
      redis = await startRedis(redis.port, { persistDir: dataDir });
      log("Redis is back");
      return "restarted";
    },
    watcher: () => connected(createClient({ url: redis.url })),
    stop: async () => {
      await redis.stop();
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

/**
 * Slots moved in the cluster's fault: over a third of one master's (each holds 5,461), not all, so
 * it keeps serving slots and voting: a failover needs the votes of most masters that serve slots.
 */
const MOVED_SLOTS = 2_000;

/** Three masters with a replica each; the fault moves slots from one master to another. */
async function clusterRedis(failover: boolean): Promise<SoakRedis> {
  const cluster: RunningCluster = await startRedisCluster({ replicasPerMaster: 1 });
  const [from, to] = cluster.masterPorts as [number, number];
  return {
    env: { REDIS_URL: "", REDIS_CLUSTER_URLS: cluster.urls.join(",") },
    fault: async (log) => {
      log(`moving ${MOVED_SLOTS} slots from master ${from} to master ${to}`);
      const started = Date.now();
      await cluster.moveSlots(MOVED_SLOTS, from, to);
      log(`slots moved in ${((Date.now() - started) / 1000).toFixed(1)} s`);
      if (!failover) return `${MOVED_SLOTS} slots moved`;
      const dead = cluster.masterPorts[2]!;
      log(`SIGKILL master ${dead}`);
      const killed = Date.now();
      await cluster.kill(dead);
      await cluster.failedOver(dead, from);
      log(`its replica took over in ${((Date.now() - killed) / 1000).toFixed(1)} s`);
      return `${MOVED_SLOTS} slots moved, then a master killed and its replica promoted`;
    },
    watcher: () => connected(createCluster({ rootNodes: cluster.urls.map((url) => ({ url })) })),
    stop: () => cluster.stop(),
  };
}

async function connected(client: RedisWatcher): Promise<RedisWatcher> {
  client.on("error", () => {});
  await client.connect();
  return client;
}

/** Runs the soak and reports what the clients received against what the server logged. */
export async function runSoak(options: SoakOptions): Promise<SoakReport> {
  const log = options.log ?? (() => {});
  const redis = options.cluster ? await clusterRedis(options.failover ?? false) : await oneRedis();
  const prefix = `soak-${process.pid}-${Date.now()}:`;
  const crashes: string[] = [];
  const onCrash = (instance: string, stderr: string): void => {
    crashes.push(`instance ${instance} crashed: ${stderr.slice(-2_000)}`);
    log(crashes.at(-1)!);
  };
  const instances = await Promise.all([
    startFixtureProcess({ redis: redis.env, prefix, instance: "A", h3: "v2", onCrash }),
    startFixtureProcess({ redis: redis.env, prefix, instance: "B", h3: "v1", onCrash }),
  ]);
  const balancer = await startRoundRobin(instances.map((instance) => instance.url));
  const ledger = new Ledger();
  let over = false;
  const workers = Array.from({ length: options.sessions }, () => new SessionWorker(balancer.url, ledger, () => over));
  const report = { instanceKilled: false, redisFault: "" };
  try {
    await openAll(workers);
    log(`${workers.length} sessions open, each with its GET stream`);
    const started = Date.now();
    const running = Promise.all(workers.map((worker) => worker.run()));

    // The faults, one after the other inside the run: instance A dies and comes back, then Redis.
    await pause(options.durationMs * 0.25);
    log("SIGKILL instance A");
    await instances[0]!.kill();
    await pause(1_000);
    await instances[0]!.restart();
    report.instanceKilled = true;
    log("instance A started again");
    await pause(options.durationMs * 0.25);
    report.redisFault = await redis.fault(log);
    await pause(Math.max(0, started + options.durationMs - Date.now()));

    over = true;
    await running;
    log("calls done; final resumption of every GET stream");
    await Promise.all(workers.map((worker) => worker.finish()));
    const watcher = await redis.watcher();
    const counts = await ledger.settle(watcher, prefix).finally(() => watcher.close());
    const totals: WorkerCounts = { calls: 0, interruptedCalls: 0, resumptions: 0, retries: 0, sessionsLost: 0 };
    for (const worker of workers) {
      for (const key of Object.keys(totals) as (keyof WorkerCounts)[]) totals[key] += worker.counts[key];
    }
    return {
      sessions: workers.length,
      durationMs: Date.now() - started,
      ...report,
      ...totals,
      ...counts,
      examples: ledger.examples,
      crashes,
    };
  } finally {
    over = true;
    // After a failure too, every stream is closed before the processes go; bounded, so a fault
    // in the middle of the run is reported rather than waited on.
    await Promise.race([Promise.allSettled(workers.map((worker) => worker.finish())), pause(15_000)]);
    await balancer.close();
    await Promise.all(instances.map((instance) => instance.kill()));
    await redis.stop();
  }
}

/** The report as the CLI prints it. */
export function formatReport(report: SoakReport): string {
  return [
    `sessions            ${report.sessions} (GET stream each; lost by the server: ${report.sessionsLost})`,
    `duration            ${(report.durationMs / 1000).toFixed(1)} s`,
    `faults              instance SIGKILLed and restarted: ${report.instanceKilled}; Redis: ${report.redisFault || "no fault"}`,
    `calls               ${report.calls} answered, ${report.interruptedCalls} interrupted (their handler died with its instance)`,
    `events delivered    ${report.delivered} (distinct ids, over ${report.streams} streams; ${report.logged} in the server's log)`,
    `resumptions         ${report.resumptions} (Last-Event-ID); requests sent again after 502/503/refusal: ${report.retries}`,
    `unkept              ${report.unkept} (sent while Redis was away: id sequence 0, never replayable)`,
    `kept, sent unkept   ${report.keptUnderAnotherId} (Redis kept the append but its answer was lost: delivered live as /0; a resumption from before it would repeat it)`,
    `lost                ${report.lost}`,
    `duplicated          ${report.duplicated}`,
    `instance crashes    ${report.crashes.length}`,
    ...report.examples.map((example) => `  ${example}`),
    ...report.crashes.map((crash) => `  ${crash}`),
  ].join("\n");
}
