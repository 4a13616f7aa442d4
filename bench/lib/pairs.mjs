/**
 * A ratio between two systems, from short alternating windows of the pair (issue 22). On a shared
 * 2-core machine the speed a process gets drifts by tens of percent within seconds, so two systems
 * measured one after another in long runs — or seconds apart, other systems in between — compare
 * two different machines. Here both systems run at once, each in its own process (no JIT or heap
 * cross-talk), but only one is loaded at a time: A, B, then B, A, then A, B, … (the first of each
 * pair alternates, so neither always follows the other), each window `windowMs` long. Every
 * adjacent pair gives one ratio A/B; the figure is the median of those ratios, reported with their
 * quartiles, min, max and count (lib/stats.mjs `pairSpread`; `pairs[pairKey(a, b)]` in a scenario).
 *
 * Both systems are started the same way and warmed the same way (alternating halves of `warmupMs`
 * each) before the first window, so neither enters the pairs with a warmer JIT than the other.
 */
import { fileURLToPath } from "node:url";
import { startWorker } from "./child.mjs";

const WINDOWS = fileURLToPath(new URL("../scenarios/windows.mjs", import.meta.url));

/**
 * Alternates `pairs` windows of system `a` and system `b`. `start(system)` gives a worker with
 * `warm(ms)` → { failedResponses }, `window(ms)` → { rps, p99, failedResponses, … } and `stop()`.
 * Resolves { a, b, windowMs, warmupMs, failedResponses: { [a], [b] }, windows: [{ first, a, b }] }.
 * A worker that fails rejects with `error.system` naming its system; both are stopped either way.
 */
export async function alternate({ a, b, pairs, windowMs, warmupMs, start }) {
  const workers = {};
  const failedResponses = { [a]: 0, [b]: 0 };
  const named = (system, promise) =>
    promise.catch((error) => {
      error.system ??= system;
      throw error;
    });
  try {
    workers.a = await named(a, start(a));
    workers.b = await named(b, start(b));
    const side = (which) => ({ which, system: which === "a" ? a : b, worker: workers[which] });
    const orderOf = (i) => (i % 2 === 0 ? [side("a"), side("b")] : [side("b"), side("a")]);
    for (let half = 0; half < 2; half++) {
      for (const { system, worker } of orderOf(half)) {
        failedResponses[system] += (await named(system, worker.warm(warmupMs / 2))).failedResponses;
      }
    }
    const windows = [];
    for (let i = 0; i < pairs; i++) {
      const pair = { first: orderOf(i)[0].which };
      for (const { which, system, worker } of orderOf(i)) {
        pair[which] = await named(system, worker.window(windowMs));
        failedResponses[system] += pair[which].failedResponses;
      }
      windows.push(pair);
    }
    return { a, b, windowMs, warmupMs, failedResponses, windows };
  } finally {
    await Promise.all(Object.values(workers).map((worker) => worker.stop()));
  }
}

/** A worker for `alternate`: the system in its own process, measured in-process (scenarios/windows.mjs). */
export function inprocWorker(era, concurrency) {
  return async (system) => {
    const worker = await startWorker(WINDOWS, { system, era, concurrency }, { nodeArgs: ["--expose-gc"] });
    return {
      warm: (ms) => worker.send({ warm: ms }),
      window: (ms) => worker.send({ window: ms }),
      stop: () => worker.stop(),
    };
  };
}

/**
 * A worker for `alternate`: the system's node server in its own process, loaded by autocannon
 * from this one. Every status counts, one body in 64 is checked (lib/sockets.mjs `cannon`).
 */
export function socketsWorker(connections) {
  return async (system) => {
    // Imported here, not at the top: autocannon is a dependency of bench/ alone, and the judge's unit
    // test (run by `npm test`, where bench/ has no node_modules) imports this file.
    const { cannon, startServer } = await import("./sockets.mjs");
    const server = await startServer(system);
    const run = async (ms) => {
      const result = await cannon(server.url, { connections, durationS: ms / 1000 });
      const errors = result.errors + result.timeouts;
      return {
        requests: result.requests.total,
        rps: result.duration > 0 ? result.requests.total / result.duration : null,
        p50: result.latency.p50,
        p99: result.latency.p99,
        sampled: result.sampled,
        // An error, a non-2xx or a wrong sampled body: no speed. (A short window of a slow peer may
        // check no body; the judge requires some checked over the pair's windows.)
        failedResponses: errors + result.non2xx + result.mismatches,
      };
    };
    return {
      warm: async (ms) => {
        const { failedResponses, sampled } = await run(ms);
        // The warm-up must get answers at all: a server that never answers is no pair.
        return { failedResponses: failedResponses + (sampled === 0 ? 1 : 0) };
      },
      window: run,
      stop: () => server.stop(),
    };
  };
}
