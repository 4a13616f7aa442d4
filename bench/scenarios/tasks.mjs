/**
 * Child process: what tasks (`mcp-h3/tasks`, the 2026-07-28 wire) cost against a plain modern
 * `tools/call` of the same server, in the same process, in short alternating windows
 * (lib/load-windows.mjs): a `tasks/get` of a finished task (`task_get/plain`), and a task-augmented
 * call of a tool that takes no time, polled with `tasks/get` until `completed` (`task_roundtrip/plain`:
 * the call is answered with the task already finished, so one poll ends it; the polls are counted).
 * The server is mcp-h3 with the tasks extension on a memory store whose tasks live 2 s (every task
 * the round trips make is swept soon after, so the store stays small however long the run), with the
 * caps raised above what a run makes. The finished tasks `tasks/get` reads are made before each of
 * its windows, one per worker. Payload: { rep, concurrency: 32, warmupMs, windowMs, pairs }. Prints
 * calls/s per load over all windows, the polls per round trip, the windows of both pairs and
 * `failedResponses` (any unexpected answer, warm-up included).
 */
import { childPayload } from "../lib/child.mjs";
import { alternateLoads, perSecond } from "../lib/load-windows.mjs";
import { round } from "../lib/stats.mjs";
import { taskLoads } from "../lib/task-load.mjs";
import { MemoryTaskStore } from "../../dist/tasks.mjs";
import { create } from "../systems/mcp-h3-tasks.mjs";

const { rep = 0, concurrency = 32, warmupMs = 500, windowMs = 500, pairs = 6 } = childPayload();

const TTL_MS = 2_000;
const store = new MemoryTaskStore({ maxTasks: 500_000, maxTasksPerOwner: 500_000 });
const system = await create({ store, defaultTtlMs: TTL_MS });
const loads = taskLoads(system);

const {
  failedResponses,
  totals,
  pairs: windows,
} = await alternateLoads({
  loads: { plain: loads.plainCall, task_get: loads.taskGet, task_roundtrip: loads.roundtrip },
  compared: [
    ["task_get", "plain"],
    ["task_roundtrip", "plain"],
  ],
  rep,
  concurrency,
  warmupMs,
  windowMs,
  pairs,
  before: (name) => (name === "task_get" ? loads.prepareTargets(concurrency) : undefined),
});
const plain = perSecond(totals.plain);
const get = perSecond(totals.task_get);
const roundtrip = perSecond(totals.task_roundtrip);
console.log(
  JSON.stringify({
    system: "mcp-h3",
    failedResponses,
    plainCallsPerS: round(plain, 1),
    taskGetsPerS: round(get, 1),
    taskRoundtripsPerS: round(roundtrip, 1),
    pollsPerRoundtrip: loads.stats.roundtrips ? loads.stats.polls / loads.stats.roundtrips : null,
    taskGetVsCall: get / plain,
    taskRoundtripVsCall: roundtrip / plain,
    storedTasksAtEnd: store.size,
    pairs: windows,
  }),
);
await system.close();
await store.close();
process.exit(0);
