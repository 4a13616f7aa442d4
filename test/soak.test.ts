/**
 * The soak, bounded for `npm test` (`npm run soak` runs 200 sessions for 60 s): 50 legacy sessions
 * over two fixture processes on one Redis, behind a round-robin balancer, each holding a GET stream
 * and calling tools that report progress, for 20 s, while instance A is SIGKILLed and started again
 * and Redis (append-only, fsync on every write) is killed and started again; and again on a Redis
 * Cluster (three masters, a replica each), where 2,000 slots move between masters mid-run and then
 * a master is SIGKILLed and its replica takes over. Every event id the
 * server logged for a stream a client read reached that client, after its resumptions, and none
 * twice. Needs `npm run build` (the instances run the built package).
 */
import { expect, it as vitestIt } from "vitest";
import { REDIS, unavailable } from "./helpers/services.ts";
import { formatReport, runSoak } from "./soak/soak.ts";

// The soak needs redis-server: skipped, said loudly, where it is missing (helpers/services.ts).
const it = vitestIt.skipIf(unavailable(REDIS));

it.each([
  { where: "one Redis", fault: "a Redis restart", cluster: false },
  { where: "a Redis Cluster", fault: "slots moved and a master killed (its replica promoted)", cluster: true },
])(
  "50 sessions on $where through an instance crash and $fault: nothing lost, nothing duplicated",
  { timeout: 120_000 },
  async ({ cluster }) => {
    const report = await runSoak({ sessions: 50, durationMs: 20_000, cluster, failover: cluster });
    const text = formatReport(report);
    expect(report.instanceKilled, text).toBe(true);
    expect(report.redisFault, text).not.toBe("");
    // The server's log was read back: lost would be 0 by not finding it otherwise.
    expect(report.logged, text).toBeGreaterThan(0);
    expect(report.crashes, text).toEqual([]);
    expect(report.sessionsLost, text).toBe(0);
    expect(report.calls, text).toBeGreaterThan(0);
    expect(report.delivered, text).toBeGreaterThan(0);
    expect(report.resumptions, text).toBeGreaterThan(0);
    expect(report.lost, text).toBe(0);
    expect(report.duplicated, text).toBe(0);
  },
);
