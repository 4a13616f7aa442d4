/**
 * The bench runner: `npm run bench` from the repository root (builds dist/, installs bench/'s own
 * dependencies, runs this). Every scenario runs every system, interleaved within each repetition
 * (A, B, C, A, B, C, …) so drift on a shared machine hits all of them alike; each in-process run
 * is a fresh child process per system and repetition. Writes bench/results.json and
 * bench/RESULTS.md.
 *
 * Flags: --quick (short durations, one repetition: for developing the harness, not for results),
 * --reps=N, --only=inproc,sockets,memory,stream,bundle,startup (a subset; the others are left out).
 */
import { execFileSync } from "node:child_process";
import { readFileSync, writeFileSync, existsSync } from "node:fs";
import os from "node:os";
import { fileURLToPath } from "node:url";
import { BENCH_DIR, runChild } from "./lib/child.mjs";
import { SYSTEMS } from "./lib/systems.mjs";
import { measureSockets } from "./lib/sockets.mjs";
import { BUNDLES, measureBundle } from "./lib/bundle.mjs";
import { summary, round } from "./lib/stats.mjs";
import { computeFigures, evaluateTargets, roundFigures } from "./lib/figures.mjs";
import { renderMarkdown } from "./lib/report.mjs";

const ROOT = fileURLToPath(new URL("..", import.meta.url));
const args = new Map(
  process.argv.slice(2).map((arg) => {
    const [key, value] = arg.replace(/^--/, "").split("=");
    return [key, value ?? true];
  }),
);
const quick = args.has("quick");
const ONLY = args.has("only") ? new Set(String(args.get("only")).split(",")) : undefined;
const enabled = (scenario) => !ONLY || ONLY.has(scenario);

const reps = (full) => Number(args.get("reps") ?? (quick ? 1 : full));
const CONFIG = {
  inproc: { reps: reps(7), concurrency: [1, 32], warmupMs: quick ? 300 : 500, durationMs: quick ? 700 : 1000 },
  sockets: { reps: reps(5), connections: 64, durationS: quick ? 3 : 10, warmupS: quick ? 1 : 2 },
  memory: { reps: reps(3), sessions: 10_000 },
  stream: { reps: reps(5), count: 10_000 },
  startup: { reps: Number(args.get("reps") ?? (quick ? 3 : 7)) },
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

/** Runs `task(system, rep)` for every repetition and system, interleaved; failures are recorded, not fatal. */
async function interleave(label, systems, reps, task) {
  const runs = Object.fromEntries(systems.map((s) => [s, []]));
  const errors = {};
  for (let rep = 0; rep < reps; rep++) {
    for (const system of systems) {
      try {
        runs[system].push(await task(system, rep));
      } catch (error) {
        runs[system].push(null);
        errors[system] = String(error.message ?? error).slice(0, 500);
        log(`${label} ${system} rep ${rep + 1}: FAILED ${errors[system].split("\n")[0]}`);
      }
    }
    log(`${label}: repetition ${rep + 1}/${reps} done`);
  }
  return { runs, errors };
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

async function inprocScenario(era) {
  const { runs, errors } = await interleave(`in-process ${era}`, SYSTEMS, CONFIG.inproc.reps, (system) =>
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
  const modes = Object.fromEntries(SYSTEMS.map((s) => [s, runs[s].find(Boolean)?.mode ?? null]));
  return { modes, ...byLevel, raw: runs, errors };
}

async function socketsScenario() {
  const { runs, errors } = await interleave("sockets", SYSTEMS, CONFIG.sockets.reps, (system) =>
    measureSockets(system, CONFIG.sockets),
  );
  return {
    rps: summarize(runs, (r) => r.rps),
    p50: summarize(runs, (r) => r.p50),
    p99: summarize(runs, (r) => r.p99),
    failures: summarize(runs, (r) => r.errors + r.non2xx),
    rpsVsBare: pairedRatios(runs, (r) => r.rps),
    raw: runs,
    errors,
  };
}

async function memoryScenario() {
  const systems = [];
  for (const name of SYSTEMS) {
    const { info } = await import(`./systems/${name}.mjs`);
    if (info.legacy === "session") systems.push(name);
  }
  const { runs, errors } = await interleave("memory", systems, CONFIG.memory.reps, (system) =>
    runChild(MEMORY, { system, sessions: CONFIG.memory.sessions }, { nodeArgs: ["--expose-gc"] }),
  );
  return {
    systems,
    rssPerSession: summarize(runs, (r) => r.rssPerSession),
    heapPerSession: summarize(runs, (r) => r.heapPerSession),
    rssPerSessionVsCold: summarize(runs, (r) => r.rssPerSessionVsCold),
    rssAfterVsBaseline: summarize(runs, (r) => r.rssAfterVsBaseline),
    rssAfterVsCold: summarize(runs, (r) => r.rssAfterVsCold),
    baselineRssMb: summarize(runs, (r) => r.baseline.rss / 1e6),
    openRssMb: summarize(runs, (r) => r.open.rss / 1e6),
    afterRssMb: summarize(runs, (r) => r.after.rss / 1e6),
    openMs: summarize(runs, (r) => r.openMs),
    raw: runs,
    errors,
  };
}

async function streamScenario() {
  const { runs, errors } = await interleave("streaming", SYSTEMS, CONFIG.stream.reps, (system) =>
    runChild(STREAM, { system, count: CONFIG.stream.count }, { nodeArgs: ["--expose-gc"] }),
  );
  return {
    perSecond: summarize(runs, (r) => r.perSecond),
    ms: summarize(runs, (r) => r.ms),
    perSecondVsBare: pairedRatios(runs, (r) => r.perSecond),
    raw: runs,
    errors,
  };
}

async function bundleScenario() {
  const out = {};
  for (const bundle of BUNDLES) {
    out[bundle.name] = { label: bundle.label, ...(await measureBundle(bundle)) };
  }
  log("bundles done");
  return out;
}

async function startupScenario() {
  const { runs, errors } = await interleave("startup", SYSTEMS, CONFIG.startup.reps, (system) =>
    runChild(STARTUP, { system }),
  );
  return {
    importMs: summarize(runs, (r) => r.importMs),
    createMs: summarize(runs, (r) => r.createMs),
    firstRequestMs: summarize(runs, (r) => r.firstRequestMs),
    raw: runs,
    errors,
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

const exactFigures = computeFigures(scenarios);
const targets = evaluateTargets(exactFigures);
const figures = roundFigures(exactFigures);
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
  systems: SYSTEMS,
  systemInfo: Object.fromEntries(
    await Promise.all(SYSTEMS.map(async (name) => [name, (await import(`./systems/${name}.mjs`)).info])),
  ),
};

const results = { meta, figures, targets, scenarios };
if (ONLY && !quick) meta.command = `npm run bench -- --only=${[...ONLY].join(",")}`;
writeFileSync(new URL("./results.json", import.meta.url), `${JSON.stringify(results, null, 2)}\n`);
writeFileSync(new URL("./RESULTS.md", import.meta.url), renderMarkdown(results));

log(`done in ${meta.totalSeconds} s; wrote bench/results.json and bench/RESULTS.md`);
console.log("\nfigures:");
for (const target of targets) {
  const met = target.met === null ? "n/a" : target.met ? "met" : "NOT met";
  console.log(
    `  ${target.key.padEnd(32)} ${String(target.measured).padStart(10)}  target ${target.target.padEnd(12)} ${met}`,
  );
}
