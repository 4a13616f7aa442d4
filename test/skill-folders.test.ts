/**
 * Skills as folders under the modules (`mcp/skills/<path>/SKILL.md`): the reader on a folder tree
 * as an author writes it (a nested skill, subfolders, a binary file, dotfiles, links in and out of
 * the folder), what it refuses with the file named (a broken SKILL.md, a name that is not its
 * folder's, a skill past 16 MiB), and the handler module the Nitro module generates, imported as
 * the bundler would and served to a real skills client of each era (`@olaservo/ext-skills`
 * verifying every digest and size against the bytes on disk).
 */
import { createHash } from "node:crypto";
import { mkdirSync, mkdtempSync, rmSync, symlinkSync, truncateSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { pathToFileURL } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { listSkills, readSkill, readSkillResource } from "@olaservo/ext-skills/client";
import { defineMcpFileHandler } from "../src/_entries/definitions.ts";
import { mcpNitroModule, type McpNitroLike } from "../src/_entries/nitro.ts";
import { defineSkill, skills } from "../src/_entries/skills.ts";
import { scanSkillFolders } from "../src/_entries/nitro-skill-folders.ts";
import type { McpEventHandler } from "../src/handler-types.ts";
import { startHost, type RunningHost } from "./helpers/hosts.ts";
import { connectSkillsHost } from "./helpers/skills-clients.ts";

const PNG = new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0xff, 0xfe, 0x80]);
const REFUNDS_MD =
  "---\nname: refunds\ndescription: Process refund requests\nlicense: MIT\n---\n\nRead references/POLICY.md.\n";
const PARTIAL_MD = "---\nname: partial\ndescription: Partial refunds\n---\n\nSee notes.md.\n";
const GIT_MD = "---\r\nname: git-workflow\r\ndescription: Our Git conventions ✓\r\n---\r\n\r\nRebase.\r\n";
const TOOL = 'export default { mcpFile: "tool", options: { handler: () => "echoed" } };\n';

const roots: string[] = [];
afterAll(() => {
  for (const root of roots.splice(0)) rmSync(root, { recursive: true, force: true });
});

/** An app folder with these files (path → content). */
function appWith(files: Record<string, string | Uint8Array>): string {
  const root = mkdtempSync(join(tmpdir(), "mcp-h3-skill-folders-"));
  roots.push(root);
  for (const [path, content] of Object.entries(files)) {
    mkdirSync(dirname(join(root, path)), { recursive: true });
    writeFileSync(join(root, path), content);
  }
  return root;
}

const SKILLS = "mcp/skills/acme/billing/refunds";
function exampleApp(): string {
  const root = appWith({
    "mcp/tools/echo.mjs": TOOL,
    [`${SKILLS}/SKILL.md`]: REFUNDS_MD,
    [`${SKILLS}/references/POLICY.md`]: "# Policy\nWithin 30 days. ✓\n",
    [`${SKILLS}/templates/regional/eu.md`]: "EU wording\n",
    [`${SKILLS}/assets/logo.png`]: PNG,
    [`${SKILLS}/.DS_Store`]: "junk",
    [`${SKILLS}/.hidden/secret.md`]: "never served",
    [`${SKILLS}/partial/SKILL.md`]: PARTIAL_MD,
    [`${SKILLS}/partial/notes.md`]: "Partial notes\n",
    "mcp/skills/git-workflow/SKILL.md": `\uFEFF${GIT_MD}`, // a BOM, as some editors write
    "mcp/skills/README.md": "above every skill: no skill's file\n",
    "outside/secret.txt": "outside the skill",
  });
  symlinkSync(join(root, "outside/secret.txt"), join(root, SKILLS, "leak.txt"));
  symlinkSync(join(root, SKILLS, "references/POLICY.md"), join(root, SKILLS, "policy-link.md"));
  symlinkSync(join(root, "outside"), join(root, SKILLS, "outside-dir"));
  return root;
}

const digestOf = (bytes: Uint8Array | string): string => `sha256:${createHash("sha256").update(bytes).digest("hex")}`;

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

