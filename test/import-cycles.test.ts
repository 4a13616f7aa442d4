/**
 * `npm run lint` refuses import cycles, type-only imports included (`import/no-cycle` in
 * .oxlintrc.json). A deliberate two-file cycle, must fail the repo's own
 * lint command with that rule; the sources themselves must pass it.
 */
import { execFile } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import { afterAll, describe, expect, it } from "vitest";

const run = promisify(execFile);
const root = fileURLToPath(new URL("..", import.meta.url));
const OXLINT = join(root, "node_modules/.bin/oxlint");

/** Runs oxlint with the repository's configuration; resolves with its exit code and output. */
async function lint(...paths: string[]): Promise<{ code: number; output: string }> {
  try {
    const { stdout, stderr } = await run(OXLINT, ["-c", join(root, ".oxlintrc.json"), ...paths], { cwd: root });
    return { code: 0, output: stdout + stderr };
  } catch (error) {
    const failed = error as { code: number; stdout: string; stderr: string };
    return { code: failed.code, output: failed.stdout + failed.stderr };
  }
}

describe("import cycles", () => {
  // Outside the repository: the second check lints src/ alone, and oxlint skips git-ignored folders.
  const dir = mkdtempSync(join(tmpdir(), "mcp-h3-cycle-check-"));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it("fails the lint on a cycle of type-only imports", async () => {
    writeFileSync(join(dir, "a.ts"), 'import type { B } from "./b.ts";\nexport interface A { b?: B }\n');
    writeFileSync(join(dir, "b.ts"), 'import type { A } from "./a.ts";\nexport interface B { a?: A }\n');
    const { code, output } = await lint(dir);
    expect(code).not.toBe(0);
    expect(output).toContain("import(no-cycle)");
  });

  it("passes on the sources", async () => {
    const { code, output } = await lint(join(root, "src"));
    expect(output).not.toContain("no-cycle");
    expect(code).toBe(0);
  });
});
