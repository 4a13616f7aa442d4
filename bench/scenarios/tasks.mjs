/**
 * Child process: what tasks (`mcp-h3/tasks`, the 2026-07-28 wire) cost against a plain modern
 * `tools/call` of the same server, in the same process, in short alternating windows
 * (lib/load-windows.mjs). One pair per process (`pair`), so neither pays for the other's tasks:
 * - "get": a `tasks/get` of a finished task (`task_get/plain`), on the tasks extension's defaults (its
 *   memory store, tasks kept an hour); the finished tasks it reads are made before each of its
 *   windows, one per worker;
 * - "roundtrip": a task-augmented call of a tool that takes no time, polled with `tasks/get` until
 *   `completed` (`task_roundtrip/plain`: the call is answered with the task already finished, so one
 *   poll ends it; the polls are counted), on a memory store whose tasks live 2 s (every task the
 *   round trips make is swept soon after, its sweep paid in the run, and the store stays small
 *   however long the run), with the caps raised above what a run makes.
 * Payload: { pair, rep, concurrency: 32, warmupMs, windowMs, pairs }. Prints calls/s per load over
 * all windows, the polls per round trip, the windows of the pair and `failedResponses` (any
 * unexpected answer, warm-up included).
 */
import { childPayload } from "../lib/child.mjs";
import { alternateLoads, perSecond } from "../lib/load-windows.mjs";
import { round } from "../lib/stats.mjs";
import { taskLoads } from "../lib/task-load.mjs";
import { MemoryTaskStore } from "../../dist/tasks.mjs";
import { create } from "../systems/mcp-h3-tasks.mjs";

const { pair, rep = 0, concurrency = 32, warmupMs = 500, windowMs = 500, pairs = 6 } = childPayload();
if (pair !== "get" && pair !== "roundtrip") throw new Error(`pair must be "get" or "roundtrip", not ${pair}`);

const ROUNDTRIP_TTL_MS = 2_000;
const store = pair === "roundtrip" ? new MemoryTaskStore({ maxTasks: 500_000, maxTasksPerOwner: 500_000 }) : undefined;
const system = await create(pair === "roundtrip" ? { store, defaultTtlMs: ROUNDTRIP_TTL_MS } : {});
const loads = taskLoads(system);
const name = pair === "get" ? "task_get" : "task_roundtrip";

const {
  failedResponses,
  totals,
  pairs: windows,
} = await alternateLoads({
  loads: { plain: loads.plainCall, [name]: pair === "get" ? loads.taskGet : loads.roundtrip },
  compared: [[name, "plain"]],
  rep,
  concurrency,
  warmupMs,
  windowMs,
  pairs,
  before: (load) => (load === "task_get" ? loads.prepareTargets(concurrency) : undefined),
});
const plain = perSecond(totals.plain);
const measured = perSecond(totals[name]);
console.log(
  JSON.stringify({
    system: "mcp-h3",
    pair,
    failedResponses,
    plainCallsPerS: round(plain, 1),
    ...(pair === "get"
      ? { taskGetsPerS: round(measured, 1), taskGetVsCall: measured / plain }
      : {
          taskRoundtripsPerS: round(measured, 1),
          taskRoundtripVsCall: measured / plain,
          pollsPerRoundtrip: loads.stats.roundtrips ? loads.stats.polls / loads.stats.roundtrips : null,
          storedTasksAtEnd: store.size,
        }),
    pairs: windows,
  }),
);
await system.close();
await store?.close();
process.exit(0);
