/**
 * The verdict of a bench run, as a pure function of its scenarios (bench/run.mjs calls it; the
 * harness unit test feeds it deliberately broken results). The run fails, and `npm run bench`
 * exits non-zero, when any of these holds — each is listed with what caused it:
 * - a repetition failed (a child exited, a probe of its scenario failed, a system did not answer);
 * - a response was an error, a non-2xx or not the expected body: every figure of that scenario
 *   and system is void (speed measured on errors is no speed);
 * - a window of an alternating pair (lib/pairs.mjs) got such a response, or the pair failed: the
 *   figures of that pair are void;
 * - a figure of a scenario that ran is missing (a windowed figure with no pair measured is missing);
 * - a target is missed.
 */
import { FIGURES, TARGETS, roundFigures } from "./figures.mjs";

/** Fewer alternating pairs than this and a windowed figure is missing: a median of a handful is no figure. */
export const MIN_PAIRS = 5;

/** The scenarios of results.scenarios, grouped by the name `--only` knows them by. */
export const SCENARIO_GROUPS = {
  inproc: ["inproc_modern", "inproc_legacy"],
  sockets: ["sockets"],
  memory: ["memory"],
  stream: ["streaming"],
  bundle: ["bundle"],
  startup: ["startup"],
  redis: ["redis_legacy", "redis_notify"],
  mrtr: ["mrtr"],
  tasks: ["tasks", "tasks_memory", "tasks_redis"],
};

/**
 * What went wrong in one scenario, per system: failed repetitions and pairs (`scenario.failures`,
 * recorded by the runner), runs with failed responses (`run.failedResponses > 0`) and systems of an
 * alternating pair with failed responses in its warm-up or windows (`pair.failedResponses`).
 */
export function scenarioProblems(key, scenario) {
  const problems = [];
  for (const { system, rep, pair, message } of scenario?.failures ?? []) {
    const where = pair ? `in the pair ${pair}` : `repetition ${rep + 1}`;
    problems.push({ system, text: `${key}: ${system} ${where} failed: ${message.split("\n")[0]}` });
  }
  for (const [pairName, pair] of Object.entries(scenario?.pairs ?? {})) {
    for (const [system, count] of Object.entries(pair?.failedResponses ?? {})) {
      if (count > 0) {
        problems.push({
          system,
          text: `${key}: ${system} got ${count} error, non-2xx or unexpected responses in the pair ${pairName}`,
        });
      }
    }
    // Over sockets one body in 64 is checked: over all of a side's windows, some must have been.
    for (const side of ["a", "b"]) {
      const windows = (pair?.windows ?? []).map((w) => w[side]).filter((w) => w && "sampled" in w);
      if (windows.length > 0 && windows.every((w) => w.sampled === 0)) {
        problems.push({
          system: pair[side],
          text: `${key}: ${pair[side]} had no body checked in the pair ${pairName}`,
        });
      }
    }
  }
  for (const [system, runs] of Object.entries(scenario?.raw ?? {})) {
    runs.forEach((run, rep) => {
      if (run && run.failedResponses > 0) {
        problems.push({
          system,
          text: `${key}: ${system} repetition ${rep + 1} got ${run.failedResponses} error, non-2xx or unexpected responses`,
        });
      }
    });
  }
  return problems;
}

function describeMiss(op, bound, exact) {
  const off = op === ">=" ? (bound - exact) / bound : (exact - bound) / bound;
  return `${op === ">=" ? "short of" : "over"} ${bound} by ${(off * 100).toFixed(1)}%`;
}

/**
 * Judges a run. `scenarios` is results.scenarios; `exactFigures` the unrounded figures;
 * `ran` the scenario keys that were meant to run (default: all of them; `--only` narrows it, and
 * targets of scenarios left out are reported as "not run" without failing the run).
 * Returns every target's verdict and the list of problems; `ok` is true only when there are none.
 */
export function judge(scenarios, exactFigures, ran = Object.values(SCENARIO_GROUPS).flat()) {
  const problems = [];
  const bySystem = {};
  for (const key of ran) {
    if (!scenarios[key]) {
      problems.push(`${key}: did not run`);
      continue;
    }
    bySystem[key] = scenarioProblems(key, scenarios[key]);
    problems.push(...bySystem[key].map((p) => p.text));
  }

  const reported = roundFigures(exactFigures);
  const verdicts = TARGETS.map(([key, op, bound, what]) => {
    const figure = FIGURES[key];
    const exact = exactFigures[key] ?? null;
    const base = { key, what, target: `${op === ">=" ? "≥" : "≤"} ${bound}`, measured: reported[key] ?? null };
    if (!ran.includes(figure.scenario)) return { ...base, verdict: "not run", met: null };
    const causes = (bySystem[figure.scenario] ?? []).filter((p) => figure.systems.includes(p.system));
    if (causes.length > 0) {
      return { ...base, verdict: "void", met: false, reason: causes.map((p) => p.text).join("; ") };
    }
    if (exact === null || !Number.isFinite(exact)) {
      return { ...base, verdict: "missing", met: false, reason: `no data for ${key}` };
    }
    const pairs = figure.spread?.(scenarios).pairs;
    if (pairs !== undefined && pairs < MIN_PAIRS) {
      return { ...base, verdict: "missing", met: false, reason: `${pairs} pairs for ${key}, fewer than ${MIN_PAIRS}` };
    }
    const met = op === ">=" ? exact >= bound : exact <= bound;
    return met
      ? { ...base, verdict: "met", met }
      : { ...base, verdict: "NOT met", met, reason: describeMiss(op, bound, exact) };
  });
  for (const v of verdicts) {
    if (v.verdict === "void") problems.push(`${v.key}: void (${v.reason})`);
    if (v.verdict === "missing") problems.push(`${v.key}: missing (${v.reason})`);
    if (v.verdict === "NOT met") problems.push(`${v.key}: ${v.measured} ${v.reason}`);
  }
  return { ok: problems.length === 0, verdicts, problems };
}
