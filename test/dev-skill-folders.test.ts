/**
 * The skill folders of `mcp/skills/` under the modules' dev handler (`src/_entries/nitro-dev.ts`),
 * in process over real HTTP: an edit to a skill's file is served without a restart, the digest in
 * `skills/list` follows the new bytes (checked by the `@olaservo/ext-skills` client of each era),
 * and `notifications/resources/list_changed` reaches a legacy GET stream; a skill added or a file
 * removed shows; a broken SKILL.md is named and the last good skills stay served.
 */
import { createHash } from "node:crypto";
import { mkdir, mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { Client as ClientV1 } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport as TransportV1 } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { ResourceListChangedNotificationSchema } from "@modelcontextprotocol/sdk/types.js";
import { listSkills, readSkillResource } from "@olaservo/ext-skills/client";
import { defineMcpDevFileHandler } from "../src/_entries/nitro-dev.ts";
import type { McpEventHandler } from "../src/handler-types.ts";
import { startHost, type RunningHost } from "./helpers/hosts.ts";
import { connectSkillsHost } from "./helpers/skills-clients.ts";

const JITI = fileURLToPath(new URL("../node_modules/jiti/lib/jiti.mjs", import.meta.url));
const GIT_MD = "---\nname: git-workflow\ndescription: Our Git conventions\n---\n\nSee references/rules.md.\n";
const RULES = "references/rules.md";
const digestOf = (text: string): string => `sha256:${createHash("sha256").update(text).digest("hex")}`;

/** The legacy client with its GET stream open, and how many resource list changes it heard. */
async function openLegacyListener(url: string): Promise<{ heard: () => number; close(): Promise<void> }> {
  let opened: () => void = () => {};
  const open = new Promise<void>((resolve) => (opened = resolve));
  const transport = new TransportV1(new URL(url), {
    fetch: async (input, init) => {
      const response = await fetch(input, init);
      if ((init?.method ?? "GET") === "GET" && response.status === 200) opened();
      return response;
    },
  });
  const client = new ClientV1({ name: "dev-skills-listener", version: "1.0.0" });
  let heard = 0;
  client.setNotificationHandler(ResourceListChangedNotificationSchema, () => void heard++);
  await client.connect(transport);
  await open;
  return { heard: () => heard, close: () => client.close() };
}

describe("skill folders under the dev handler", () => {
  let dir: string;
  let handler: McpEventHandler;
  let host: RunningHost;
  let failures: string[];

  beforeEach(async () => {
    dir = await mkdtemp(join(tmpdir(), "mcp-h3-dev-skills-"));
    await mkdir(join(dir, "mcp/skills/git-workflow/references"), { recursive: true });
    await writeFile(join(dir, "mcp/skills/git-workflow/SKILL.md"), GIT_MD);
    await writeFile(join(dir, "mcp/skills/git-workflow", RULES), "one\n");
    failures = [];
    vi.spyOn(console, "info").mockImplementation(() => {});
    vi.spyOn(console, "error").mockImplementation((message: string) => void failures.push(message));
    handler = defineMcpDevFileHandler({
      // The config key's skills: skills()' options, served live too.
      options: { name: "dev-skills", version: "1.0.0", skills: { directoryRead: false } },
      dirs: [dir],
      rootDir: dir,
      jiti: JITI,
      shimDir: join(dir, ".shims"),
      modules: () => ({}),
      autoImports: {},
      loadTimeoutMs: 1_000,
    });
    host = await startHost("h3-v2", handler);
  });
  afterEach(async () => {
    vi.restoreAllMocks();
    await host.close();
    await handler.close();
    await rm(dir, { recursive: true, force: true });
  });

  /** Each listed skill's URI, and its files' digests by URI, as the era's skills client lists them. */
  const manifests = async (era: "legacy" | "modern"): Promise<Record<string, Record<string, string>>> => {
    const connected = await connectSkillsHost(era, host.url);
    try {
      const entries = await listSkills(connected.client);
      return Object.fromEntries(
        entries.map((entry) => [
          entry.uri,
          Object.fromEntries((entry.resources as { uri: string; digest: string }[]).map((r) => [r.uri, r.digest])),
        ]),
      );
    } finally {
      await connected.close();
    }
  };
  const rulesDigest = async (era: "legacy" | "modern"): Promise<string | undefined> =>
    (await manifests(era))["skill://git-workflow/SKILL.md"]?.[`skill://git-workflow/${RULES}`];

  it("serves an edited file's new bytes, its digest follows, and the resources list change is announced", async () => {
    const listener = await openLegacyListener(host.url);
    try {
      for (const era of ["legacy", "modern"] as const) expect(await rulesDigest(era)).toBe(digestOf("one\n"));
      // The same size: only the digest tells the edit.
      await writeFile(join(dir, "mcp/skills/git-workflow", RULES), "two\n");
      await expect.poll(() => rulesDigest("modern"), { timeout: 5_000 }).toBe(digestOf("two\n"));
      expect(await rulesDigest("legacy")).toBe(digestOf("two\n"));
      await expect.poll(listener.heard, { timeout: 5_000 }).toBe(1);
      // Read and verified against the new manifest by the client of each era.
      for (const era of ["legacy", "modern"] as const) {
        const connected = await connectSkillsHost(era, host.url);
        try {
          const capabilities = connected.client.getServerCapabilities!() as Record<string, unknown>;
          expect(capabilities.extensions).toEqual({ "io.modelcontextprotocol/skills": {} }); // directoryRead: false
          const [entry] = await listSkills(connected.client);
          const read = await readSkillResource(connected.client, entry!, `skill://git-workflow/${RULES}`);
          expect(read).toMatchObject({ text: "two\n" });
        } finally {
          await connected.close();
        }
      }
    } finally {
      await listener.close();
    }
  });

  it("shows a skill added and a file removed; a broken SKILL.md is named and the last good skills stay", async () => {
    await mkdir(join(dir, "mcp/skills/deploy"), { recursive: true });
    await writeFile(join(dir, "mcp/skills/deploy/SKILL.md"), "---\nname: deploy\ndescription: Ship it\n---\n");
    await rm(join(dir, "mcp/skills/git-workflow", RULES));
    await expect
      .poll(async () => Object.entries(await manifests("modern")).map(([uri, files]) => [uri, Object.keys(files)]), {
        timeout: 5_000,
      })
      .toEqual([
        ["skill://deploy/SKILL.md", ["skill://deploy/SKILL.md"]],
        ["skill://git-workflow/SKILL.md", ["skill://git-workflow/SKILL.md"]],
      ]);
    await writeFile(join(dir, "mcp/skills/deploy/SKILL.md"), "---\nname: not-its-folder\ndescription: x\n---\n");
    await expect.poll(() => failures.length, { timeout: 5_000 }).toBe(1);
    expect(failures[0]).toContain("mcp/skills/deploy/SKILL.md");
    expect(failures[0]).toContain("the last good files stay served");
    expect(Object.keys(await manifests("legacy"))).toEqual([
      "skill://deploy/SKILL.md",
      "skill://git-workflow/SKILL.md",
    ]);
  });
});
