/**
 * Every `ts` block of the docs site (docs/**\/*.md) type-checks as a module a reader would copy, on TypeScript 5.9
 * (the root one, each block alone) and on TypeScript 7 (test/typescript-7, its CLI), with the compiler options
 * the site's build-time check (twoslash) uses: no `@types` package unless a block imports it, as TypeScript 7
 * compiles a new project. "mcp-h3" and its subpaths resolve to the sources; h3, zod and the rest to node_modules.
 */
import { existsSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { join, relative } from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, describe, expect, it } from "vitest";
import { docsCompilerOptions, H3_V1_MARKER } from "../docs/.vitepress/compiler-options.ts";
import { checkWithApi, checkWithCli, markdownFiles, type CheckedBlock } from "./helpers/docs-blocks.ts";
import { CHECKED_LANGS, markdownBlocks } from "./helpers/readme-blocks.ts";

const root = fileURLToPath(new URL("..", import.meta.url));
const tsc7 = join(root, "test/typescript-7/node_modules/typescript/bin/tsc");
const workDir = mkdtempSync(join(root, ".docs-check-"));
afterAll(() => rmSync(workDir, { recursive: true, force: true }));

const pages = markdownFiles(join(root, "docs"));
const all = pages.flatMap((file) =>
  markdownBlocks(readFileSync(file, "utf8")).map((block) => ({ ...block, where: relative(root, file) })),
);
const blocks: CheckedBlock[] = all
  .filter((b) => b.lang === "ts")
  .map((b, i) => ({ id: `block-${i}`, where: b.where, line: b.line, code: b.code }));
const v1 = blocks.filter((b) => b.code.startsWith(H3_V1_MARKER));
const v2 = blocks.filter((b) => !v1.includes(b));

function failures(errors: Map<string, string[]>): string[] {
  return [...errors.values()].flat();
}

describe("docs code blocks", () => {
  it("the site has ts blocks, every block names its language, and every checked language is `ts`", () => {
    expect(pages.length).toBeGreaterThan(15);
    expect(blocks.length).toBeGreaterThan(35);
    expect(all.filter((b) => b.lang === "").map((b) => `${b.where}:${b.line}`)).toEqual([]);
    // twoslash checks `ts` blocks at build time: a js or typescript block would escape that check.
    expect(all.filter((b) => CHECKED_LANGS.has(b.lang) && b.lang !== "ts").map((b) => `${b.where}:${b.line}`)).toEqual(
      [],
    );
  });

  it("every ts block type-checks on TypeScript 5.9, each block alone", { timeout: 240_000 }, () => {
    const errors = new Map([
      ...checkWithApi(workDir, v2, docsCompilerOptions(root)),
      ...checkWithApi(workDir, v1, docsCompilerOptions(root, { h3V1: true })),
    ]);
    expect(failures(errors), failures(errors).join("\n")).toEqual([]);
  });

  it("every ts block type-checks on TypeScript 7", { timeout: 240_000 }, async () => {
    expect(existsSync(tsc7), `${tsc7} missing: npm ci --prefix test/typescript-7`).toBe(true);
    const errors = new Map([
      ...(await checkWithCli(tsc7, mkdtempSync(join(workDir, "v2-")), v2, docsCompilerOptions(root))),
      ...(await checkWithCli(tsc7, mkdtempSync(join(workDir, "v1-")), v1, docsCompilerOptions(root, { h3V1: true }))),
    ]);
    expect(failures(errors), failures(errors).join("\n")).toEqual([]);
  });

  it("a broken block fails both checks, naming its page and line", { timeout: 240_000 }, async () => {
    const broken: CheckedBlock = {
      id: "broken",
      where: "docs/guide/example.md",
      line: 40,
      code: 'import { defineTool } from "mcp-h3";\nconst t = defineTool({ name: "n", handler: () => 42 });\nexport { t };',
    };
    const usesProcess: CheckedBlock = {
      id: "process",
      where: "docs/guide/example.md",
      line: 50,
      code: "process.exit(0);",
    };
    const api = checkWithApi(workDir, [broken, usesProcess], docsCompilerOptions(root));
    expect(api.get("broken")!.join("\n")).toMatch(/^docs\/guide\/example\.md line 42: /);
    // Without @types/node loaded by default, a bare `process` does not compile.
    expect(api.get("process")!.join("\n")).toMatch(/^docs\/guide\/example\.md line 51: Cannot find name 'process'/);
    const cli = await checkWithCli(
      tsc7,
      mkdtempSync(join(workDir, "broken-")),
      [broken, usesProcess],
      docsCompilerOptions(root),
    );
    expect(cli.get("broken")!.join("\n")).toMatch(/^docs\/guide\/example\.md line 42: TS\d+: /);
    expect(cli.get("process")!.join("\n")).toMatch(
      /^docs\/guide\/example\.md line 51: TS2591: Cannot find name 'process'/,
    );
  });
});
