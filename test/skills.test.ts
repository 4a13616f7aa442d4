/**
 * The skills extension (mcp-h3/skills, SEP-2640) driven by a real skills client: the
 * `@olaservo/ext-skills` client functions over the SDK 1.x client (legacy) and the 2.x client
 * pinned to 2026-07-28 (modern), on h3 v2 and h3 v1. The client verifies what a host must: every
 * file's size and digest against the manifest, the SKILL.md frontmatter against the entry.
 */
import { createHash } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { Client as ClientV1 } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport as TransportV1 } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { Client as ClientV2, StreamableHTTPClientTransport as TransportV2 } from "@modelcontextprotocol/client";
import {
  getSkill,
  listSkills,
  readDirectory,
  readSkill,
  readSkillResource,
  walkDirectory,
  type SkillsClient,
} from "@olaservo/ext-skills/client";
import { defineMcpHandler, defineResource } from "../src/index.ts";
import { defineSkill, skills } from "../src/_entries/skills.ts";
import { legacyPost, modernPost, staticAuth } from "./helpers/auth.ts";
import { HOSTS, startHost, type RunningHost } from "./helpers/hosts.ts";
import type { Answer, RpcMessage } from "./helpers/rpc.ts";

const PNG = new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 1, 2, 255]);
const REFUNDS_MD =
  "---\nname: refunds\ndescription: Process refund requests\nlicense: MIT\nmetadata:\n  version: 2.1.0\n---\n\nRead references/POLICY.md, then pick a template in templates/.\n";

const git = defineSkill({
  markdown: "---\nname: git-workflow\ndescription: Our Git conventions\n---\n\n# Git\nRebase, never merge.\n",
});
const refunds = defineSkill({
  path: "acme/billing/refunds",
  markdown: REFUNDS_MD,
  files: {
    "references/POLICY.md": "# Refund policy\nWithin 30 days. ✓\n",
    "templates/email.md": "Dear customer,\n",
    "templates/regional/eu.md": "EU wording\n",
    "assets/logo.png": PNG,
  },
});
const hidden = defineSkill({
  markdown: "---\nname: internal-runbook\ndescription: Only for those told its URI\n---\n\nStep 1.\n",
  listed: false,
});
const off = defineSkill({
  markdown: "---\nname: switched-off\ndescription: Its enabled says no\n---\n\nNever seen.\n",
  enabled: () => false,
});
let reads = 0;
const daily = defineSkill({
  path: "reports/daily",
  markdown: "---\nname: daily\ndescription: Today's report, made per read\n---\n\nSee data/today.md.\n",
  files: { "data/today.md": { read: () => `# Read ${++reads}\n` } },
});

function handler() {
  return defineMcpHandler({
    name: "skills-test",
    version: "1.0.0",
    resources: [defineResource({ uri: "docs://readme", name: "readme", handler: () => "plain resource" })],
    extensions: [
      skills([git, refunds, hidden, off, daily], { pageSize: 2, cacheHints: { ttlMs: 60_000, cacheScope: "public" } }),
    ],
  });
}

const digestOf = (bytes: Uint8Array | string) => `sha256:${createHash("sha256").update(bytes).digest("hex")}`;

interface Connected {
  client: SkillsClient & {
    listResources(): Promise<{ resources: { uri: string; name: string; description?: string }[] }>;
  };
  /** Raw JSON-RPC for what the skills client does not send itself. */
  raw(method: string, params: Record<string, unknown>): Promise<Record<string, unknown>>;
  close(): Promise<void>;
}

async function connect(era: "legacy" | "modern", url: string): Promise<Connected> {
  if (era === "legacy") {
    const client = new ClientV1({ name: "skills-host", version: "1.0.0" });
    await client.connect(new TransportV1(new URL(url)));
    return {
      client: client as never,
      raw: (method, params) => client.request({ method, params } as never, passthrough as never) as never,
      close: () => client.close(),
    };
  }
  const client = new ClientV2(
    { name: "skills-host", version: "2.0.0" },
    { versionNegotiation: { mode: { pin: "2026-07-28" } } },
  );
  await client.connect(new TransportV2(new URL(url)));
  return {
    client: client as never,
    raw: (method, params) => client.request({ method, params } as never, passthrough as never) as never,
    close: () => client.close(),
  };
}

/** A result schema (both clients take Standard Schema / zod-like objects) that keeps the result as it is. */
const passthrough = {
  "~standard": { version: 1, vendor: "test", validate: (value: unknown) => ({ value }) },
  parse: (value: unknown) => value,
  safeParse: (value: unknown) => ({ success: true, data: value }),
};

