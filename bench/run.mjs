/**
 * The bench runner: `npm run bench` from the repository root (builds dist/, installs bench/'s own
 * dependencies, runs this). Every scenario runs every system, interleaved within each repetition,
 * and the order rotates from one repetition to the next (A B C, B C A, C A B, …), so drift on a
 * shared machine and the position in a repetition hit all of them alike; each in-process run is a
 * fresh child process per system and repetition. Those runs give each system's own figures (req/s,
 * latency). A figure comparing two systems (modern_vs_bare, auth_vs_no_auth, sockets_vs_bare, …)
 * comes instead from short alternating windows of that pair (lib/pairs.mjs: both in their own
 * process, warmed alike, loaded one at a time A, B, B, A, …), the median of the per-pair ratios,
 * reported with their spread. Writes bench/results.json and bench/RESULTS.md,
 * then judges the run (lib/judge.mjs) and exits non-zero on any failed repetition, error response,
 * missing figure or missed target, naming each.
 *
 * Flags: --quick (short durations, one repetition: for developing the harness, not for results;
 * written to bench/.quick/ instead, never over the committed results),
 * --reps=N, --pairs=N (alternating pairs per compared pair of systems), --only=inproc,sockets,memory,stream,bundle,startup,redis,mrtr,tasks (a subset; the targets of the
 * scenarios left out are reported as "not run"). The Redis scenarios start their own redis-server
 * (it must be on PATH) and stop it when done.
 */
import { execFileSync } from "node:child_process";
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import os from "node:os";
import { fileURLToPath } from "node:url";
import { BENCH_DIR, runChild } from "./lib/child.mjs";
import { alternate, inprocWorker, socketsWorker } from "./lib/pairs.mjs";
import { MODERN_VARIANTS, REDIS_VARIANTS, SYSTEMS, rotation } from "./lib/systems.mjs";
import { startBenchRedis, startBenchRedisCluster } from "./lib/redis.mjs";
import { measureSockets } from "./lib/sockets.mjs";
import { BUNDLES, measureBundle } from "./lib/bundle.mjs";
import { pairKey, pairSpread, summary, round } from "./lib/stats.mjs";
import { computeFigures, computeSpreads, pairsFor, roundFigures, roundSpreads } from "./lib/figures.mjs";
import { SCENARIO_GROUPS, judge } from "./lib/judge.mjs";
import { renderMarkdown } from "./lib/report.mjs";
import { printVerdict } from "./lib/verdict.mjs";
import { writeBenchPlots } from "../scripts/plot-bench.mjs";

const ROOT = fileURLToPath(new URL("..", import.meta.url));
const args = new Map(
  process.argv.slice(2).map((arg) => {
    const [key, value] = arg.replace(/^--/, "").split("=");
    return [key, value ?? true];
  }),
);
const quick = args.has("quick");
const ONLY = args.has("only") ? new Set(String(args.get("only")).split(",")) : undefined;
for (const name of ONLY ?? []) {
  if (!(name in SCENARIO_GROUPS)) throw new Error(`--only: unknown scenario ${name}`);
}
const enabled = (scenario) => !ONLY || ONLY.has(scenario);

const reps = (full) => Number(args.get("reps") ?? (quick ? 1 : full));
const pairCount = (full) => Number(args.get("pairs") ?? full);
const CONFIG = {
  inproc: { reps: reps(5), concurrency: [1, 32], warmupMs: quick ? 300 : 500, durationMs: quick ? 700 : 1000 },
  sockets: { reps: reps(3), connections: 64, durationS: quick ? 3 : 10, warmupS: quick ? 1 : 2 },
  memory: { reps: reps(3), sessions: 10_000 },
  stream: { reps: reps(5), count: 10_000, warmupMs: 500 },
  startup: { reps: Number(args.get("reps") ?? (quick ? 3 : 7)) },
  redis: { reps: reps(5), notifications: quick ? 300 : 2000, warmup: quick ? 50 : 200 },
  mrtr: {
    reps: reps(5),
    concurrency: 32,
    warmupMs: quick ? 300 : 500,
    windowMs: quick ? 300 : 500,
    pairs: quick ? 5 : 6,
  },
  // Tasks (mcp-h3/tasks): the loads compared alternate in windows in one process, a fresh one per
  // repetition (scenarios/tasks.mjs, tasks-redis.mjs); the heap per stored task (tasks-memory.mjs).
  tasks: {
    reps: reps(5),
    concurrency: 32,
    warmupMs: quick ? 300 : 500,
    windowMs: quick ? 300 : 500,
    pairs: quick ? 5 : 6,
    heapReps: reps(3),
    heapTasks: 10_000,
    heapWarmup: 200,
  },
  // The alternating windows of each compared pair of systems (lib/pairs.mjs); warm-up per system.
  pairs: {
    inproc: {
      pairs: pairCount(quick ? 6 : 24),
      windowMs: quick ? 300 : 500,
      warmupMs: quick ? 400 : 1000,
      concurrency: 32,
    },
    sockets: { pairs: pairCount(quick ? 5 : 15), windowMs: 1000, warmupMs: quick ? 1000 : 2000 },
  },
};

