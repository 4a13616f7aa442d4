import { spawnSync } from "node:child_process";
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import ts from "typescript";
import { afterAll, describe, expect, it } from "vitest";
import { CHECKED_LANGS, markdownBlocks, OPT_OUT_MARKER, type MarkdownBlock } from "./helpers/readme-blocks.ts";

// Every ts/js block of the README is a complete module that must type-check against the library's real types,
// as a reader who copies it into a file would see it, on TypeScript 5.9 (the root's, through its API) and on
// TypeScript 7 (test/typescript-7, through its tsc command: what `npm i -D typescript` installs today).
// On 5.9 "mcp-h3" and its subpaths resolve to the sources. On 7 they resolve to the built declarations (dist/, which
// `npm test` builds first), as in an app: TypeScript 7 loads no @types/node unless told, and the sources' Node
// adapter names node:http, which the built declarations do not. h3, zod, srvx and the rest resolve from the root
// node_modules, because the blocks are written inside the repository.

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
    "mcp-h3/nitro": [join(root, "src/_entries/nitro.ts")],
    "mcp-h3/otel": [join(root, "src/_entries/otel.ts")],
    "mcp-h3/redis": [join(root, "src/_entries/redis.ts")],
    "mcp-h3/shared": [join(root, "src/_entries/shared.ts")],
    "mcp-h3/apps": [join(root, "src/_entries/apps.ts")],
    "mcp-h3/tasks": [join(root, "src/_entries/tasks.ts")],
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

/** TypeScript 7's compiler, a command (its API is not the 5.x one): installed by `npm test`'s first step (scripts/install-typescript-7.mjs). */
const TSC_7 = join(root, "test/typescript-7/node_modules/typescript/bin/tsc");

/**
 * Type errors of each block on TypeScript 7 with its default `types` (none), keyed as {@link typeErrors}. Each block
 * is its own program, as in a reader's project: one block importing a package whose types pull in @types/node
 * (`/// <reference types="node" />`) would otherwise lend Node's globals to every other block.
 */
function typeErrors7(blocks: readonly MarkdownBlock[]): Map<number, string[]> {
  const errors = new Map<number, string[]>();
  for (const block of blocks) errors.set(block.line, typeErrors7Of(block));
  return errors;
}

