/**
 * Child process: in-process throughput and latency of one system, `fetch(Request)` straight into
 * the handler (no sockets). Payload: { system, era: "modern" | "legacy", concurrency: [1, 32],
 * warmupMs, durationMs }. Prints one JSON line: per concurrency { requests, rps, p50, p99, errors },
 * and `failedResponses`: every answer, warm-up included, that was not a 200 with the echo in it
 * (the runner voids the figures of a run that has any).
 *
 * Order inside the process: warm-up at the highest concurrency, then each measured concurrency
 * after a full GC. Each level runs for a fixed duration; latency is measured around
 * fetch + reading the whole body (Request construction is outside it, inside the throughput).
 */
import { childPayload } from "../lib/child.mjs";
import { startEchoLoad } from "../lib/echo-load.mjs";
import { percentile, round } from "../lib/stats.mjs";

const { system: name, era, concurrency = [1, 32], warmupMs = 1000, durationMs = 2000, heapProfile } = childPayload();

const { system, sessionId, mode, load } = await startEchoLoad(name, era);

const levels = [...concurrency].sort((a, b) => a - b);
const warmup = await load(levels.at(-1), warmupMs);
let failedResponses = warmup.failedResponses;
// bench/profile.mjs heap: sample every allocation of the measured part, including objects already collected.
let inspector;
if (heapProfile) {
  const { Session } = await import("node:inspector/promises");
  inspector = new Session();
  inspector.connect();
  await inspector.post("HeapProfiler.startSampling", {
    samplingInterval: 4096,
    includeObjectsCollectedByMajorGC: true,
    includeObjectsCollectedByMinorGC: true,
  });
}
const results = {};
for (const level of levels) {
  globalThis.gc?.();
  await new Promise((resolve) => setTimeout(resolve, 20));
  const latencies = [];
  const { requests, failedResponses: errors, elapsedMs } = await load(level, durationMs, latencies);
  const sorted = Float64Array.from(latencies).sort();
  failedResponses += errors;
  results[`c${level}`] = {
    requests,
    errors,
    rps: round(requests / (elapsedMs / 1000), 1),
    p50: round(percentile(sorted, 50), 4),
    p99: round(percentile(sorted, 99), 4),
  };
}
if (inspector) {
  const { profile } = await inspector.post("HeapProfiler.stopSampling");
  (await import("node:fs")).writeFileSync(heapProfile, JSON.stringify(profile));
}
await system.close?.();
console.log(JSON.stringify({ system: name, era, mode, sessionId: sessionId ?? null, failedResponses, results }));
process.exit(0);