const started = performance.now();
const log = (...parts) => console.log(`[${((performance.now() - started) / 1000).toFixed(0).padStart(4)} s]`, ...parts);

// ---------------------------------------------------------------- preflight
function preflight() {
  const dist = new URL("../dist/index.mjs", import.meta.url);
  if (!existsSync(dist)) throw new Error("dist/index.mjs is missing: run `npm run build` at the root first.");
  // One h3: the systems resolve `h3` by walking up from bench/, which must land on the root's h3 v2.
  const h3Entry = fileURLToPath(import.meta.resolve("h3"));
  const rootH3 = `${ROOT}node_modules/h3/`;
  if (!h3Entry.startsWith(rootH3)) throw new Error(`h3 resolves to ${h3Entry}, not the root's ${rootH3}`);
  const h3Version = JSON.parse(readFileSync(`${rootH3}package.json`, "utf8")).version;
  if (!h3Version.startsWith("2.")) throw new Error(`the root's h3 is ${h3Version}, expected 2.x`);
  return h3Version;
}

function versionOf(pkg, base = BENCH_DIR) {
  try {
    return JSON.parse(readFileSync(`${base}node_modules/${pkg}/package.json`, "utf8")).version;
  } catch {
    return null;
  }
}

function gitCommit() {
  try {
    const commit = execFileSync("git", ["rev-parse", "--short", "HEAD"], { cwd: ROOT }).toString().trim();
    const dirty = execFileSync("git", ["status", "--porcelain", "--", "src"], { cwd: ROOT }).toString().trim() !== "";
    return dirty ? `${commit} (src/ modified)` : commit;
  } catch {
    return null;
  }
}

// ---------------------------------------------------------------- scenarios
const INPROC = fileURLToPath(new URL("./scenarios/inproc.mjs", import.meta.url));
const MEMORY = fileURLToPath(new URL("./scenarios/memory.mjs", import.meta.url));
const STREAM = fileURLToPath(new URL("./scenarios/stream.mjs", import.meta.url));
const STARTUP = fileURLToPath(new URL("./scenarios/startup.mjs", import.meta.url));
const CHECK = fileURLToPath(new URL("./check.mjs", import.meta.url));
const CROSS_NOTIFY = fileURLToPath(new URL("./scenarios/cross-notify.mjs", import.meta.url));
const MRTR = fileURLToPath(new URL("./scenarios/mrtr.mjs", import.meta.url));
const TASKS = fileURLToPath(new URL("./scenarios/tasks.mjs", import.meta.url));
const TASKS_MEMORY = fileURLToPath(new URL("./scenarios/tasks-memory.mjs", import.meta.url));
const TASKS_REDIS = fileURLToPath(new URL("./scenarios/tasks-redis.mjs", import.meta.url));

/**
 * Runs `task(system, rep)` for every repetition and system, interleaved in a rotating order.
 * A failure is recorded (`failures`: system, repetition, message) and the run goes on; the judge
 * fails the run for it at the end.
 */
async function interleave(label, systems, reps, task) {
  const runs = Object.fromEntries(systems.map((s) => [s, []]));
  const failures = [];
  const orders = [];
  for (let rep = 0; rep < reps; rep++) {
    const order = rotation(systems, rep);
    orders.push(order);
    for (const system of order) {
      try {
        runs[system][rep] = await task(system, rep);
      } catch (error) {
        runs[system][rep] = null;
        const message = String(error.message ?? error).slice(0, 500);
        failures.push({ system, rep, message });
        log(`${label} ${system} rep ${rep + 1}: FAILED ${message.split("\n")[0]}`);
      }
    }
    log(`${label}: repetition ${rep + 1}/${reps} done`);
  }
  return { runs, failures, orders };
}

