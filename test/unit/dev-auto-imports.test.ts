/**
 * What the dev loader of the modules adds to a definition file before running it: an import of
 * each auto-imported name the file calls but neither imports nor declares, on the file's first
 * line (so its errors keep their line numbers), as the framework's bundle would.
 */
import { describe, expect, it } from "vitest";
import { withAutoImports } from "../../src/dev/load-file.ts";

const AUTO = {
  "mcp-h3/definitions": ["defineMcpTool", "defineMcpPrompt"],
  "#imports": ["defineMcpTool", "useStorage", "$fetch"],
};

describe("withAutoImports", () => {
  it("imports what the file calls, from the first module that lists it, on its first line", () => {
    const source = 'export default defineMcpTool({ handler: () => useStorage().getItem("x") });\n';
    const out = withAutoImports(source, AUTO);
    expect(out).toBe(
      'import { defineMcpTool } from "mcp-h3/definitions"; import { useStorage } from "#imports"; ' + source,
    );
    expect(out.split("\n")).toHaveLength(source.split("\n").length);
  });

  it("leaves out names the file imports or declares, and names it does not call", () => {
    const source = [
      'import { defineMcpTool } from "mcp-h3/definitions";',
      "const useStorage = () => null;",
      "// A call in a comment, defineMcpPrompt(...), counts too: the extra import is unused, and harmless.",
      "export default defineMcpTool({ description: 'uses $fetch later', handler: () => obj.$fetch('/x') });",
      "",
    ].join("\n");
    expect(withAutoImports(source, AUTO)).toBe(`import { defineMcpPrompt } from "mcp-h3/definitions"; ${source}`);
  });

  it("imports $fetch when it is called bare", () => {
    expect(withAutoImports("export default $fetch('/a');\n", AUTO)).toBe(
      "import { $fetch } from \"#imports\"; export default $fetch('/a');\n",
    );
  });

  it("leaves a file that needs nothing as it is", () => {
    const source = 'export default { mcpFile: "tool", options: { handler: () => "x" } };\n';
    expect(withAutoImports(source, AUTO)).toBe(source);
  });
});
