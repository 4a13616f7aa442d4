/**
 * `devLoadTimeoutMs`, the bound of one definition file's load in dev (the hang itself is driven in
 * test/dev-file-handler.test.ts): checked where the config gives it, in a build as in dev, and
 * carried by the generated dev handler module.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { mcpNitroModule, type McpNitroLike } from "../../src/_entries/nitro.ts";
import { devHandlerModule } from "../../src/dev/dev-module.ts";
import { DEV_LOAD_TIMEOUT_MS } from "../../src/dev/load-timeout.ts";

const roots: string[] = [];
afterEach(() => {
  for (const root of roots.splice(0)) rmSync(root, { recursive: true, force: true });
});

function setUp(devLoadTimeoutMs: unknown): void {
  const root = mkdtempSync(join(tmpdir(), "mcp-h3-load-timeout-"));
  roots.push(root);
  const options = { rootDir: root, srcDir: root, handlers: [], imports: { imports: [] } } as McpNitroLike["options"];
  mcpNitroModule({ devLoadTimeoutMs } as { devLoadTimeoutMs: number }).setup({ options });
}

describe("devLoadTimeoutMs", () => {
  it.each([0, -1, Number.NaN, 1.5, "10 s"])("refuses %s, naming the option", (value) => {
    expect(() => setUp(value)).toThrow(/devLoadTimeoutMs must be a positive whole number/);
  });

  it("takes a positive whole number, and defaults when not given", () => {
    expect(() => setUp(500)).not.toThrow();
    expect(() => setUp(undefined)).not.toThrow();
  });

  it("is carried by the dev handler module", () => {
    const input = { dirs: [], rootDir: "/app", buildDir: "/app/.nitro", options: {}, autoImports: false };
    expect(devHandlerModule({ ...input, loadTimeoutMs: 2_500 }, "/jiti.mjs")).toContain("loadTimeoutMs: 2500,");
    expect(devHandlerModule({ ...input, loadTimeoutMs: DEV_LOAD_TIMEOUT_MS }, "/jiti.mjs")).toContain(
      "loadTimeoutMs: 10000,",
    );
  });
});
