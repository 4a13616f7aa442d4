/**
 * Judges a results.json again with the current figures and targets (lib/figures.mjs, lib/judge.mjs)
 * and exits as the runner would: 1 on any problem, 0 only when there is none. For checking a
 * committed run after a change to the judge, and for the harness unit test, which feeds it runs
 * with a miss.
 *
 *   node bench/rejudge.mjs [bench/results.json]
 */
import { readFileSync } from "node:fs";
import { computeFigures, computeSpreads, roundFigures, roundSpreads } from "./lib/figures.mjs";
import { SCENARIO_GROUPS, judge } from "./lib/judge.mjs";
import { printVerdict } from "./lib/verdict.mjs";

const file = process.argv[2] ?? new URL("./results.json", import.meta.url);
const { meta, scenarios } = JSON.parse(readFileSync(file, "utf8"));
const ran = meta?.ran ?? Object.values(SCENARIO_GROUPS).flat();
const exact = computeFigures(scenarios);
const verdict = judge(scenarios, exact, ran);
process.exitCode = printVerdict({
  verdict,
  targets: verdict.verdicts,
  figures: roundFigures(exact),
  spreads: roundSpreads(computeSpreads(scenarios)),
});