/** Summaries of a numeric field across runs, and per-repetition ratios against bare-h3. */
function summarize(runs, pick) {
  const out = {};
  for (const [system, list] of Object.entries(runs)) {
    out[system] = summary(list.map((run) => (run ? pick(run) : null)));
  }
  return out;
}

function pairedRatios(runs, pick, base = "bare-h3") {
  const out = {};
  for (const [system, list] of Object.entries(runs)) {
    const ratios = list.map((run, rep) => {
      const baseRun = runs[base]?.[rep];
      const a = run ? pick(run) : null;
      const b = baseRun ? pick(baseRun) : null;
      return a !== null && b ? a / b : null;
    });
    out[system] = summary(ratios);
  }
  return out;
}

/**
 * The alternating windows of every pair the figures of `scenario` compare (figures.mjs `pairsFor`),
 * each pair in two fresh processes. A failed pair is recorded (`failures`, naming the system and the
 * pair) and the run goes on; the judge voids its figures and fails the run.
 */
async function alternatePairs(scenario, config, start) {
  const pairs = {};
  const failures = [];
  for (const [a, b] of pairsFor(scenario)) {
    const key = pairKey(a, b);
    try {
      pairs[key] = await alternate({ a, b, ...config, start });
      const s = pairSpread(pairs[key]);
      log(`${scenario} ${key}: ${round(s.median, 3)} (IQR ${round(s.q1, 3)}–${round(s.q3, 3)}, ${s.pairs} pairs)`);
    } catch (error) {
      const message = String(error.message ?? error).slice(0, 500);
      failures.push({ system: error.system ?? a, pair: key, rep: 0, message });
      log(`${scenario} ${key}: FAILED ${message.split("\n")[0]}`);
    }
  }
  return { pairs, failures };
}

const { concurrency: PAIR_CONCURRENCY, ...INPROC_PAIRS } = CONFIG.pairs.inproc;
const { connections: SOCKET_CONNECTIONS } = CONFIG.sockets;

async function inprocScenario(era) {
  // The modern scenario also measures mcp-h3's variants (auth on), in the same rotation.
  const systems = era === "modern" ? [...SYSTEMS, ...MODERN_VARIANTS] : SYSTEMS;
  const { runs, failures, orders } = await interleave(`in-process ${era}`, systems, CONFIG.inproc.reps, (system) =>
    runChild(
      INPROC,
      {
        system,
        era,
        concurrency: CONFIG.inproc.concurrency,
        warmupMs: CONFIG.inproc.warmupMs,
        durationMs: CONFIG.inproc.durationMs,
      },
      { nodeArgs: ["--expose-gc"] },
    ),
  );
  const byLevel = {};
  for (const level of CONFIG.inproc.concurrency) {
    const key = `c${level}`;
    const pickRps = (run) => run.results[key].rps;
    const pickP99 = (run) => run.results[key].p99;
    byLevel[key] = {
      rps: summarize(runs, pickRps),
      p50: summarize(runs, (run) => run.results[key].p50),
      p99: summarize(runs, pickP99),
      errors: summarize(runs, (run) => run.results[key].errors),
      rpsVsBare: pairedRatios(runs, pickRps),
      p99VsBare: pairedRatios(runs, pickP99),
    };
  }
  const modes = Object.fromEntries(systems.map((s) => [s, runs[s].find(Boolean)?.mode ?? null]));
  const scenarioKey = `inproc_${era}`;
  const windows = await alternatePairs(scenarioKey, INPROC_PAIRS, inprocWorker(era, PAIR_CONCURRENCY));
  return {
    modes,
    ...byLevel,
    failedResponses: summarize(runs, (run) => run.failedResponses),
    pairs: windows.pairs,
    raw: runs,
    failures: [...failures, ...windows.failures],
    orders,
  };
}

async function socketsScenario() {
  const { runs, failures, orders } = await interleave("sockets", SYSTEMS, CONFIG.sockets.reps, (system) =>
    measureSockets(system, CONFIG.sockets),
  );
  const windows = await alternatePairs("sockets", CONFIG.pairs.sockets, socketsWorker(SOCKET_CONNECTIONS));
  return {
    rps: summarize(runs, (r) => r.rps),
    p50: summarize(runs, (r) => r.p50),
    p99: summarize(runs, (r) => r.p99),
    failedResponses: summarize(runs, (r) => r.failedResponses),
    sampled: summarize(runs, (r) => r.sampled),
    rpsVsBare: pairedRatios(runs, (r) => r.rps),
    pairs: windows.pairs,
    raw: runs,
    failures: [...failures, ...windows.failures],
    orders,
  };
}

