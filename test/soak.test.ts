/**
 * The soak, bounded for `npm test` (`npm run soak` runs 200 sessions for 60 s): 50 legacy sessions
 * over two fixture processes on one Redis, behind a round-robin balancer, each holding a GET stream
 * and calling tools that report progress, for 20 s, while instance A is SIGKILLed and started again
 * and Redis (append-only, fsync on every write) is killed and started again. Every event id the
 * server logged for a stream a client read reached that client, after its resumptions, and none
 * twice. Needs `npm run build` (the instances run the built package).
 */
import { expect, it as vitestIt } from "vitest";
import { REDIS, unavailable } from "./helpers/services.ts";
import { formatReport, runSoak } from "./soak/soak.ts";

// The soak needs redis-server: skipped, said loudly, where it is missing (helpers/services.ts).
const it = vitestIt.skipIf(unavailable(REDIS));

it(
  "50 sessions through an instance crash and a Redis restart: nothing lost, nothing duplicated",
  { timeout: 90_000 },
  async () => {
    const report = await runSoak({ sessions: 50, durationMs: 20_000 });
    const text = formatReport(report);
    expect(report.instanceKilled && report.redisRestarted, text).toBe(true);
    expect(report.crashes, text).toEqual([]);
    expect(report.sessionsLost, text).toBe(0);
    expect(report.calls, text).toBeGreaterThan(0);
    expect(report.delivered, text).toBeGreaterThan(0);
    expect(report.resumptions, text).toBeGreaterThan(0);
    expect(report.lost, text).toBe(0);
    expect(report.duplicated, text).toBe(0);
  },
);