describe("the generated handler module with skill folders", () => {
  let host: RunningHost;
  let handler: McpEventHandler;
  let root: string;

  beforeAll(async () => {
    root = exampleApp();
    const options: McpNitroLike["options"] = {
      rootDir: root,
      srcDir: root,
      handlers: [],
      imports: { imports: [] },
      // The config key's skills: skills()' options, carried into the generated module.
      mcp: { name: "skills-app", version: "1.0.0", skills: { directoryRead: false, pageSize: 1 } },
    };
    mcpNitroModule().setup({ options });
    const make = options.virtual!["#mcp-h3/handler"]!;
    const code = typeof make === "string" ? make : await make();
    expect(code).toContain('from "mcp-h3/skills"');
    expect(code).not.toContain("leak.txt"); // nothing of outside/
    // What the bundler would bundle: the module as written, importing the package's entries.
    const file = join(root, ".generated-handler.mjs");
    writeFileSync(file, code);
    // The files are gone once the module is written: the bytes travel in it (a Worker has no disk).
    rmSync(join(root, "mcp/skills"), { recursive: true });
    handler = ((await import(pathToFileURL(file).href)) as { default: McpEventHandler }).default;
    host = await startHost("h3-v2", handler);
  });
  afterAll(async () => {
    await host?.close();
    await handler?.close();
  });

  it.each(["legacy", "modern"] as const)("serves the skills to a %s skills client, digests verified", async (era) => {
    const connected = await connectSkillsHost(era, host.url);
    try {
      const capabilities = connected.client.getServerCapabilities!() as Record<string, unknown>;
      expect(capabilities.extensions).toEqual({ "io.modelcontextprotocol/skills": {} }); // directoryRead: false
      const entries = await listSkills(connected.client); // pageSize 1: three pages, followed
      expect(entries.map((entry) => entry.uri)).toEqual([
        "skill://acme/billing/refunds/SKILL.md",
        "skill://acme/billing/refunds/partial/SKILL.md",
        "skill://git-workflow/SKILL.md",
      ]);
      const [refunds, , git] = entries;
      expect(refunds!.frontmatter).toEqual({ name: "refunds", description: "Process refund requests", license: "MIT" });
      // The manifest holds the nested skill's files too, each digest the file's bytes on disk.
      expect(refunds!.resources).toEqual([
        { uri: "skill://acme/billing/refunds/SKILL.md", digest: digestOf(REFUNDS_MD), size: REFUNDS_MD.length },
        expect.objectContaining({ uri: "skill://acme/billing/refunds/assets/logo.png", digest: digestOf(PNG) }),
        expect.objectContaining({ uri: "skill://acme/billing/refunds/policy-link.md" }),
        expect.objectContaining({ uri: "skill://acme/billing/refunds/references/POLICY.md" }),
        expect.objectContaining({ uri: "skill://acme/billing/refunds/templates/regional/eu.md" }),
        expect.objectContaining({ uri: "skill://acme/billing/refunds/partial/SKILL.md", digest: digestOf(PARTIAL_MD) }),
        expect.objectContaining({ uri: "skill://acme/billing/refunds/partial/notes.md" }),
      ]);
      // The client checks each read's size and digest against the manifest.
      expect(await readSkill(connected.client, refunds!)).toBe(REFUNDS_MD);
      expect(await readSkill(connected.client, git!)).toBe(GIT_MD);
      const logo = await readSkillResource(connected.client, refunds!, "skill://acme/billing/refunds/assets/logo.png");
      expect(logo).toMatchObject({ mimeType: "image/png", blob: Buffer.from(PNG).toString("base64") });
      const policy = await readSkillResource(
        connected.client,
        refunds!,
        "skill://acme/billing/refunds/references/POLICY.md",
      );
      expect(policy).toMatchObject({ text: "# Policy\nWithin 30 days. ✓\n" });
      // The tool file beside them is served as before.
      const { resources } = await connected.client.listResources();
      expect(resources.map((resource) => resource.uri)).toContain("skill://git-workflow/SKILL.md");
    } finally {
      await connected.close();
    }
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
