import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import ts from "typescript";
import { afterAll, describe, expect, it } from "vitest";
import { CHECKED_LANGS, markdownBlocks, OPT_OUT_MARKER, type MarkdownBlock } from "./helpers/readme-blocks.ts";

// Every ts/js block of the README is a complete module that must type-check against the library's real types,
// as a reader who copies it into a file would see it. "mcp-h3" and its subpaths resolve to the sources; h3, zod,
// srvx and the rest resolve from the root node_modules, because the blocks are written inside the repository.

const root = fileURLToPath(new URL("..", import.meta.url));
const readme = readFileSync(join(root, "README.md"), "utf8");
const workDir = mkdtempSync(join(root, ".readme-check-"));
afterAll(() => rmSync(workDir, { recursive: true, force: true }));

const compilerOptions: ts.CompilerOptions = {
  target: ts.ScriptTarget.ES2022,
  lib: ["lib.es2023.d.ts", "lib.dom.d.ts", "lib.dom.iterable.d.ts"],
  module: ts.ModuleKind.NodeNext,
  moduleResolution: ts.ModuleResolutionKind.NodeNext,
  strict: true,
  noEmit: true,
  skipLibCheck: true,
  allowJs: true,
  checkJs: true,
  allowImportingTsExtensions: true,
  types: ["node"],
  paths: {
    "mcp-h3": [join(root, "src/index.ts")],
    "mcp-h3/nitro": [join(root, "src/nitro.ts")],
    "mcp-h3/otel": [join(root, "src/otel.ts")],
    "mcp-h3/redis": [join(root, "src/redis.ts")],
    "mcp-h3/shared": [join(root, "src/shared.ts")],
    "mcp-h3/tasks": [join(root, "src/tasks.ts")],
  },
};

/**
 * A block whose first line is this comment shows an h3 v1 app: it is checked as such an app sees the library,
 * with "h3" (the block's import and the library's own) resolving to h3 v1's types.
 */
const H3_V1_MARKER = "// An h3 v1 app";
const h3V1Options: ts.CompilerOptions = {
  ...compilerOptions,
  paths: { ...compilerOptions.paths, h3: [join(root, "node_modules/h3-v1/dist/index.d.mts")] },
};

/** Type errors of each block, keyed by the README line of its fence; an empty list means it compiles. */
function typeErrors(blocks: readonly MarkdownBlock[]): Map<number, string[]> {
  const v1 = blocks.filter((b) => b.code.startsWith(H3_V1_MARKER));
  const errors = checkBlocks(
    blocks.filter((b) => !v1.includes(b)),
    compilerOptions,
  );
  for (const [line, list] of checkBlocks(v1, h3V1Options)) errors.set(line, [...(errors.get(line) ?? []), ...list]);
  return errors;
}

function checkBlocks(blocks: readonly MarkdownBlock[], options: ts.CompilerOptions): Map<number, string[]> {
  if (blocks.length === 0) return new Map();
  const fileOfLine = new Map<string, number>();
  for (const block of blocks) {
    const ext = block.lang.startsWith("j") || block.lang === "mjs" ? "mjs" : "mts";
    const file = join(workDir, `readme-line-${block.line}.${ext}`);
    // `export {}` makes each block its own module even when it imports nothing.
    writeFileSync(file, `${block.code}\nexport {};\n`);
    fileOfLine.set(file, block.line);
  }
  const program = ts.createProgram([...fileOfLine.keys()], options);
  const errors = new Map<number, string[]>([...fileOfLine.values()].map((line) => [line, []]));
  for (const diagnostic of ts.getPreEmitDiagnostics(program)) {
    const line = diagnostic.file ? fileOfLine.get(diagnostic.file.fileName) : undefined;
    const where =
      diagnostic.file && diagnostic.start !== undefined
        ? diagnostic.file.getLineAndCharacterOfPosition(diagnostic.start).line + 1
        : 0;
    const text = ts.flattenDiagnosticMessageText(diagnostic.messageText, "\n");
    if (line === undefined) {
      // A diagnostic outside the blocks (the library itself, a global option) fails every block: report it once.
      errors.set(-1, [...(errors.get(-1) ?? []), `${diagnostic.file?.fileName ?? "options"}: ${text}`]);
    } else {
      errors.get(line)!.push(`README line ${line + where}: ${text}`);
    }
  }
  return errors;
}

describe("README code blocks", () => {
  const blocks = markdownBlocks(readme);
  const checked = blocks.filter((b) => CHECKED_LANGS.has(b.lang) && !b.code.startsWith(OPT_OUT_MARKER));

  it("has TypeScript blocks to check, and every block names its language", () => {
    expect(checked.length).toBeGreaterThan(10);
    expect(blocks.filter((b) => b.lang === "").map((b) => b.line)).toEqual([]);
  });

  it("no block opts out of the check", () => {
    expect(blocks.filter((b) => b.code.startsWith(OPT_OUT_MARKER)).map((b) => b.line)).toEqual([]);
  });

  it("every ts/js block type-checks against the library's types", { timeout: 120_000 }, () => {
    const errors = typeErrors(checked);
    const failures = [...errors.values()].flat();
    expect(failures, failures.join("\n")).toEqual([]);
  });

  it("a broken block fails the check, naming its README line", { timeout: 120_000 }, () => {
    const broken: MarkdownBlock = {
      lang: "ts",
      line: 9999,
      code: 'import { defineTool } from "mcp-h3";\nconst t = defineTool({ name: "n", handler: () => 42 });\nexport { t };',
    };
    const errors = typeErrors([broken]);
    expect(errors.get(9999)!.join("\n")).toMatch(/^README line 10001: /);
  });
});
