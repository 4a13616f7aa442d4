/**
 * The modules' dev handler (`src/_entries/nitro-dev.ts`, what `nitro dev` / `nuxi dev` serve the definition
 * files with) on its own, over real HTTP with the 2.x client: a burst of writes gives one reload,
 * not one per write; and once the handler is closed its watchers are gone (a file written then is
 * never loaded); a file whose evaluation never settles is named once its load times out, and the
 * reloads after it still run. The framework dev servers themselves are tested in test/frameworks/*-dev.test.ts.
 */
import { mkdir, mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { defineMcpDevFileHandler } from "../src/_entries/nitro-dev.ts";
import type { McpEventHandler } from "../src/handler-types.ts";
import { startHost, type RunningHost } from "./helpers/hosts.ts";
import { MODERN_MODES, connectModern } from "./helpers/modern-clients.ts";

const JITI = fileURLToPath(new URL("../node_modules/jiti/lib/jiti.mjs", import.meta.url));

/** A tool file in the plain shape `defineMcpTool` returns (the test folder has no mcp-h3 to import). */
const toolFile = (description: string): string =>
  `export default { mcpFile: "tool", options: { description: ${JSON.stringify(description)}, handler: () => "ok" } };\n`;

describe("the dev handler of the modules", () => {
  let dir: string;
  let handler: McpEventHandler;
  let host: RunningHost;
  let reloads: string[];
  let failures: string[];

  beforeEach(async () => {
    dir = await mkdtemp(join(tmpdir(), "mcp-h3-dev-handler-"));
    await mkdir(join(dir, "mcp/tools"), { recursive: true });
    await writeFile(join(dir, "mcp/tools/first.mjs"), toolFile("First"));
    reloads = [];
    failures = [];
    vi.spyOn(console, "info").mockImplementation((message: string) => void reloads.push(message));
    vi.spyOn(console, "error").mockImplementation((message: string) => void failures.push(message));
    handler = defineMcpDevFileHandler({
      options: { name: "dev-test", version: "1.0.0" },
      dirs: [dir],
      rootDir: dir,
      jiti: JITI,
      shimDir: join(dir, ".shims"),
      modules: () => ({}),
      autoImports: {},
      loadTimeoutMs: 1_000,
    });
    host = await startHost("h3-v2", handler);
  });
  afterEach(async () => {
    vi.restoreAllMocks();
    await host.close();
    await handler.close();
    await rm(dir, { recursive: true, force: true });
  });

  const toolNames = async (): Promise<string[]> => {
    const connection = await connectModern(host.url, MODERN_MODES[0]!);
    try {
      return (await connection.client.listTools()).tools.map((tool) => `${tool.name}: ${tool.description}`);
    } finally {
      await connection.close();
    }
  };

  it("reloads once for a burst of writes, and serves the last of them", async () => {
    expect(await toolNames()).toEqual(["first: First"]);
    for (let index = 1; index <= 20; index++)
      await writeFile(join(dir, "mcp/tools/first.mjs"), toolFile(`Take ${index}`));
    await expect.poll(toolNames, { timeout: 5_000 }).toEqual(["first: Take 20"]);
    // Settled: no reload is still to come.
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(reloads.length).toBeGreaterThanOrEqual(1);
    expect(reloads.length).toBeLessThanOrEqual(2);
  });

  it("stops watching when the handler closes", async () => {
    const watchers = (): number =>
      process.getActiveResourcesInfo().filter((resource) => resource === "FSEventWrap").length;
    expect(watchers()).toBeGreaterThan(0);
    await writeFile(join(dir, "mcp/tools/second.mjs"), toolFile("Second"));
    await expect.poll(() => reloads.length, { timeout: 5_000 }).toBe(1);
    await handler.close();
    // The folder's watchers are released (nothing else in this test process watches files)...
    await expect.poll(watchers, { timeout: 2_000 }).toBe(0);
    // ...and a file written after the close is never loaded.
    await writeFile(join(dir, "mcp/tools/third.mjs"), toolFile("Third"));
    await new Promise((resolve) => setTimeout(resolve, 500));
    expect(reloads).toHaveLength(1);
  });

  it("names a file whose evaluation never settles, keeps serving, and goes on reloading", async () => {
    expect(await toolNames()).toEqual(["first: First"]);
    const hanging = join(dir, "mcp/tools/hanging.mjs");
    await writeFile(hanging, `await new Promise(() => {});\n${toolFile("Hanging")}`);
    // The load is given up after loadTimeoutMs, the file named; the last good set stays served.
    await expect.poll(() => failures.length, { timeout: 5_000 }).toBe(1);
    expect(failures[0]).toContain("mcp/tools/hanging.mjs");
    expect(failures[0]).toContain("did not settle within 1000 ms");
    expect(await toolNames()).toEqual(["first: First"]);
    // A change to another file is loaded (the set still holds the hanging file: said again, by its name)...
    await writeFile(join(dir, "mcp/tools/first.mjs"), toolFile("First, edited"));
    await expect.poll(() => failures.length, { timeout: 5_000 }).toBe(2);
    expect(failures[1]).toContain("mcp/tools/hanging.mjs");
    // ...and once the file is fixed, both changes are served.
    await writeFile(hanging, toolFile("Hanging no more"));
    await expect.poll(toolNames, { timeout: 5_000 }).toEqual(["first: First, edited", "hanging: Hanging no more"]);
  });
});