async function memoryScenario() {
  const systems = [];
  for (const name of SYSTEMS) {
    const { info } = await import(`./systems/${name}.mjs`);
    if (info.legacy === "session") systems.push(name);
  }
  const { runs, failures, orders } = await interleave("memory", systems, CONFIG.memory.reps, (system) =>
    runChild(MEMORY, { system, sessions: CONFIG.memory.sessions }, { nodeArgs: ["--expose-gc"] }),
  );
  return {
    systems,
    heapPerSession: summarize(runs, (r) => r.heapPerSession),
    rssPerSession: summarize(runs, (r) => r.rssPerSession),
    heapAfterVsCold: summarize(runs, (r) => r.heapAfterVsCold),
    wholeHeapAfterVsCold: summarize(runs, (r) => r.wholeHeapAfterVsCold),
    rssAfterVsCold: summarize(runs, (r) => r.rssAfterVsCold),
    heapSecondCycleVsFirst: summarize(runs, (r) => r.heapSecondCycleVsFirst),
    coldHeapMb: summarize(runs, (r) => r.coldBaseline.heapUsed / 1e6),
    openHeapMb: summarize(runs, (r) => r.open.heapUsed / 1e6),
    afterHeapMb: summarize(runs, (r) => r.after.heapUsed / 1e6),
    coldRssMb: summarize(runs, (r) => r.coldBaseline.rss / 1e6),
    openRssMb: summarize(runs, (r) => r.open.rss / 1e6),
    deletedSessionStatus: Object.fromEntries(
      systems.map((s) => [s, runs[s].find(Boolean)?.deletedSessionStatus ?? null]),
    ),
    openMs: summarize(runs, (r) => r.openMs),
    raw: runs,
    failures,
    orders,
  };
}

async function streamScenario() {
  const { runs, failures, orders } = await interleave("streaming", SYSTEMS, CONFIG.stream.reps, (system) =>
    runChild(
      STREAM,
      { system, count: CONFIG.stream.count, warmupMs: CONFIG.stream.warmupMs },
      { nodeArgs: ["--expose-gc"] },
    ),
  );
  return {
    perSecond: summarize(runs, (r) => r.perSecond),
    ms: summarize(runs, (r) => r.ms),
    perSecondVsBare: pairedRatios(runs, (r) => r.perSecond),
    raw: runs,
    failures,
    orders,
  };
}

async function bundleScenario() {
  const out = {};
  const failures = [];
  for (const bundle of BUNDLES) {
    try {
      out[bundle.name] = { label: bundle.label, ...(await measureBundle(bundle)) };
    } catch (error) {
      failures.push({ system: bundle.name, rep: 0, message: String(error.message ?? error).slice(0, 500) });
      log(`bundle ${bundle.name}: FAILED ${failures.at(-1).message.split("\n")[0]}`);
    }
  }
  log("bundles done");
  return { bundles: out, failures };
}

async function startupScenario() {
  const { runs, failures, orders } = await interleave("startup", SYSTEMS, CONFIG.startup.reps, (system) =>
    runChild(STARTUP, { system }),
  );
  return {
    importMs: summarize(runs, (r) => r.importMs),
    createMs: summarize(runs, (r) => r.createMs),
    firstRequestMs: summarize(runs, (r) => r.firstRequestMs),
    raw: runs,
    failures,
    orders,
  };
}

/**
 * mcp-h3 on mcp-h3/redis against mcp-h3 on its memory stores (legacy tools/call in a session,
 * in-process, the same rotation as the other in-process scenarios), and the time a notification
 * takes from one instance to another through Redis. One redis-server of the bench's own serves both,
 * and a 3-master Redis Cluster of its own the `-cluster` variant, measured beside it.
 */
