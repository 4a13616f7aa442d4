/**
 * The handler module the Nitro module generates for `mcp/skills/` folders, imported as the bundler
 * would (with the folders deleted first: the bytes travel in the module, as to a Worker) and served
 * to a real skills client of each era (`@olaservo/ext-skills` over the SDK 1.x and 2.x clients),
 * which verifies every file's digest and size against the manifest.
 */
import { rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { listSkills, readSkill, readSkillResource } from "@olaservo/ext-skills/client";
import { mcpNitroModule, type McpNitroLike } from "../src/_entries/nitro.ts";
import type { McpEventHandler } from "../src/handler-types.ts";
import { startHost, type RunningHost } from "./helpers/hosts.ts";
import { connectSkillsHost } from "./helpers/skills-clients.ts";
import { GIT_MD, PARTIAL_MD, PNG, REFUNDS_MD, digestOf, exampleApp } from "./helpers/skill-folders.ts";

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
