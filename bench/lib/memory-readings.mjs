/** Memory readings of the memory scenarios (scenarios/memory.mjs, scenarios/tasks-memory.mjs), taken the same way. */

/**
 * A full GC that also gives back what V8 sized for the allocation rate rather than for what is
 * live: the young generation grows under a burst of requests (its semi-spaces from 1 MB up to
 * 16 MB, Node 22) and a plain full GC keeps it grown. Opening 10,000 sessions at c=16 grew it so,
 * and the young generation then made most of the RSS read at the open point: mcp-h3 showed 4,936 B
 * of RSS per session with a plain GC (heap capacity 17.6 → 55.6 MB for 5.8 MB of live heap), 1,270 B
 * with this one (17.6 → 18.6 MB), heap per session unchanged (583 and 590 B). The young generation
 * is the same with 100 sessions opened at that rate, so it is no session's cost. Every point
 * (cold, open, after) is read after the same GC, so they compare like with like. Node 22 (the
 * runtime `npm run bench` pins) shrinks the young generation so; Node 20 does not (7,305 B there).
 */
export async function fullGc() {
  for (let i = 0; i < 4; i++) {
    globalThis.gc({ type: "major", execution: "sync", flavor: "last-resort" });
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
}

/** The process's memory figures now (read after {@link fullGc}). */
export function snapshot() {
  const { rss, heapUsed, heapTotal, external, arrayBuffers } = process.memoryUsage();
  return { rss, heapUsed, heapTotal, external, arrayBuffers };
}