async function redisScenarios() {
  const redis = await startBenchRedis();
  process.env.BENCH_REDIS_URL = redis.url;
  log(`redis-server on ${redis.url}`);
  const cluster = await startBenchRedisCluster().catch(async (error) => {
    await redis.stop();
    throw error;
  });
  process.env.BENCH_REDIS_CLUSTER_URLS = cluster.urls.join(",");
  log(`Redis Cluster on ${cluster.urls.join(", ")}`);
  try {
    const systems = ["mcp-h3", ...REDIS_VARIANTS];
    const legacy = await interleave("redis legacy", systems, CONFIG.redis.reps, (system) =>
      runChild(
        INPROC,
        {
          system,
          era: "legacy",
          concurrency: CONFIG.inproc.concurrency,
          warmupMs: CONFIG.inproc.warmupMs,
          durationMs: CONFIG.inproc.durationMs,
        },
        { nodeArgs: ["--expose-gc"] },
      ),
    );
    const c32 = (run) => run.results.c32.rps;
    const windows = await alternatePairs("redis_legacy", INPROC_PAIRS, inprocWorker("legacy", PAIR_CONCURRENCY));
    const notify = await interleave("cross-instance notify", REDIS_VARIANTS, CONFIG.redis.reps, (system) =>
      runChild(CROSS_NOTIFY, { system, count: CONFIG.redis.notifications, warmup: CONFIG.redis.warmup }),
    );
    return {
      redis_legacy: {
        rps: summarize(legacy.runs, c32),
        p99: summarize(legacy.runs, (run) => run.results.c32.p99),
        rpsVsMemory: pairedRatios(legacy.runs, c32, "mcp-h3"),
        failedResponses: summarize(legacy.runs, (run) => run.failedResponses),
        pairs: windows.pairs,
        raw: legacy.runs,
        failures: [...legacy.failures, ...windows.failures],
        orders: legacy.orders,
      },
      redis_notify: {
        p50: summarize(notify.runs, (run) => run.p50),
        p99: summarize(notify.runs, (run) => run.p99),
        max: summarize(notify.runs, (run) => run.max),
        raw: notify.runs,
        failures: notify.failures,
        orders: notify.orders,
      },
    };
  } finally {
    await Promise.all([redis.stop(), cluster.stop()]);
  }
}

/**
 * mcp-h3's multi round-trip call (one elicitation, driven to completion: two requests, the state
 * sealed and opened once) against its plain modern tools/call, both measured in the same child
 * process, in short alternating windows; a fresh process per repetition. The windows of every
 * repetition form one pair ("mrtr/plain": a = MRTR calls/s, b = plain calls/s) for the figure.
 */
async function mrtrScenario() {
  const { concurrency, warmupMs, windowMs, pairs } = CONFIG.mrtr;
  const { runs, failures, orders } = await interleave("mrtr", ["mcp-h3"], CONFIG.mrtr.reps, (_system, rep) =>
    runChild(MRTR, { rep, concurrency, warmupMs, windowMs, pairs }, { nodeArgs: ["--expose-gc"] }),
  );
  const windows = runs["mcp-h3"].flatMap((run) => run?.windows ?? []);
  return {
    plainCallsPerS: summarize(runs, (run) => run.plainCallsPerS),
    mrtrCallsPerS: summarize(runs, (run) => run.mrtrCallsPerS),
    mrtrRequestsPerS: summarize(runs, (run) => run.mrtrRequestsPerS),
    mrtrVsToolsCall: summarize(runs, (run) => run.mrtrVsToolsCall),
    pairs: { [pairKey("mrtr", "plain")]: { a: "mrtr", b: "plain", windowMs, warmupMs, windows } },
    failedResponses: summarize(runs, (run) => run.failedResponses),
    raw: runs,
    failures,
    orders,
  };
}

/** The windows of every repetition's pair `key`, as one pair (the figure is the median over all of them). */
function mergedPair(runs, key) {
  const list = runs["mcp-h3"].filter(Boolean).map((run) => run.pairs?.[key]);
  const first = list.find(Boolean);
  if (!first) return undefined;
  return { ...first, windows: list.flatMap((pair) => pair?.windows ?? []) };
}

/**
 * Tasks (mcp-h3/tasks, the 2026-07-28 wire), mcp-h3 only, each figure against its baseline in the
 * same process: `tasks/get` of a finished task and a task-augmented call polled to completion, each
 * × a plain tools/call (scenarios/tasks.mjs); the heap per stored finished task
 * (scenarios/tasks-memory.mjs); `tasks/get` on the Redis task store × on the memory store
 * (scenarios/tasks-redis.mjs, on a redis-server of the bench's own). A fresh process per repetition.
 */