describe.each(HOSTS)("skills on %s", (host) => {
  let server: RunningHost;
  beforeAll(async () => {
    server = await startHost(host, handler());
  });
  afterAll(() => server.close());

  describe.each(["legacy", "modern"] as const)("%s era", (era) => {
    let connected: Connected;
    beforeAll(async () => {
      connected = await connect(era, server.url);
    });
    afterAll(() => connected.close());

    it("declares the extension with directoryRead, and resources", () => {
      const capabilities = connected.client.getServerCapabilities!() as Record<string, unknown>;
      expect(capabilities.extensions).toEqual({ "io.modelcontextprotocol/skills": { directoryRead: true } });
      expect(capabilities.resources).toBeDefined();
    });

    it("skills/list: every listed skill it may read, across pages of 2, with complete manifests of the served bytes", async () => {
      const entries = await listSkills(connected.client);
      expect(entries.map((entry) => entry.uri)).toEqual([
        "skill://git-workflow/SKILL.md",
        "skill://acme/billing/refunds/SKILL.md",
        "skill://reports/daily/SKILL.md",
      ]);
      const entry = entries[1]!;
      expect(entry.frontmatter).toEqual({
        name: "refunds",
        description: "Process refund requests",
        license: "MIT",
        metadata: { version: "2.1.0" },
      });
      expect(entry.resources).toEqual([
        {
          uri: "skill://acme/billing/refunds/SKILL.md",
          digest: digestOf(REFUNDS_MD),
          size: Buffer.byteLength(REFUNDS_MD),
        },
        expect.objectContaining({ uri: "skill://acme/billing/refunds/references/POLICY.md" }),
        expect.objectContaining({ uri: "skill://acme/billing/refunds/templates/email.md" }),
        expect.objectContaining({ uri: "skill://acme/billing/refunds/templates/regional/eu.md" }),
        { uri: "skill://acme/billing/refunds/assets/logo.png", digest: digestOf(PNG), size: PNG.byteLength },
      ]);
      expect(entries[2]!.resources).toBe("dynamic");
    });

    it("reads each file verified against the manifest: SKILL.md (frontmatter compared), text with non-ASCII, a binary blob", async () => {
      const [entry] = (await listSkills(connected.client)).filter((skill) => skill.frontmatter.name === "refunds");
      expect(await readSkill(connected.client, entry!)).toBe(REFUNDS_MD);
      const policy = await readSkillResource(
        connected.client,
        entry!,
        "skill://acme/billing/refunds/references/POLICY.md",
      );
      expect(policy).toMatchObject({ mimeType: "text/markdown" });
      const logo = await readSkillResource(connected.client, entry!, "skill://acme/billing/refunds/assets/logo.png");
      expect(logo).toMatchObject({ mimeType: "image/png" });
      const read = await connected.client.readResource({ uri: "skill://acme/billing/refunds/assets/logo.png" });
      expect(read.contents[0]!.blob).toBe(Buffer.from(PNG).toString("base64"));
    });

    it("resources/list names each SKILL.md by its frontmatter; an unlisted skill's files are not listed", async () => {
      const { resources } = await connected.client.listResources();
      const skillMd = resources.find((resource) => resource.uri === "skill://git-workflow/SKILL.md");
      expect(skillMd).toMatchObject({ name: "git-workflow", description: "Our Git conventions" });
      expect(resources.map((resource) => resource.uri)).not.toContain("skill://internal-runbook/SKILL.md");
      expect(resources.map((resource) => resource.uri)).not.toContain("skill://switched-off/SKILL.md");
      expect(resources.map((resource) => resource.uri)).toContain("docs://readme");
    });

    it("skills/get: an unlisted skill by its URI, read and verified; unknown or switched off is -32602", async () => {
      const entry = await getSkill(connected.client, "skill://internal-runbook/SKILL.md");
      expect(entry.frontmatter.name).toBe("internal-runbook");
      expect(await readSkill(connected.client, entry)).toContain("Step 1.");
      for (const uri of ["skill://nope/SKILL.md", "skill://switched-off/SKILL.md", "skill://acme/billing/refunds"]) {
        await expect(getSkill(connected.client, uri)).rejects.toMatchObject({ code: -32602 });
      }
      await expect(connected.raw("skills/get", { uri: 42 })).rejects.toMatchObject({ code: -32602 });
    });

    it("a dynamic skill's file is made per read", async () => {
      const before = reads;
      const first = await connected.client.readResource({ uri: "skill://reports/daily/data/today.md" });
      const second = await connected.client.readResource({ uri: "skill://reports/daily/data/today.md" });
      expect([first.contents[0]!.text, second.contents[0]!.text]).toEqual([
        `# Read ${before + 1}\n`,
        `# Read ${before + 2}\n`,
      ]);
    });

    it("resources/directory/read: direct children, subfolders as inode/directory, paged; a file or unknown URI is -32602", async () => {
      const root = await readDirectory(connected.client, "skill://acme/billing/refunds");
      expect(root.resources).toEqual([
        {
          uri: "skill://acme/billing/refunds/SKILL.md",
          name: "SKILL.md",
          mimeType: "text/markdown",
          size: Buffer.byteLength(REFUNDS_MD),
        },
        { uri: "skill://acme/billing/refunds/references", name: "references", mimeType: "inode/directory" },
      ]);
      expect(root.nextCursor).toBe("2");
      const next = await readDirectory(connected.client, "skill://acme/billing/refunds", { cursor: root.nextCursor });
      expect(next.resources.map((child) => child.name)).toEqual(["templates", "assets"]);
      const files = await walkDirectory(connected.client, "skill://acme");
      expect(files.map((file) => file.uri).sort()).toEqual([
        "skill://acme/billing/refunds/SKILL.md",
        "skill://acme/billing/refunds/assets/logo.png",
        "skill://acme/billing/refunds/references/POLICY.md",
        "skill://acme/billing/refunds/templates/email.md",
        "skill://acme/billing/refunds/templates/regional/eu.md",
      ]);
      for (const uri of [
        "skill://acme/billing/refunds/SKILL.md",
        "skill://acme/billing/nope",
        "skill://switched-off",
        "docs://readme",
      ]) {
        await expect(readDirectory(connected.client, uri)).rejects.toMatchObject({ code: -32602 });
      }
      await expect(
        connected.raw("resources/directory/read", { uri: "skill://acme", cursor: "99" }),
      ).rejects.toMatchObject({ code: -32602 });
    });

    it(
      era === "modern"
        ? "cache attributes on skills/list and skills/get (modern)"
        : "no cache attributes on legacy results",
      async () => {
        const list = await connected.raw("skills/list", {});
        const got = await connected.raw("skills/get", { uri: "skill://git-workflow/SKILL.md" });
        for (const result of [list, got]) {
          if (era === "modern") expect(result).toMatchObject({ ttlMs: 60_000, cacheScope: "public" });
          else expect(result.ttlMs).toBeUndefined();
        }
        expect(got.nextCursor).toBeUndefined();
      },
    );
  });
});

