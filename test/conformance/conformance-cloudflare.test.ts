/**
 * The official conformance suite against `npm run example:cloudflare`: the conformance fixture's
 * definitions served by a Worker in workerd, offline, with every MCP request in the Durable Object
 * of `defineMcpWorker` (mcp-h3/cloudflare) and its state in the object's SQLite storage. Both eras,
 * held to the same pinned checks as the Node fixture (test/conformance/expected.ts), with no
 * expected-failures file. It serves the built package (run `npm run build` first, as `npm test` does).
 */
import { spawn, type ChildProcess } from "node:child_process";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { freePort } from "../helpers/free-port.ts";
import { LEGACY_2025_11_25, MODERN_2026_07_28 } from "./expected.ts";
import { judgeRun } from "./judge.ts";
import { runSuite } from "./run-suite.ts";

const SERVE = fileURLToPath(new URL("../../scripts/serve-cloudflare.mjs", import.meta.url));
const RUN_TIMEOUT = 600_000;
const START_TIMEOUT_MS = 60_000;

describe.sequential("conformance against npm run example:cloudflare (Durable Objects in workerd)", () => {
  let child: ChildProcess | undefined;
  let stateDir: string;
  let url: string;
  let output = "";

  beforeAll(async () => {
    stateDir = await mkdtemp(join(tmpdir(), "mcp-h3-cloudflare-state-"));
    const port = await freePort();
    url = `http://127.0.0.1:${port}/mcp`;
    child = spawn(process.execPath, [SERVE], {
      env: { ...process.env, PORT: String(port), STATE_DIR: stateDir },
      stdio: ["ignore", "pipe", "pipe"],
    });
    child.stdout!.on("data", (chunk: Buffer) => (output += chunk.toString()));
    child.stderr!.on("data", (chunk: Buffer) => (output += chunk.toString()));
    const deadline = Date.now() + START_TIMEOUT_MS;
    for (;;) {
      if (child.exitCode !== null) throw new Error(`example:cloudflare exited:\n${output}`);
      // Any answer from /mcp means workerd serves the Worker.
      const answered = await fetch(url, { method: "GET" }).then(
        () => true,
        () => false,
      );
      if (answered) break;
      if (Date.now() > deadline) throw new Error(`example:cloudflare did not serve ${url}:\n${output}`);
      await new Promise((resolve) => setTimeout(resolve, 200));
    }
  }, START_TIMEOUT_MS + 10_000);

  afterAll(async () => {
    child?.kill("SIGKILL");
    await rm(stateDir, { recursive: true, force: true });
  });

  it("legacy: --requirements 2025-11-25, exactly the pinned checks", { timeout: RUN_TIMEOUT }, async () => {
    const result = await runSuite(url, ["--requirements", "2025-11-25"]);
    expect(judgeRun(result, LEGACY_2025_11_25), `${result.output}\n${output}`).toEqual([]);
  });

  it(
    "modern: --requirements 2026-07-28 (tasks included), exactly the pinned checks",
    { timeout: RUN_TIMEOUT },
    async () => {
      const result = await runSuite(url, ["--requirements", "2026-07-28"]);
      expect(judgeRun(result, MODERN_2026_07_28), `${result.output}\n${output}`).toEqual([]);
    },
  );
});