async function tasksScenarios() {
  const { reps: count, concurrency, warmupMs, windowMs, pairs } = CONFIG.tasks;
  const windowed = { concurrency, warmupMs, windowMs, pairs };
  // Each pair in a process of its own (neither pays for the other's tasks); one run per repetition.
  const calls = await interleave("tasks", ["mcp-h3"], count, async (_system, rep) => {
    const get = await runChild(TASKS, { pair: "get", rep, ...windowed }, { nodeArgs: ["--expose-gc"] });
    const roundtrip = await runChild(TASKS, { pair: "roundtrip", rep, ...windowed }, { nodeArgs: ["--expose-gc"] });
    return {
      ...get,
      ...roundtrip,
      pair: undefined,
      plainCallsPerS: { get: get.plainCallsPerS, roundtrip: roundtrip.plainCallsPerS },
      failedResponses: get.failedResponses + roundtrip.failedResponses,
      pairs: { ...get.pairs, ...roundtrip.pairs },
    };
  });
  const heap = await interleave("tasks heap", ["mcp-h3"], CONFIG.tasks.heapReps, () =>
    runChild(
      TASKS_MEMORY,
      { tasks: CONFIG.tasks.heapTasks, warmup: CONFIG.tasks.heapWarmup },
      { nodeArgs: ["--expose-gc"] },
    ),
  );
  const redis = await startBenchRedis();
  process.env.BENCH_REDIS_URL = redis.url;
  log(`redis-server on ${redis.url}`);
  let onRedis;
  try {
    onRedis = await interleave("tasks redis", ["mcp-h3"], count, (_system, rep) =>
      runChild(TASKS_REDIS, { rep, ...windowed }, { nodeArgs: ["--expose-gc"] }),
    );
  } finally {
    await redis.stop();
  }
  const getKey = pairKey("task_get", "plain");
  const roundtripKey = pairKey("task_roundtrip", "plain");
  const redisKey = pairKey("redis", "memory");
  return {
    tasks: {
      plainCallsPerS: summarize(calls.runs, (run) => run.plainCallsPerS.get),
      plainCallsPerSRoundtrip: summarize(calls.runs, (run) => run.plainCallsPerS.roundtrip),
      taskGetsPerS: summarize(calls.runs, (run) => run.taskGetsPerS),
      taskRoundtripsPerS: summarize(calls.runs, (run) => run.taskRoundtripsPerS),
      pollsPerRoundtrip: summarize(calls.runs, (run) => run.pollsPerRoundtrip),
      taskGetVsCall: summarize(calls.runs, (run) => run.taskGetVsCall),
      taskRoundtripVsCall: summarize(calls.runs, (run) => run.taskRoundtripVsCall),
      pairs: { [getKey]: mergedPair(calls.runs, getKey), [roundtripKey]: mergedPair(calls.runs, roundtripKey) },
      failedResponses: summarize(calls.runs, (run) => run.failedResponses),
      raw: calls.runs,
      failures: calls.failures,
      orders: calls.orders,
    },
    tasks_memory: {
      heapPerTask: summarize(heap.runs, (run) => run.heapPerTask),
      rssPerTask: summarize(heap.runs, (run) => run.rssPerTask),
      baselineHeapMb: summarize(heap.runs, (run) => run.baseline.heapUsed / 1e6),
      storedHeapMb: summarize(heap.runs, (run) => run.stored.heapUsed / 1e6),
      makeMs: summarize(heap.runs, (run) => run.makeMs),
      failedResponses: summarize(heap.runs, (run) => run.failedResponses),
      raw: heap.runs,
      failures: heap.failures,
      orders: heap.orders,
    },
    tasks_redis: {
      redisGetsPerS: summarize(onRedis.runs, (run) => run.redisGetsPerS),
      memoryGetsPerS: summarize(onRedis.runs, (run) => run.memoryGetsPerS),
      redisVsMemory: summarize(onRedis.runs, (run) => run.redisVsMemory),
      pairs: { [redisKey]: mergedPair(onRedis.runs, redisKey) },
      failedResponses: summarize(onRedis.runs, (run) => run.failedResponses),
      raw: onRedis.runs,
      failures: onRedis.failures,
      orders: onRedis.orders,
    },
  };
}

