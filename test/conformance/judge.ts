/**
 * Judging a conformance run from its per-check output, as a pure function (the harness unit test
 * feeds it crafted reports). The suite's own exit code and "failed" count see only FAILURE: a check
 * that turns into WARNING, SKIPPED or INFO, or a scenario that stops running, still reads green.
 * So a run is held to the exact number of checks per status in every scenario it must run.
 */

/** The statuses a check of the suite can end in. */
export const STATUSES = ["SUCCESS", "FAILURE", "WARNING", "INFO", "SKIPPED"] as const;
export type CheckStatus = (typeof STATUSES)[number];

/** How many checks of a scenario ended in each status (statuses with none are left out). */
export type StatusCounts = Partial<Record<CheckStatus, number>>;

/** What one run of the suite reported. */
export interface ObservedRun {
  exitCode: number;
  /** Per scenario, from its `checks.json`. */
  scenarios: Map<string, StatusCounts>;
  /** Scenarios that printed a summary line (`✓ name: N passed, M failed`). */
  summarized: Set<string>;
  /** The "Not scored for <revision>" block: scenario → the suite's reason (extension, pending, …). */
  notScored: Map<string, string>;
  /** The `Total: N passed, M failed` line. */
  total: { passed: number; failed: number } | undefined;
}

/** What a run must report, pinned. */
export interface ExpectedRun {
  /** Every scenario of the run, with the exact count of checks per status. */
  scenarios: Record<string, StatusCounts>;
  /**
   * The suite's "Not scored" block, exactly. Checks may fail or warn only in scenarios the suite
   * reports as not scored because they belong to an extension this project does not implement
   * (the tasks extension); everywhere else a FAILURE or WARNING fails the run.
   */
  notScored: Record<string, string>;
}

/** Counts the checks of one scenario (the objects of its `checks.json`) per status. */
export function countChecks(checks: readonly { status: string }[]): StatusCounts {
  const counts: StatusCounts = {};
  for (const { status } of checks) {
    const known = (STATUSES as readonly string[]).includes(status) ? (status as CheckStatus) : undefined;
    if (known === undefined) throw new Error(`unknown check status ${JSON.stringify(status)}`);
    counts[known] = (counts[known] ?? 0) + 1;
  }
  return counts;
}

const show = (counts: StatusCounts | undefined): string =>
  JSON.stringify(Object.fromEntries(STATUSES.filter((s) => counts?.[s]).map((s) => [s, counts![s]])));

const same = (a: StatusCounts | undefined, b: StatusCounts | undefined): boolean => show(a) === show(b);

/** Every way the run differs from what it must report; an empty list means the run passes. */
export function judgeRun(observed: ObservedRun, expected: ExpectedRun): string[] {
  const problems: string[] = [];
  if (observed.exitCode !== 0) problems.push(`the suite exited ${observed.exitCode}`);

  for (const [name, counts] of Object.entries(expected.scenarios)) {
    const seen = observed.scenarios.get(name);
    if (seen === undefined) problems.push(`${name}: did not run (no per-check output)`);
    else if (!same(seen, counts)) problems.push(`${name}: expected ${show(counts)}, got ${show(seen)}`);
  }
  for (const name of observed.scenarios.keys()) {
    if (!(name in expected.scenarios)) problems.push(`${name}: ran, but is not pinned`);
  }
  for (const name of observed.summarized) {
    if (!observed.scenarios.has(name)) problems.push(`${name}: summarized, but wrote no per-check output`);
  }

  for (const [name, counts] of observed.scenarios) {
    const bad = (counts.FAILURE ?? 0) + (counts.WARNING ?? 0);
    if (bad > 0 && observed.notScored.get(name) !== "extension") {
      problems.push(`${name}: ${counts.FAILURE ?? 0} FAILURE and ${counts.WARNING ?? 0} WARNING in a scored scenario`);
    }
  }

  const notScored = [...observed.notScored].map(([name, why]) => `${name} (${why})`).sort();
  const pinned = Object.entries(expected.notScored)
    .map(([name, why]) => `${name} (${why})`)
    .sort();
  if (notScored.join() !== pinned.join()) {
    problems.push(`not scored: expected [${pinned.join(", ")}], got [${notScored.join(", ")}]`);
  }

  let passed = 0;
  let failed = 0;
  for (const counts of observed.scenarios.values()) {
    passed += counts.SUCCESS ?? 0;
    failed += counts.FAILURE ?? 0;
  }
  const total = observed.total;
  if (total === undefined) problems.push("no Total line");
  else if (total.passed !== passed || total.failed !== failed) {
    problems.push(`Total says ${total.passed} passed, ${total.failed} failed; the checks say ${passed} and ${failed}`);
  }
  return problems;
}