/** The result or error of a raw answer, whether it came as JSON or as one SSE event. */
function messageOf(answer: Answer): RpcMessage {
  if (answer.json && !Array.isArray(answer.json)) return answer.json;
  return JSON.parse(answer.events.at(-1)!.data) as RpcMessage;
}

describe.each(HOSTS)("skills under auth on %s: a skill's scopes, as its resources'", (host) => {
  const billing = defineSkill({
    path: "acme/billing",
    markdown: "---\nname: billing\ndescription: Needs the write scope\n---\n\nSee notes/A.md.\n",
    files: { "notes/A.md": "A\n" },
    scopes: ["write"],
  });
  const open = defineSkill({ markdown: "---\nname: open\ndescription: Any token\n---\n\nHi.\n" });
  let server: RunningHost;
  beforeAll(async () => {
    server = await startHost(
      host,
      defineMcpHandler({
        name: "skills-auth",
        version: "1.0.0",
        auth: staticAuth(),
        extensions: [skills([billing, open])],
      }),
    );
  });
  afterAll(() => server.close());

  it.each([
    ["legacy", legacyPost],
    ["modern", modernPost],
  ] as const)(
    "%s: a token without the scope sees neither list entry, entry, directory nor file",
    async (_era, post) => {
      const list = (token: string) => post(server.url, token, "skills/list", {}).then(messageOf);
      expect((await list("alice-token")).result!.skills).toHaveLength(2);
      expect((await list("reader-token")).result!.skills).toEqual([
        expect.objectContaining({ uri: "skill://open/SKILL.md" }),
      ]);
      const get = await post(server.url, "reader-token", "skills/get", { uri: "skill://acme/billing/SKILL.md" });
      expect(messageOf(get).error).toMatchObject({ code: -32602 });
      const directory = await post(server.url, "reader-token", "resources/directory/read", { uri: "skill://acme" });
      expect(messageOf(directory).error).toMatchObject({ code: -32602 });
      const allowed = await post(server.url, "alice-token", "resources/directory/read", {
        uri: "skill://acme/billing",
      });
      expect(messageOf(allowed).result!.resources).toHaveLength(2);
      const read = await post(server.url, "reader-token", "resources/read", { uri: "skill://acme/billing/notes/A.md" });
      expect(read.status).toBe(403);
    },
  );
});
