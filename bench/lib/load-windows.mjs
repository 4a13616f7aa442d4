/**
 * Loads compared inside one process (the tasks scenarios: a `tasks/get` against a plain call, the
 * Redis store against the memory store), in short alternating windows as lib/pairs.mjs does for two
 * processes: every load gets the same warm-up (alternating halves), then each compared pair [a, b]
 * runs A, B, then B, A, … (which one opens alternates with the pair and with `rep`), a full GC before
 * each window, and each adjacent pair of windows gives one ratio. The loads run in one process
 * because they are one server: the baseline shares its JIT, heap and store with what it is compared
 * to, and the machine's drift hits both windows of a pair alike.
 */
import { round } from "./stats.mjs";

/**
 * Runs `callOnce` from `concurrency` workers for `ms`; resolves { calls, failed, elapsedMs }.
 * `callOnce` resolves true when the answer was the expected one.
 */
export async function loadFor(callOnce, concurrency, ms) {
  let calls = 0;
  let failed = 0;
  const end = performance.now() + ms;
  async function worker() {
    while (performance.now() < end) {
      if (!(await callOnce())) failed++;
      calls++;
    }
  }
  const start = performance.now();
  await Promise.all(Array.from({ length: concurrency }, worker));
  return { calls, failed, elapsedMs: performance.now() - start };
}

/**
 * Warms every load of `loads` ({ name: callOnce }) and alternates the windows of each pair of
 * `compared` ([[a, b], …]). `before(name)` (optional) runs before each warm-up and window of `name`,
 * outside the timed part (e.g. creating the tasks a `tasks/get` load reads). Resolves
 * { failedResponses, totals: { name: { calls, elapsedMs } }, pairs: { "a/b": { a, b, windowMs,
 * warmupMs, windows: [{ first, a: { calls, callsPerS }, b }] } } }; `failedResponses` counts every
 * unexpected answer, warm-up included.
 */
export async function alternateLoads({ loads, compared, rep = 0, concurrency, warmupMs, windowMs, pairs, before }) {
  let failedResponses = 0;
  const names = Object.keys(loads);
  const totals = Object.fromEntries(names.map((name) => [name, { calls: 0, elapsedMs: 0 }]));
  const run = async (name, ms) => {
    await before?.(name);
    const outcome = await loadFor(loads[name], concurrency, ms);
    failedResponses += outcome.failed;
    return outcome;
  };
  for (let half = 0; half < 2; half++) {
    const order = (half + rep) % 2 === 0 ? names : [...names].reverse();
    for (const name of order) await run(name, warmupMs / 2);
  }
  const out = Object.fromEntries(compared.map(([a, b]) => [`${a}/${b}`, { a, b, windowMs, warmupMs, windows: [] }]));
  for (let i = 0; i < pairs; i++) {
    for (const [a, b] of compared) {
      const order = (i + rep) % 2 === 0 ? [a, b] : [b, a];
      const window = { first: order[0] === a ? "a" : "b" };
      for (const name of order) {
        globalThis.gc?.();
        await new Promise((resolve) => setTimeout(resolve, 10));
        const { calls, elapsedMs } = await run(name, windowMs);
        totals[name].calls += calls;
        totals[name].elapsedMs += elapsedMs;
        window[name === a ? "a" : "b"] = { calls, callsPerS: round(calls / (elapsedMs / 1000), 1) };
      }
      out[`${a}/${b}`].windows.push(window);
    }
  }
  return { failedResponses, totals, pairs: out };
}

/** Calls per second over all the windows of a load. */
export const perSecond = (total) => (total.elapsedMs > 0 ? total.calls / (total.elapsedMs / 1000) : null);
