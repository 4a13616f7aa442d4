/**
 * The soak: legacy sessions over two fixture processes on one Redis, behind a round-robin balancer,
 * each session holding a GET stream and calling tools that report progress, while one instance is
 * SIGKILLed and started again and Redis is restarted once. Redis runs with an append-only file
 * fsynced on every write (`appendfsync always`) in a temporary directory: a restarted Redis without
 * persistence would come back empty, every session gone, and the soak would measure that instead of
 * the library. With it, what Redis acknowledged survives even its SIGKILL.
 *
 * `npm run soak` runs 200 sessions (test/soak/run.ts); `test/soak.test.ts` a bounded variant.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { startFixtureProcess } from "../helpers/fixture-process.ts";
import { startRedis } from "../helpers/redis-server.ts";
import { startRoundRobin } from "../helpers/round-robin.ts";
import { Ledger, type LedgerCounts } from "./ledger.ts";
import { SessionWorker, type WorkerCounts } from "./session-worker.ts";

export interface SoakOptions {
  sessions: number;
  /** How long the sessions call tools (the faults happen inside it). */
  durationMs: number;
  /** Progress lines while it runs (the CLI prints them; the test does not). */
  log?: (line: string) => void;
}

export interface SoakReport extends LedgerCounts, WorkerCounts {
  sessions: number;
  durationMs: number;
  instanceKilled: boolean;
  redisRestarted: boolean;
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

/** Runs the soak and reports what the clients received against what the server logged. */
export async function runSoak(options: SoakOptions): Promise<SoakReport> {
  const log = options.log ?? (() => {});
  const dataDir = mkdtempSync(join(tmpdir(), "mcp-h3-soak-redis-"));
  let redis = await startRedis(undefined, { persistDir: dataDir });
  const prefix = `soak-${process.pid}-${Date.now()}:`;
  const crashes: string[] = [];
  const onCrash = (instance: string, stderr: string): void => {
    crashes.push(`instance ${instance} crashed: ${stderr.slice(-2_000)}`);
    log(crashes.at(-1)!);
  };
  const instances = await Promise.all([
    startFixtureProcess({ redis: redis.url, prefix, instance: "A", h3: "v2", onCrash }),
    startFixtureProcess({ redis: redis.url, prefix, instance: "B", h3: "v1", onCrash }),
  ]);
  const balancer = await startRoundRobin(instances.map((instance) => instance.url));
  const ledger = new Ledger();
  let over = false;
  const workers = Array.from({ length: options.sessions }, () => new SessionWorker(balancer.url, ledger, () => over));
  const report = { instanceKilled: false, redisRestarted: false };
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
    log("restarting Redis");
    await redis.stop();
    log("Redis stopped");
    await pause(500);
    redis = await startRedis(redis.port, { persistDir: dataDir });
    report.redisRestarted = true;
    log("Redis is back");
    await pause(Math.max(0, started + options.durationMs - Date.now()));

    over = true;
    await running;
    log("calls done; final resumption of every GET stream");
    await Promise.all(workers.map((worker) => worker.finish()));
    const counts = await ledger.settle(redis.url, prefix);
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
    rmSync(dataDir, { recursive: true, force: true });
  }
}

/** The report as the CLI prints it. */
export function formatReport(report: SoakReport): string {
  return [
    `sessions            ${report.sessions} (GET stream each; lost by the server: ${report.sessionsLost})`,
    `duration            ${(report.durationMs / 1000).toFixed(1)} s`,
    `faults              instance SIGKILLed and restarted: ${report.instanceKilled}; Redis restarted: ${report.redisRestarted}`,
    `calls               ${report.calls} answered, ${report.interruptedCalls} interrupted (their handler died with its instance)`,
    `events delivered    ${report.delivered} (distinct ids, over ${report.streams} streams)`,
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
