/**
 * What `defineSkill` and `skills()` refuse when a server is defined (SEP-2640's and Agent Skills'
 * rules, checked once), and the page cursor of `skills/list` and directory reads (client data).
 */
import { describe, expect, it, vi } from "vitest";
import { defineSkill, skills } from "../../src/_entries/skills.ts";
import { pageOf } from "../../src/skills/pages.ts";

const md = (frontmatter: string) => `---\n${frontmatter}\n---\n\nBody.\n`;

describe("defineSkill", () => {
  it.each([
    ["no frontmatter", { markdown: "# Just a title\n" }, /must begin with YAML frontmatter/],
    ["unclosed frontmatter", { markdown: "---\nname: a\ndescription: b\n" }, /must begin with YAML frontmatter/],
    ["not YAML", { markdown: md("name: [a\ndescription: b") }, /not valid YAML/],
    ["a list, not a mapping", { markdown: md("- a\n- b") }, /must be a YAML mapping/],
    ["no description", { markdown: md("name: git") }, /non-empty string "description"/],
    ["a number as name", { markdown: md("name: 42\ndescription: d") }, /non-empty string "name"/],
    ["an infinity", { markdown: md("name: git\ndescription: d\nlimit: .inf") }, /JSON cannot carry/],
    ["uppercase name", { markdown: md("name: Git\ndescription: d") }, /lowercase letters/],
    ["double hyphen", { markdown: md("name: git--flow\ndescription: d") }, /hyphen/],
    ["leading hyphen", { markdown: md("name: -git\ndescription: d") }, /hyphen/],
    ["65 characters", { markdown: md(`name: ${"a".repeat(65)}\ndescription: d`) }, /1 to 64/],
    [
      "path not ending in name",
      { markdown: md("name: git\ndescription: d"), path: "acme/other" },
      /must end in the skill's name/,
    ],
    ["authority not a reg-name", { markdown: md("name: git\ndescription: d"), path: "ac:me/git" }, /reg-name/],
    ["climbing path", { markdown: md("name: git\ndescription: d"), path: "acme/../git" }, /plain path segment/],
    ["climbing file", { markdown: md("name: git\ndescription: d"), files: { "../x.md": "x" } }, /plain path segment/],
    [
      "empty file segment",
      { markdown: md("name: git\ndescription: d"), files: { "a//b.md": "x" } },
      /plain path segment/,
    ],
    ["SKILL.md as a file", { markdown: md("name: git\ndescription: d"), files: { "SKILL.md": "x" } }, /own SKILL.md/],
    [
      "a file of no kind",
      { markdown: md("name: git\ndescription: d"), files: { "a.md": 42 as never } },
      /give text, bytes/,
    ],
    [
      "scopes not strings",
      { markdown: md("name: git\ndescription: d"), scopes: [1] as never },
      /scopes must be an array of strings/,
    ],
  ])("refuses %s", (_case, options, message) => {
    expect(() => defineSkill(options)).toThrow(message);
  });

  it("serves a SKILL.md without the BOM an editor put before its frontmatter", () => {
    const skill = defineSkill({ markdown: `\uFEFF${md("name: git\ndescription: d")}` });
    expect(new TextDecoder("utf-8", { ignoreBOM: true }).decode(skill.files[0]!.bytes).startsWith("---\n")).toBe(true);
    expect(skill.frontmatter).toEqual({ name: "git", description: "d" });
  });

  it("keeps every frontmatter field as written, and the path's prefix", () => {
    const skill = defineSkill({
      path: "acme/billing/refunds",
      markdown: md('name: refunds\ndescription: "Refunds: the rules"\nlicense: MIT\nmetadata:\n  tags: [a, b]\n  n: 3'),
    });
    expect(skill.uri).toBe("skill://acme/billing/refunds/SKILL.md");
    expect(skill.directory).toBe("skill://acme/billing/refunds");
    expect(skill.frontmatter).toEqual({
      name: "refunds",
      description: "Refunds: the rules",
      license: "MIT",
      metadata: { tags: ["a", "b"], n: 3 },
    });
  });
});

describe("skills()", () => {
  const a = defineSkill({ markdown: md("name: a\ndescription: d"), files: { "x.md": "x" } });

  it("refuses two skills serving one file, and what defineSkill did not make", () => {
    expect(() => skills([a, a])).toThrow(/two skills serve skill:\/\/a\/SKILL.md/);
    expect(() => skills([{ uri: "skill://a/SKILL.md" } as never])).toThrow(/takes what defineSkill returns/);
  });

  it("refuses a file that is also a directory of another skill", () => {
    const outer = defineSkill({ markdown: md("name: outer\ndescription: d"), files: { inner: "a file named inner" } });
    const inner = defineSkill({ path: "outer/inner", markdown: md("name: inner\ndescription: d") });
    expect(() => skills([outer, inner])).toThrow(/both a skill file and a directory/);
  });

  it.each([
    [{ pageSize: 0 }, /pageSize must be a positive whole number/],
    [{ pageSize: Number.NaN }, /pageSize/],
    [{ cacheHints: { ttlMs: -1 } }, /ttlMs/],
    [{ cacheHints: { cacheScope: "shared" as never } }, /cacheScope/],
  ])("refuses options %o", (options, message) => {
    expect(() => skills([a], options)).toThrow(message);
  });

  it("warns for a skill past 512 files, and serves it", () => {
    const files = Object.fromEntries(Array.from({ length: 512 }, (_, index) => [`f${index}.txt`, "x"]));
    const big = defineSkill({ markdown: md("name: big\ndescription: d"), files });
    const warn = vi.spyOn(console, "warn").mockImplementation(() => {});
    try {
      expect(skills([big]).name).toBe("io.modelcontextprotocol/skills");
      expect(warn).toHaveBeenCalledWith(expect.stringMatching(/skill:\/\/big\/SKILL.md has 513 files/));
    } finally {
      warn.mockRestore();
    }
  });
});

describe("pageOf (client cursors)", () => {
  const items = ["a", "b", "c", "d", "e"];
  it("pages through with the offsets it gave", () => {
    expect(pageOf(items, undefined, 2)).toEqual({ page: ["a", "b"], nextCursor: "2" });
    expect(pageOf(items, "2", 2)).toEqual({ page: ["c", "d"], nextCursor: "4" });
    expect(pageOf(items, "4", 2)).toEqual({ page: ["e"] });
  });
  it.each([["6"], ["-1"], ["01"], ["1.5"], [" 1"], ["1e3"], ["9".repeat(10)], [2], [null], [{}]])(
    "refuses cursor %o with -32602",
    (cursor) => {
      expect(() => pageOf(items, cursor, 2)).toThrow(expect.objectContaining({ code: -32602 }));
    },
  );
});
