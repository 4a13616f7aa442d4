/**
 * The tutorial (docs/guide/tutorial.md) ends where examples/nuxt4 is: the last block the tutorial gives for each file
 * (a block whose first line names the file, `// path: …` or `<!-- path: … -->`) is that file of the example, byte
 * for byte, and every file of the example is given. A file written on the way and moved later (the tool that becomes
 * an app) is listed here, so that a stray path is noticed. Its first step's install line installs what the example
 * depends on, and no h3 (a Nuxt app keeps Nuxt's h3 1.x; with `h3` on the line npm adds 2.x beside it). The example
 * itself is built and served by test/newcomer-path.test.ts, which checks it has one h3.
 */
import { readdirSync, readFileSync, statSync } from "node:fs";
import { join, relative } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { markdownBlocks } from "./helpers/readme-blocks.ts";
import { sectionBlocks, shellCommands } from "./helpers/readme-commands.ts";

const root = fileURLToPath(new URL("..", import.meta.url));
const example = join(root, "examples/nuxt4");
/** What the example holds besides the tutorial's files: its README, and the package.json that installs the tarball. */
const NOT_IN_TUTORIAL = new Set(["README.md", "package.json"]);
/** Files the tutorial writes on the way and moves or removes later. */
const ON_THE_WAY = ["server/mcp/tools/countdown.ts"];
const FILE_HEADER = /^(?:\/\/|<!--)\s*([\w./-]+):/;

/** The example's files, relative to its folder, without what installs and builds leave. */
function exampleFiles(dir = example): string[] {
  return readdirSync(dir).flatMap((entry) => {
    const path = join(dir, entry);
    if ([".nuxt", ".output", "node_modules"].includes(entry)) return [];
    return statSync(path).isDirectory() ? exampleFiles(path) : [relative(example, path)];
  });
}

/** The tutorial's last block for each file it names. */
function tutorialFiles(): Map<string, string> {
  const files = new Map<string, string>();
  for (const block of markdownBlocks(readFileSync(join(root, "docs/guide/tutorial.md"), "utf8"))) {
    const path = FILE_HEADER.exec(block.code.split("\n")[0] ?? "")?.[1];
    if (path !== undefined) files.set(path, `${block.code}\n`);
  }
  return files;
}

describe("the tutorial and examples/nuxt4", () => {
  const given = tutorialFiles();
  const files = exampleFiles().filter((file) => !NOT_IN_TUTORIAL.has(file));

  it("gives every file of the example, and no other but those written on the way", () => {
    expect([...given.keys()].filter((path) => !files.includes(path))).toEqual(ON_THE_WAY);
    expect(files.filter((file) => !given.has(file))).toEqual([]);
    expect(files.length).toBeGreaterThanOrEqual(5);
  });

  it.each(files)("ends %s as the example has it", (file) => {
    expect(given.get(file)).toBe(readFileSync(join(example, file), "utf8"));
  });

  it("installs in its first step what the example depends on besides Nuxt: the tarball and zod, no h3", () => {
    const tutorial = readFileSync(join(root, "docs/guide/tutorial.md"), "utf8");
    const [block] = sectionBlocks(tutorial, "1. An empty Nuxt app (1 minute)").filter((b) => b.lang === "sh");
    const installs = shellCommands(block!.code).filter((c) => c.command.startsWith("npm install"));
    expect(installs.map((c) => c.command)).toEqual(["npm install ../mcp-h3/mcp-h3-0.1.0.tgz zod"]);
    const { dependencies } = JSON.parse(readFileSync(join(example, "package.json"), "utf8")) as {
      dependencies: Record<string, string>;
    };
    expect(Object.keys(dependencies).sort()).toEqual(["mcp-h3", "nuxt", "zod"]);
    expect(dependencies["mcp-h3"]).toMatch(/^file:.*mcp-h3-0\.1\.0\.tgz$/);
  });
});