// ---------------------------------------------------------------- main
const h3Version = preflight();
log("functional check of every system");
try {
  execFileSync(process.execPath, [CHECK], { cwd: BENCH_DIR, stdio: ["ignore", "ignore", "inherit"] });
} catch {
  throw new Error(
    "bench/check.mjs failed: a system does not answer the bench's requests (run `node bench/check.mjs`).",
  );
}

const scenarios = {};
if (enabled("inproc")) {
  scenarios.inproc_modern = await inprocScenario("modern");
  scenarios.inproc_legacy = await inprocScenario("legacy");
}
if (enabled("sockets")) scenarios.sockets = await socketsScenario();
if (enabled("memory")) scenarios.memory = await memoryScenario();
if (enabled("stream")) scenarios.streaming = await streamScenario();
if (enabled("bundle")) scenarios.bundle = await bundleScenario();
if (enabled("startup")) scenarios.startup = await startupScenario();
if (enabled("redis")) Object.assign(scenarios, await redisScenarios());
if (enabled("mrtr")) scenarios.mrtr = await mrtrScenario();
if (enabled("tasks")) Object.assign(scenarios, await tasksScenarios());

const exactFigures = computeFigures(scenarios);
const ran = [...(ONLY ?? Object.keys(SCENARIO_GROUPS))].flatMap((name) => SCENARIO_GROUPS[name]);
const verdict = judge(scenarios, exactFigures, ran);
const targets = verdict.verdicts;
const figures = roundFigures(exactFigures);
const spreads = roundSpreads(computeSpreads(scenarios));
const cpus = os.cpus();
const meta = {
  date: new Date().toISOString(),
  command: quick ? "npm run bench -- --quick" : "npm run bench",
  quick,
  totalSeconds: round((performance.now() - started) / 1000, 1),
  machine: {
    cpu: cpus[0]?.model ?? "unknown",
    cores: cpus.length,
    memoryGb: round(os.totalmem() / 2 ** 30, 1),
    platform: `${os.platform()} ${os.release()} ${os.arch()}`,
    loadAverage: os.loadavg().map((v) => round(v, 2)),
  },
  node: process.version,
  versions: {
    "mcp-h3": `${JSON.parse(readFileSync(`${ROOT}package.json`, "utf8")).version} @ ${gitCommit()}`,
    h3: h3Version,
    "@modelcontextprotocol/server": versionOf("@modelcontextprotocol/server"),
    "@modelcontextprotocol/node": versionOf("@modelcontextprotocol/node"),
    tmcp: versionOf("tmcp"),
    "@tmcp/transport-http": versionOf("@tmcp/transport-http"),
    "mcp-handler": versionOf("mcp-handler"),
    zod: versionOf("zod"),
    esbuild: versionOf("esbuild"),
    autocannon: versionOf("autocannon"),
  },
  config: CONFIG,
  // The scenario keys meant to run (--only narrows them): bench/rejudge.mjs judges on the same.
  ran,
  systems: SYSTEMS,
  systemInfo: Object.fromEntries(
    await Promise.all(
      [...SYSTEMS, ...MODERN_VARIANTS, ...REDIS_VARIANTS].map(async (name) => [
        name,
        (await import(`./systems/${name}.mjs`)).info,
      ]),
    ),
  ),
};

const results = {
  meta,
  verdict: { ok: verdict.ok, problems: verdict.problems },
  figures,
  spreads,
  targets,
  scenarios,
};
if (ONLY && !quick) meta.command = `npm run bench -- --only=${[...ONLY].join(",")}`;
// A quick run is for developing the harness: it never replaces the committed results.
const outDir = quick ? new URL("./.quick/", import.meta.url) : new URL("./", import.meta.url);
mkdirSync(outDir, { recursive: true });
writeFileSync(new URL("results.json", outDir), `${JSON.stringify(results, null, 2)}\n`);
writeFileSync(new URL("RESULTS.md", outDir), renderMarkdown(results));

const written = quick ? "bench/.quick/" : "bench/";
log(`done in ${meta.totalSeconds} s; wrote ${written}results.json and ${written}RESULTS.md`);
// The docs site's plots (docs/public/bench/*.svg) follow the committed results; a chart whose scenario this run
// left out (--only) keeps its earlier drawing.
if (!quick) log(`drew ${writeBenchPlots(results).length} plots in docs/public/bench/`);
process.exitCode = printVerdict({ verdict, targets, figures, spreads });