function typeErrors7Of(block: MarkdownBlock): string[] {
  const dir = mkdtempSync(join(workDir, "ts7-"));
  const file = `readme-line-${block.line}.${block.lang.startsWith("j") || block.lang === "mjs" ? "mjs" : "mts"}`;
  writeFileSync(join(dir, file), `${block.code}\nexport {};\n`);
  const paths: Record<string, string[]> = {};
  for (const entry of ["index", "nitro", "otel", "redis", "shared", "apps", "tasks", "inspector"]) {
    paths[entry === "index" ? "mcp-h3" : `mcp-h3/${entry}`] = [join(root, `dist/${entry}.d.mts`)];
  }
  if (block.code.startsWith(H3_V1_MARKER)) paths.h3 = [join(root, "node_modules/h3-v1/dist/index.d.mts")];
  const config = {
    compilerOptions: {
      target: "es2022",
      lib: ["es2023", "dom", "dom.iterable"],
      module: "nodenext",
      moduleResolution: "nodenext",
      strict: true,
      noEmit: true,
      skipLibCheck: true,
      allowJs: true,
      checkJs: true,
      paths,
    },
    files: [file],
  };
  writeFileSync(join(dir, "tsconfig.json"), JSON.stringify(config, null, 2));
  const run = spawnSync(process.execPath, [TSC_7, "-p", "tsconfig.json", "--pretty", "false"], {
    cwd: dir,
    encoding: "utf8",
  });
  const errors: string[] = [];
  for (const text of `${run.stdout}${run.stderr}`.split("\n").filter((l) => l.trim() !== "")) {
    const at = /^([^(]+)\((\d+),\d+\): (.*)$/.exec(text);
    errors.push(at && at[1] === file ? `README line ${block.line + Number(at[2])}: ${at[3]}` : text);
  }
  if (run.status !== 0 && errors.length === 0) errors.push(`tsc exited with ${run.status ?? run.signal}`);
  return errors;
}

describe("README code blocks", () => {
  const blocks = markdownBlocks(readme);
  const checked = blocks.filter((b) => CHECKED_LANGS.has(b.lang) && !b.code.startsWith(OPT_OUT_MARKER));

  it("has TypeScript blocks to check, and every block names its language", () => {
    expect(checked.length).toBeGreaterThanOrEqual(4);
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

  it("every ts/js block type-checks on TypeScript 7, with no @types/node loaded", { timeout: 120_000 }, () => {
    expect(
      existsSync(TSC_7),
      "TypeScript 7 is missing: run node scripts/install-typescript-7.mjs (npm test runs it first)",
    ).toBe(true);
    expect(existsSync(join(root, "dist/index.d.mts")), "dist/ is missing: npm run build first").toBe(true);
    const failures = [...typeErrors7(checked).values()].flat();
    expect(failures, failures.join("\n")).toEqual([]);
  });

  it("on TypeScript 7, a block using Node's globals without @types/node fails, naming its README line", () => {
    const usesProcess: MarkdownBlock = {
      lang: "ts",
      line: 9999,
      code: "const port = process.env.PORT;\nexport { port };",
    };
    expect(typeErrors7([usesProcess]).get(9999)!.join("\n")).toMatch(/^README line 10000: error TS2591: .*'process'/);
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

/** GitHub's anchor of a heading: lower-cased, punctuation dropped, spaces to hyphens. */
function anchorOf(heading: string): string {
  return heading
    .toLowerCase()
    .replace(/[^a-z0-9 _-]/g, "")
    .replace(/ /g, "-");
}

describe("README shape and links", () => {
  const lines = readme.split("\n");
  const links = [...readme.matchAll(/\]\(([^)\s]+)\)/g)].map((match) => match[1]!);

  it("stays short: at most 400 lines (the rest is in docs/)", () => {
    expect(lines.length).toBeLessThanOrEqual(400);
  });

  it("keeps the newcomer's sections", () => {
    const headings = lines.filter((line) => line.startsWith("## ")).map((line) => line.slice(3));
    for (const section of ["Install", "30-second start", "Try it with curl", "The page inspector", "Documentation"]) {
      expect(headings).toContain(section);
    }
  });

  it("every `npm run <script>` it names is a script of package.json", () => {
    const { scripts } = JSON.parse(readFileSync(join(root, "package.json"), "utf8")) as {
      scripts: Record<string, string>;
    };
    const named = [...readme.matchAll(/npm run ([\w:-]+)/g)].map((match) => match[1]!);
    expect(named.length).toBeGreaterThanOrEqual(3);
    expect(named.filter((script) => !(script in scripts))).toEqual([]);
  });

  it("every #anchor names a heading of the README", () => {
    const anchors = new Set(lines.filter((l) => /^#{1,6} /.test(l)).map((l) => anchorOf(l.replace(/^#+ /, ""))));
    const broken = links.filter((link) => link.startsWith("#") && !anchors.has(link.slice(1)));
    expect(broken).toEqual([]);
  });

  it("every relative link names a file of the repository (docs/ pages once the docs site is in the tree)", () => {
    const relative = links.filter((link) => !/^[a-z]+:/.test(link) && !link.startsWith("#"));
    expect(relative.length).toBeGreaterThan(10);
    const docsPresent = existsSync(join(root, "docs/index.md"));
    const missing = relative
      .map((link) => link.split("#")[0]!)
      .filter((path) => (docsPresent || !path.startsWith("docs/")) && !existsSync(join(root, path)));
    expect(missing).toEqual([]);
    // Until then, a link into docs/ names a markdown page.
    expect(relative.filter((link) => link.startsWith("docs/") && !/\.md(#.*)?$/.test(link))).toEqual([]);
  });
});
