/**
 * `npm run soak`: 200 concurrent legacy sessions over two fixture instances on one Redis, behind a
 * round-robin balancer, for 60 s, with one instance SIGKILLed and restarted and Redis restarted once;
 * prints what was delivered, lost and duplicated, and exits 1 unless lost and duplicated are 0.
 * `--sessions=N` and `--seconds=N` change the size; `--cluster` runs it on a 3-master Redis Cluster
 * (a replica each) whose slots move mid-run, then one of whose masters is killed (its replica takes
 * over), instead of a Redis restart. Runs on the Node 22 binary (type stripping)
 * after `npm run build` (the instances run the built package).
 */
import { formatReport, runSoak } from "./soak.ts";

const flags = new Map(
  process.argv.slice(2).map((arg) => {
    const [key, value] = arg.replace(/^--/, "").split("=");
    return [key, value];
  }),
);
const sessions = Number(flags.get("sessions") ?? 200);
const seconds = Number(flags.get("seconds") ?? 60);
const started = Date.now();
const report = await runSoak({
  sessions,
  durationMs: seconds * 1000,
  cluster: flags.has("cluster"),
  failover: flags.has("cluster"),
  log: (line) => console.log(`[${((Date.now() - started) / 1000).toFixed(1).padStart(5)} s] ${line}`),
});
console.log(`\n${formatReport(report)}`);
const ok =
  report.lost === 0 &&
  report.duplicated === 0 &&
  report.crashes.length === 0 &&
  report.calls > 0 &&
  report.delivered > 0 &&
  report.logged > 0;
console.log(ok ? "\nsoak passed: nothing lost, nothing duplicated" : "\nsoak FAILED");
process.exit(ok ? 0 : 1);
