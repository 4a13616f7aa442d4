/**
 * Child process: one system, kept alive to be measured in short windows on command, so the runner
 * can alternate two systems (lib/pairs.mjs: A, B, A, B, … each in its own process, never both at
 * once). Payload: { system, era: "modern" | "legacy", concurrency: 32 }. Prints {"ready":…} once
 * built (a legacy session opened when the system keeps them, one echo checked), then reads one
 * JSON command per stdin line and answers each with one JSON line on stdout:
 * - {"warm": ms}: load at `concurrency` for ms, unmeasured; answers { failedResponses };
 * - {"window": ms}: a full GC, then load at `concurrency` for ms; answers { requests, rps, p50, p99,
 *   failedResponses } (latency = fetch + body read, ms);
 * - {"stop": true}: closes the system and exits.
 * `failedResponses` counts every answer that was not a 200 with the echo in it; the runner voids
 * the figures of a pair with any (errors are no speed).
 */
import { createInterface } from "node:readline";
import { childPayload } from "../lib/child.mjs";
import { startEchoLoad } from "../lib/echo-load.mjs";
import { percentile, round } from "../lib/stats.mjs";

const { system: name, era, concurrency = 32 } = childPayload();

const { system, sessionId, load: loadAt } = await startEchoLoad(name, era);
const load = (ms, latencies) => loadAt(concurrency, ms, latencies);

async function answer(command) {
  if (command.warm) {
    const { failedResponses } = await load(command.warm);
    return { failedResponses };
  }
  if (command.window) {
    globalThis.gc?.();
    await new Promise((resolve) => setTimeout(resolve, 10));
    const latencies = [];
    const { requests, failedResponses, elapsedMs } = await load(command.window, latencies);
    const sorted = Float64Array.from(latencies).sort();
    return {
      requests,
      rps: round(requests / (elapsedMs / 1000), 1),
      p50: round(percentile(sorted, 50), 4),
      p99: round(percentile(sorted, 99), 4),
      failedResponses,
    };
  }
  throw new Error(`unknown command ${JSON.stringify(command)}`);
}

console.log(JSON.stringify({ ready: name, era, sessionId: sessionId ?? null }));
for await (const line of createInterface({ input: process.stdin })) {
  const command = JSON.parse(line);
  if (command.stop) break;
  console.log(JSON.stringify(await answer(command)));
}
await system.close?.();
process.exit(0);
