/**
 * Child process (run with --expose-gc): the heap a finished task costs in the memory task store.
 * Payload: { tasks: 10000, warmup: 200, concurrency: 16 }. mcp-h3 with the tasks extension on a
 * `MemoryTaskStore` whose caps hold them all; every task is made through HTTP (in-process fetch) as a
 * client makes it, by a task-augmented modern call of `echo_task`, answered with the task finished
 * (`completed`, the echo's result stored with it). Steps, each point read after the same full GC as
 * scenarios/memory.mjs (memory-reducing, so the young generation a burst of requests grew is not
 * counted):
 * 1. `warmup` tasks made (the code every task runs is compiled; they stay stored), GC, *baseline*;
 * 2. `tasks` more made, GC, *stored*: heap per task = (stored − baseline) / tasks.
 * The harness keeps no list of them (only a count and the first id), so what is measured is the
 * server's. Probes, any of which fails the repetition: every call answered a `completed` task, the
 * store holds exactly warmup + tasks, and the first task made still answers `tasks/get` completed with
 * the echo inline.
 */
import { childPayload } from "../lib/child.mjs";
import { fullGc, snapshot } from "../lib/memory-readings.mjs";
import { taskLoads } from "../lib/task-load.mjs";
import { MemoryTaskStore } from "../../dist/tasks.mjs";
import { create } from "../systems/mcp-h3-tasks.mjs";

const { tasks: total = 10_000, warmup = 200, concurrency = 16 } = childPayload();
if (typeof globalThis.gc !== "function") throw new Error("run with --expose-gc");

const store = new MemoryTaskStore({ maxTasks: total + warmup, maxTasksPerOwner: total + warmup });
const system = await create({ store });
const loads = taskLoads(system);
let failedResponses = 0;

/** Makes `count` finished tasks, `concurrency` at a time; resolves the first one's getter. */
async function make(count) {
  let next = 0;
  let first;
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      while (next < count) {
        const i = next++;
        const made = await loads.createTask();
        if (made?.status !== "completed") failedResponses++;
        if (i === 0) first = made;
      }
    }),
  );
  return first;
}

await make(warmup);
await fullGc();
const baseline = snapshot();
const t0 = performance.now();
const first = await make(total);
const makeMs = performance.now() - t0;
await fullGc();
const stored = snapshot();

// Probes (after every figure is read).
const held = store.size;
if (held !== warmup + total) throw new Error(`the store holds ${held} tasks, not ${warmup + total}`);
const firstAnswer = first && (await loads.get(first));
if (!firstAnswer?.echoed)
  throw new Error(`the first task made does not answer completed: ${JSON.stringify(firstAnswer)}`);

console.log(
  JSON.stringify({
    system: "mcp-h3",
    tasks: total,
    warmup,
    failedResponses,
    makeMs: Math.round(makeMs),
    baseline,
    stored,
    heapPerTask: (stored.heapUsed - baseline.heapUsed) / total,
    rssPerTask: (stored.rss - baseline.rss) / total,
  }),
);
await system.close();
await store.close();
process.exit(0);
