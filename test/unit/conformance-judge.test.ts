/**
 * The conformance judge (test/conformance/judge.ts) on crafted reports: each way a run can look
 * green to the suite's own summary while it is not — a WARNING, a check turned SKIPPED or INFO, a
 * scenario that stopped running, changed totals, a scenario that became scored — fails the run.
 */
import { mkdtempSync, mkdirSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { countChecks, judgeRun, type ExpectedRun, type ObservedRun, type StatusCounts } from "../conformance/judge.ts";
import { parseSummary, readChecks } from "../conformance/run-suite.ts";

const EXPECTED: ExpectedRun = {
  scenarios: {
    ping: { SUCCESS: 2 },
    "server-sse-polling": { SUCCESS: 3, INFO: 7 },
    "tasks-lifecycle": { SUCCESS: 1, FAILURE: 8 },
  },
  notScored: { "server-sse-polling": "pending", "tasks-lifecycle": "extension" },
};

/** A report that matches EXPECTED, with `change` applied. */
function observed(change: (run: ObservedRun) => void = () => {}): ObservedRun {
  const scenarios = new Map<string, StatusCounts>(
    Object.entries(EXPECTED.scenarios).map(([name, counts]) => [name, { ...counts }]),
  );
  const run: ObservedRun = {
    exitCode: 0,
    scenarios,
    summarized: new Set(scenarios.keys()),
    notScored: new Map(Object.entries(EXPECTED.notScored)),
    total: { passed: 6, failed: 8 },
  };
  change(run);
  return run;
}

describe("conformance judge", () => {
  it("passes a run that reports exactly the pinned checks (failures only in a not-scored extension)", () => {
    expect(judgeRun(observed(), EXPECTED)).toEqual([]);
  });

  it("fails on a WARNING in a scored scenario, though the suite's failed count is 0", () => {
    const problems = judgeRun(
      observed((run) => run.scenarios.set("ping", { SUCCESS: 1, WARNING: 1 })),
      { ...EXPECTED, scenarios: { ...EXPECTED.scenarios, ping: { SUCCESS: 1, WARNING: 1 } } },
    );
    expect(problems).toEqual(["ping: 0 FAILURE and 1 WARNING in a scored scenario", expect.stringMatching(/^Total/)]);
  });

  it("fails on a FAILURE in a scored scenario even when the pin lists it", () => {
    const failing = { SUCCESS: 1, FAILURE: 1 };
    const run = observed((r) => {
      r.scenarios.set("ping", failing);
      r.total = { passed: 5, failed: 9 };
    });
    expect(judgeRun(run, { ...EXPECTED, scenarios: { ...EXPECTED.scenarios, ping: failing } })).toEqual([
      "ping: 1 FAILURE and 0 WARNING in a scored scenario",
    ]);
  });

  it("fails when a check turns SKIPPED or INFO", () => {
    const skipped = observed((run) => {
      run.scenarios.set("ping", { SKIPPED: 2 });
      run.total = { passed: 4, failed: 8 };
    });
    expect(judgeRun(skipped, EXPECTED)).toEqual(['ping: expected {"SUCCESS":2}, got {"SKIPPED":2}']);
    const info = observed((run) => {
      run.scenarios.set("server-sse-polling", { SUCCESS: 2, INFO: 8 });
      run.total = { passed: 5, failed: 8 };
    });
    expect(judgeRun(info, EXPECTED)).toEqual([
      'server-sse-polling: expected {"SUCCESS":3,"INFO":7}, got {"SUCCESS":2,"INFO":8}',
    ]);
  });

  it("fails when a scenario stops running, or runs without per-check output", () => {
    const missing = observed((run) => {
      run.scenarios.delete("ping");
      run.summarized.delete("ping");
      run.total = { passed: 4, failed: 8 };
    });
    expect(judgeRun(missing, EXPECTED)).toEqual(["ping: did not run (no per-check output)"]);
    const unrecorded = observed((run) => {
      run.scenarios.delete("ping");
      run.total = { passed: 4, failed: 8 };
    });
    expect(judgeRun(unrecorded, EXPECTED)).toContain("ping: summarized, but wrote no per-check output");
  });

  it("fails on a scenario nobody pinned", () => {
    const extra = observed((run) => {
      run.scenarios.set("new-scenario", { SUCCESS: 1 });
      run.total = { passed: 7, failed: 8 };
    });
    expect(judgeRun(extra, EXPECTED)).toEqual(["new-scenario: ran, but is not pinned"]);
  });

  it("fails when the totals change or disagree with the checks", () => {
    const more = observed((run) => {
      run.scenarios.set("ping", { SUCCESS: 3 });
      run.total = { passed: 7, failed: 8 };
    });
    expect(judgeRun(more, EXPECTED)).toEqual(['ping: expected {"SUCCESS":2}, got {"SUCCESS":3}']);
    const disagree = observed((run) => (run.total = { passed: 6, failed: 0 }));
    expect(judgeRun(disagree, EXPECTED)).toEqual(["Total says 6 passed, 0 failed; the checks say 6 and 8"]);
    expect(
      judgeRun(
        observed((run) => (run.total = undefined)),
        EXPECTED,
      ),
    ).toEqual(["no Total line"]);
  });

  it("fails when an extension's scenario becomes scored, or the not-scored block changes", () => {
    const scored = observed((run) => run.notScored.delete("tasks-lifecycle"));
    expect(judgeRun(scored, EXPECTED)).toEqual([
      "tasks-lifecycle: 8 FAILURE and 0 WARNING in a scored scenario",
      "not scored: expected [server-sse-polling (pending), tasks-lifecycle (extension)], got [server-sse-polling (pending)]",
    ]);
  });

  it("fails when the suite exits non-zero", () => {
    expect(
      judgeRun(
        observed((run) => (run.exitCode = 1)),
        EXPECTED,
      ),
    ).toEqual(["the suite exited 1"]);
  });

  it("counts checks per status and refuses a status it does not know", () => {
    expect(countChecks([{ status: "SUCCESS" }, { status: "INFO" }, { status: "SUCCESS" }])).toEqual({
      SUCCESS: 2,
      INFO: 1,
    });
    expect(() => countChecks([{ status: "PASSED" }])).toThrow(/unknown check status/);
  });
});

describe("reading the suite's output", () => {
  it("parses the summary lines, the not-scored block and the total", () => {
    const output = [
      "=== Running scenario: ping ===",
      "✓ ping: 2 passed, 0 failed",
      "✗ tasks-lifecycle: 1 passed, 8 failed",
      "",
      "Total: 3 passed, 8 failed",
      "",
      "Not scored for 2026-07-28: 2 scenario(s) run, 1 failing. These do not affect conformance.",
      "  ✗ tasks-lifecycle (extension)",
      "  ✓ json-schema-2020-12 (pending)",
      "",
    ].join("\n");
    const summary = parseSummary(output);
    expect([...summary.summarized]).toEqual(["ping", "tasks-lifecycle"]);
    expect(Object.fromEntries(summary.notScored)).toEqual({
      "tasks-lifecycle": "extension",
      "json-schema-2020-12": "pending",
    });
    expect(summary.total).toEqual({ passed: 3, failed: 8 });
  });

  it("reads checks.json per scenario from the output directory", () => {
    const dir = mkdtempSync(join(tmpdir(), "judge-"));
    try {
      const write = (entry: string, checks: object[]) => {
        mkdirSync(join(dir, entry));
        writeFileSync(join(dir, entry, "checks.json"), JSON.stringify(checks));
      };
      write("server-server-sse-polling-2026-11-30T21-13-40-039Z", [{ status: "SUCCESS" }, { status: "INFO" }]);
      write("server-ping-2026-11-30T21-13-41-000Z", [{ status: "WARNING" }]);
      expect(Object.fromEntries(readChecks(dir))).toEqual({
        "server-sse-polling": { SUCCESS: 1, INFO: 1 },
        ping: { WARNING: 1 },
      });
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
