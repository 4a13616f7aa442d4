/**
 * docs/guide/testing.md installs what its examples import: every package a `ts` block imports is on one of the
 * page's `npm install` lines, but mcp-h3 itself and what Getting started installs with it (h3, zod). A reader who
 * copies a section's test and its install line has every package the test needs (the Nuxt section's
 * `@nuxt/test-utils` was missing).
 */
import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { markdownBlocks } from "../helpers/readme-blocks.ts";
import { shellCommands } from "../helpers/readme-commands.ts";

const page = readFileSync(fileURLToPath(new URL("../../docs/guide/testing.md", import.meta.url)), "utf8");
const INSTALLED_WITH_THE_LIBRARY = new Set(["mcp-h3", "h3", "zod"]);

/** A package's name from an import specifier: `@scope/name/sub` → `@scope/name`, `name/sub` → `name`. */
const packageOf = (specifier: string): string =>
  specifier
    .split("/")
    .slice(0, specifier.startsWith("@") ? 2 : 1)
    .join("/");

describe("docs/guide/testing.md", () => {
  const blocks = markdownBlocks(page);
  const imported = new Set(
    blocks
      .filter((block) => block.lang === "ts")
      .flatMap((block) => [...block.code.matchAll(/^import .* from "([^".][^"]*)";$/gm)].map((m) => packageOf(m[1]!))),
  );
  const installed = new Set(
    blocks
      .filter((block) => block.lang === "sh")
      .flatMap((block) => shellCommands(block.code))
      .filter((command) => command.command.startsWith("npm install"))
      .flatMap((command) => command.command.split(/\s+/).slice(2))
      .filter((word) => !word.startsWith("-")),
  );

  it("installs every package its examples import", () => {
    expect(imported).toContain("@nuxt/test-utils");
    expect([...imported].filter((name) => !INSTALLED_WITH_THE_LIBRARY.has(name) && !installed.has(name))).toEqual([]);
  });
});
