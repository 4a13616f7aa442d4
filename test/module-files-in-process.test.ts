/**
 * docs/guide/testing.md, "A module's definition files": the files of `server/mcp/` tested in process, as the guide
 * shows, with no Nuxt or Nitro build. The test imports a tool file and `mcp/config.ts` from a folder laid out as a
 * Nuxt app's (test/fixtures/module-files, the tutorial's countdown), gives them to `defineMcpFileHandler` the way
 * the module's generated handler does, and drives the result with `mcp-h3/testing` in both eras: progress, the
 * question answered, the task the config's extension allows.
 */
import { describe, expect, it } from "vitest";
import { defineMcpFileHandler } from "mcp-h3/definitions";
import { createMcpTestClient, textOf } from "mcp-h3/testing";
import config from "./fixtures/module-files/server/mcp/config.ts";
import countdown from "./fixtures/module-files/server/mcp/tools/countdown.ts";

const mcp = defineMcpFileHandler({
  options: { name: "nuxt4-example", version: "1.0.0" },
  config,
  files: [{ kind: "tool", name: "countdown", file: "server/mcp/tools/countdown.ts", definition: countdown }],
});

describe("a module's definition files, in process", () => {
  it.each(["legacy", "modern"] as const)("serves the file's tool by its name, in the %s era", async (era) => {
    await using client = await createMcpTestClient(mcp, {
      era,
      elicitation: () => ({ action: "accept", content: { go: true } }),
    });
    const { tools } = await client.listTools();
    expect(tools.map((tool) => [tool.name, tool.description])).toEqual([
      ["countdown", "Counts down from `from` seconds, asks for a go, then lifts off"],
    ]);
    const progress: string[] = [];
    const called = await client.callTool(
      { name: "countdown", arguments: { from: 1 } },
      { onprogress: (update) => void progress.push(`${update.progress} ${update.message}`) },
    );
    expect(textOf(called)).toBe("Lift off!");
    expect(progress.filter((line) => line.endsWith(" s left"))).toEqual(["0 1 s left"]);
    // The config file's tasks extension is on: the call runs as a task too.
    expect(textOf(await client.runTask({ name: "countdown", arguments: { from: 1 } }))).toBe("Lift off!");
  });
});
