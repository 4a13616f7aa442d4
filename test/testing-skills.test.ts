/**
 * mcp-h3/testing's skills helpers in both eras, in process: `listSkills` (pages followed),
 * `getSkill`, `readSkillFile` (size and digest checked against the manifest, as a host checks
 * them) and `readDirectory`.
 */
import { describe, expect, it } from "vitest";
import { defineMcpHandler } from "../src/index.ts";
import { defineSkill, skills } from "../src/_entries/skills.ts";
import { createMcpTestClient } from "../src/_entries/testing.ts";

const handler = defineMcpHandler({
  name: "testing-skills",
  version: "1.0.0",
  extensions: [
    skills(
      [
        defineSkill({ markdown: "---\nname: one\ndescription: First\n---\n\nOne.\n", files: { "docs/a.md": "A\n" } }),
        defineSkill({ markdown: "---\nname: two\ndescription: Second\n---\n\nTwo.\n" }),
        defineSkill({ markdown: "---\nname: three\ndescription: Third\n---\n\nThree.\n", listed: false }),
      ],
      { pageSize: 1 },
    ),
  ],
});

describe.each(["legacy", "modern"] as const)("the test client's skills helpers, %s", (era) => {
  it("lists across pages, gets an unlisted skill, reads files checked against the manifest", async () => {
    await using client = await createMcpTestClient(handler, { era });
    const listed = await client.listSkills();
    expect(listed.map((skill) => skill.frontmatter.name)).toEqual(["one", "two"]);
    const one = listed[0]!;
    const file = await client.readSkillFile(one, "skill://one/docs/a.md");
    expect([file.text, file.bytes.byteLength, file.mimeType]).toEqual(["A\n", 2, "text/markdown"]);
    expect((await client.getSkill("skill://three/SKILL.md")).frontmatter.name).toBe("three");
    expect(await client.readDirectory("skill://one")).toEqual([
      { uri: "skill://one/SKILL.md", name: "SKILL.md", mimeType: "text/markdown", size: 43 },
      { uri: "skill://one/docs", name: "docs", mimeType: "inode/directory" },
    ]);
  });

  it("refuses a file that differs from the manifest, or is not in it", async () => {
    await using client = await createMcpTestClient(handler, { era });
    const one = await client.getSkill("skill://one/SKILL.md");
    const stale = {
      ...one,
      resources: (one.resources as { uri: string; digest: string; size: number }[]).map((r) => ({
        ...r,
        digest: `sha256:${"0".repeat(64)}`,
      })),
    };
    await expect(client.readSkillFile(stale, "skill://one/docs/a.md")).rejects.toThrow(
      /digests to sha256:[0-9a-f]{64}; the manifest says/,
    );
    await expect(client.readSkillFile(one, "skill://two/SKILL.md")).rejects.toThrow(/not in the manifest/);
  });
});
