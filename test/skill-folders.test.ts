/**
 * Skills as folders under the modules (`mcp/skills/<path>/SKILL.md`): the reader on a folder tree
 * as an author writes it (a nested skill, subfolders, a binary file, dotfiles, links in and out of
 * the folder), what it refuses or warns of with the file named (a broken SKILL.md, a name that is
 * not its folder's, a skill past 16 MiB or 512 files, wrong skills options), each endpoint's own
 * skills, and skills given both as folders and in mcp/config.ts. The generated module served to
 * real clients: test/skill-folders-handler.test.ts.
 */
import { join } from "node:path";
import { truncateSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { defineMcpFileHandler } from "../src/_entries/definitions.ts";
import { mcpNitroModule, type McpNitroLike } from "../src/_entries/nitro.ts";
import { defineSkill, skills } from "../src/_entries/skills.ts";
import { scanSkillFolders } from "../src/_entries/nitro-skill-folders.ts";
import { GIT_MD, PNG, REFUNDS_MD, SKILLS, appWith, exampleApp } from "./helpers/skill-folders.ts";

describe("the skill folder reader", () => {
  it("finds each SKILL.md folder, its files below it (nested skills apart), bytes as on disk", () => {
    const root = exampleApp();
    const warnings: string[] = [];
    const found = scanSkillFolders([root], root, { warn: (message) => void warnings.push(message) });
    expect(found.map((skill) => [skill.path, skill.label])).toEqual([
      ["acme/billing/refunds", `${SKILLS}/SKILL.md`],
      ["acme/billing/refunds/partial", `${SKILLS}/partial/SKILL.md`],
      ["git-workflow", "mcp/skills/git-workflow/SKILL.md"],
    ]);
    const [refunds, partial, git] = found;
    expect(Object.keys(refunds!.files)).toEqual([
      "assets/logo.png",
      "policy-link.md",
      "references/POLICY.md",
      "templates/regional/eu.md",
    ]);
    expect(refunds!.files["assets/logo.png"]).toEqual(PNG);
    expect(refunds!.markdown).toBe(REFUNDS_MD);
    expect(Object.keys(partial!.files)).toEqual(["notes.md"]);
    // CRLF kept, the BOM dropped: a host reads the frontmatter only of a file that begins with ---.
    expect(git!.markdown).toBe(GIT_MD);
    // Its frontmatter as a host parses it: no CR left in the last field.
    expect(git!.definition.frontmatter).toEqual({ name: "git-workflow", description: "Our Git conventions ✓" });
    expect(git!.definition.uri).toBe("skill://git-workflow/SKILL.md");
    // The link out of the folder (to a file, to a folder) is named, not followed.
    expect(warnings).toHaveLength(2);
    expect(warnings.join("\n")).toContain(`${SKILLS}/leak.txt`);
    expect(warnings.join("\n")).toContain(`${SKILLS}/outside-dir`);
  });

  it("names the SKILL.md that breaks the rules", () => {
    const noFrontmatter = appWith({ "mcp/skills/bad/SKILL.md": "# No frontmatter\n" });
    expect(() => scanSkillFolders([noFrontmatter], noFrontmatter)).toThrow(
      /^mcp-h3: mcp\/skills\/bad\/SKILL\.md: .*must begin with YAML frontmatter/,
    );
    const wrongName = appWith({ "mcp/skills/tools/deploy/SKILL.md": "---\nname: ship\ndescription: x\n---\n" });
    expect(() => scanSkillFolders([wrongName], wrongName)).toThrow(
      /^mcp-h3: mcp\/skills\/tools\/deploy\/SKILL\.md: .*must end in the skill's name/,
    );
    const atRoot = appWith({ "mcp/skills/SKILL.md": "---\nname: skills\ndescription: x\n---\n" });
    expect(() => scanSkillFolders([atRoot], atRoot)).toThrow(
      "mcp-h3: mcp/skills/SKILL.md: a skill is a folder below skills/ (skills/<name>/SKILL.md)",
    );
    const badFile = appWith({
      "mcp/skills/ok/SKILL.md": "---\nname: ok\ndescription: x\n---\n",
      "mcp/skills/ok/a file.md": "spaces",
    });
    expect(() => scanSkillFolders([badFile], badFile)).toThrow(
      /^mcp-h3: mcp\/skills\/ok\/SKILL\.md: .*"a file\.md" is not a plain path segment/,
    );
  });

  it("refuses a skill past 16 MiB without reading its bytes", () => {
    const root = appWith({
      "mcp/skills/big/SKILL.md": "---\nname: big\ndescription: x\n---\n",
      "mcp/skills/big/data.bin": "",
    });
    truncateSync(join(root, "mcp/skills/big/data.bin"), 17 * 1024 * 1024); // sparse: no 17 MiB on disk
    expect(() => scanSkillFolders([root], root)).toThrow(
      "mcp-h3: mcp/skills/big/SKILL.md: the skill's files pass 16777216 bytes (16 MiB, SEP-2640's limit) at mcp/skills/big/data.bin",
    );
  });

  it("warns for a skill past 512 files, and reads it all the same", () => {
    const files: Record<string, string> = { "mcp/skills/many/SKILL.md": "---\nname: many\ndescription: x\n---\n" };
    for (let index = 0; index < 512; index++) files[`mcp/skills/many/data/${index}.txt`] = "";
    const root = appWith(files);
    const warnings: string[] = [];
    const [many] = scanSkillFolders([root], root, { warn: (message) => void warnings.push(message) });
    expect(Object.keys(many!.files)).toHaveLength(512);
    expect(warnings).toEqual([
      "mcp-h3: mcp/skills/many/SKILL.md: the skill has 513 files; SEP-2640 hosts need accept only 512",
    ]);
  });

  it("gives each endpoint the skills of its own folder (mcp/handlers/<name>/skills/)", async () => {
    const skill = (name: string): string => `---\nname: ${name}\ndescription: x\n---\n`;
    const root = appWith({
      "mcp/skills/main-skill/SKILL.md": skill("main-skill"),
      "mcp/handlers/admin/skills/admin-skill/SKILL.md": skill("admin-skill"),
    });
    const options: McpNitroLike["options"] = { rootDir: root, srcDir: root, handlers: [], imports: { imports: [] } };
    mcpNitroModule().setup({ options });
    const modules = await Promise.all(
      options.handlers.map(async ({ handler }) => {
        const make = options.virtual![handler]!;
        return typeof make === "string" ? make : await make();
      }),
    );
    expect(options.handlers.map((handler) => handler.route)).toEqual(["/mcp", "/mcp/admin"]);
    expect(modules[0]).toContain('path: "main-skill"');
    expect(modules[0]).not.toContain("admin-skill");
    expect(modules[1]).toContain('path: "admin-skill"');
    expect(modules[1]).not.toContain("main-skill");
  });

  it("fails the module's build on skills options skills() refuses", () => {
    const root = appWith({ "mcp/skills/ok/SKILL.md": "---\nname: ok\ndescription: x\n---\n" });
    const options: McpNitroLike["options"] = {
      rootDir: root,
      srcDir: root,
      handlers: [],
      imports: { imports: [] },
      mcp: { skills: { pageSize: 0 } },
    };
    expect(() => mcpNitroModule().setup({ options })).toThrow(
      "mcp-h3: skills(): pageSize must be a positive whole number, not 0",
    );
  });

  it("fails the module's build on a broken skill, naming the file", () => {
    const root = appWith({ "mcp/skills/bad/SKILL.md": "---\nname: bad\n---\n" });
    const options: McpNitroLike["options"] = { rootDir: root, srcDir: root, handlers: [], imports: { imports: [] } };
    expect(() => mcpNitroModule().setup({ options })).toThrow(
      /^mcp-h3: mcp\/skills\/bad\/SKILL\.md: .*needs a non-empty string "description"/,
    );
  });
});

it("refuses skills both as folders and in mcp/config.ts (one would be dropped without a word)", () => {
  const skill = defineSkill({ markdown: "---\nname: one\ndescription: x\n---\n" });
  expect(() =>
    defineMcpFileHandler({
      options: {},
      config: { extensions: [skills([skill])] },
      files: [],
      extensions: [skills([skill])],
    }),
  ).toThrow("mcp-h3: mcp/config.ts gives the extension io.modelcontextprotocol/skills, and the folders serve it too");
});
