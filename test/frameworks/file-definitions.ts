/**
 * What an app on the module (mcp-h3/nuxt, mcp-h3/nitro) must do with its definition files, checked
 * on the built app: the files' tool, resource and prompt served under the names their files give,
 * to the real clients of both eras; a second endpoint (`mcp/handlers/admin/`) serving its own tools
 * and not the other's; a wrong type in a definition file or in the `mcp` config key failing the
 * type-check; the skill folders of `mcp/skills/` served to a real skills client of each era; and a
 * bad definition (or `SKILL.md`) failing the build with a message that names the file.
 */
import { readFileSync } from "node:fs";
import { mkdir, readdir, readFile, rm, stat, writeFile } from "node:fs/promises";
import { dirname, join } from "node:path";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { describe, expect, it } from "vitest";
import { listSkills, readSkill, readSkillResource } from "@olaservo/ext-skills/client";
import { createHash } from "node:crypto";
import { TSC, type App, type RunningApp } from "./apps.ts";
import { closeAfterEach } from "../helpers/cleanup.ts";
import { connectEra, ERAS, type EraClient } from "../helpers/era-clients.ts";
import { textOf, type TextResult } from "../helpers/results.ts";
import { connectSkillsHost } from "../helpers/skills-clients.ts";

export interface FileDefinitionsSuite {
  /** The app's `mcp/` folder, relative to its root (`server/mcp` in Nuxt). */
  mcpDir: string;
  /** Builds the app again, for the bad-definition cases (which expect it to fail); without it they are left to another suite. */
  build?(app: App): Promise<unknown>;
  /** Where the app's second endpoint, the folder `<mcpDir>/handlers/admin/`, is served. */
  adminRoute: string;
  /**
   * The config file that gives the admin endpoint's options under the `mcp` key
   * (`handlers: { admin: { name: "admin-endpoint", version: "2.0.0" } }`), and the tsc arguments
   * that type-check it; without it the case is left to another suite.
   */
  config?: { file: string; tsc: string[] };
}

/** The name and version a legacy client reads from the endpoint's `initialize` answer. */
async function serverInfo(url: string): Promise<unknown> {
  const client = new Client({ name: "endpoints-test", version: "1.0.0" });
  await client.connect(new StreamableHTTPClientTransport(new URL(url)));
  try {
    return client.getServerVersion();
  } finally {
    await client.close();
  }
}

/** The message a call is refused with, or "served" when it is not. */
const refusalOf = (call: Promise<unknown>): Promise<string> =>
  call.then(
    () => "served",
    (error: Error) => error.message,
  );

/** Writes `source` to `file` of the app, runs `check`, and removes the file again. */
async function withFile<T>(app: App, file: string, source: string, check: () => Promise<T>): Promise<T> {
  const path = join(app.dir, file);
  await mkdir(dirname(path), { recursive: true });
  await writeFile(path, source);
  try {
    return await check();
  } finally {
    await rm(path);
  }
}

/** What only the dev loader (`mcp-h3/nitro`'s dev handler, dist/nitro-dev.mjs) contains. */
const DEV_MARKERS = ["mcp-h3.dev.runtime-modules", "defineMcpDevFileHandler"];

const failureOf = (work: Promise<unknown>): Promise<string> =>
  work.then(
    () => "passed",
    (error: Error) => error.message,
  );

export function describeFileDefinitions(app: () => App, server: () => RunningApp, suite: FileDefinitionsSuite): void {
  describe("definitions as files", () => {
    const open = closeAfterEach<EraClient>();

    it.each(ERAS)("serves the echo tool, the resource and the prompt of the files to a %s client", async (era) => {
      const client = await connectEra(era, `${server().origin}/mcp`);
      open.push(client);
      expect(textOf((await client.callTool("echo", { text: "hi from a file" })) as TextResult)).toBe("hi from a file");
      const { contents } = await client.readResource("note://greeting");
      expect(contents).toEqual([{ uri: "note://greeting", mimeType: "text/plain", text: "Hello from a file" }]);
      const { messages } = await client.getPrompt("review", { code: "x = 1" });
      expect(messages).toEqual([{ role: "user", content: { type: "text", text: "Please review: x = 1" } }]);
    });

    it.each(ERAS)("serves the admin endpoint's files and its config.ts tools to a %s client", async (era) => {
      const client = await connectEra(era, `${server().origin}${suite.adminRoute}`);
      open.push(client);
      expect(textOf((await client.callTool("echo", { text: "hi" })) as TextResult)).toBe("admin: hi");
      expect(textOf((await client.callTool("purge")) as TextResult)).toBe("purged");
      expect(textOf((await client.callTool("audit")) as TextResult)).toBe("audited");
    });

    it.each(ERAS)("keeps each endpoint's tools to itself, for a %s client", async (era) => {
      const main = await connectEra(era, `${server().origin}/mcp`);
      open.push(main);
      const admin = await connectEra(era, `${server().origin}${suite.adminRoute}`);
      open.push(admin);
      expect(await refusalOf(main.callTool("purge"))).toContain('Unknown tool: "purge"');
      expect(await refusalOf(main.callTool("audit"))).toContain('Unknown tool: "audit"');
      expect(await refusalOf(admin.callTool("steps"))).toContain('Unknown tool: "steps"');
      expect(textOf((await main.callTool("echo", { text: "hi" })) as TextResult)).toBe("hi");
    });

    it.each(ERAS)("serves the skill folders of skills/ to a %s skills client, digests verified", async (era) => {
      const skills = join(app().dir, suite.mcpDir, "skills/acme/refunds");
      const digestOf = (file: string): string =>
        `sha256:${createHash("sha256")
          .update(readFileSync(join(skills, file)))
          .digest("hex")}`;
      const connected = await connectSkillsHost(era, `${server().origin}/mcp`);
      try {
        const [refunds, partial] = await listSkills(connected.client);
        expect([refunds?.uri, partial?.uri]).toEqual([
          "skill://acme/refunds/SKILL.md",
          "skill://acme/refunds/partial/SKILL.md",
        ]);
        expect(refunds!.resources).toEqual(
          ["SKILL.md", "assets/logo.png", "references/POLICY.md", "partial/SKILL.md"].map((file) => ({
            uri: `skill://acme/refunds/${file}`,
            digest: digestOf(file),
            size: readFileSync(join(skills, file)).byteLength,
          })),
        );
        // Read and checked against the manifest by the client: the bytes the build carried, no disk read.
        expect(await readSkill(connected.client, refunds!)).toContain("Read references/POLICY.md first.");
        const logo = await readSkillResource(connected.client, refunds!, "skill://acme/refunds/assets/logo.png");
        expect(logo).toMatchObject({ mimeType: "image/png" });
      } finally {
        await connected.close();
      }
    });

    it("gives each endpoint the name and version of its own options", async () => {
      expect(await serverInfo(`${server().origin}${suite.adminRoute}`)).toMatchObject({
        name: "admin-endpoint",
        version: "2.0.0",
      });
      expect(await serverInfo(`${server().origin}/mcp`)).toMatchObject({ version: "1.0.0" });
    });

    const config = suite.config;
    if (config !== undefined) {
      it("types the mcp key of the config, the endpoints' options included", async () => {
        // Other files of the project may fail on purpose (the common suite leaves a wrong route):
        // what counts is that the config file passes as written and fails with a wrong type.
        expect(await failureOf(app().exec(process.execPath, [TSC, ...config.tsc]))).not.toContain(config.file);
        const path = join(app().dir, config.file);
        const source = await readFile(path, "utf8");
        expect(source).toContain('version: "2.0.0"');
        await writeFile(path, source.replace('version: "2.0.0"', "version: 2"));
        try {
          const failure = await failureOf(app().exec(process.execPath, [TSC, ...config.tsc]));
          expect(failure).toContain(config.file);
          expect(failure).toContain("TS2322");
        } finally {
          await writeFile(path, source);
        }
      });
    }

    it("builds nothing of the dev loader into the output (the files are bundled)", async () => {
      const output = join(app().dir, ".output");
      const found: string[] = [];
      for (const entry of (await readdir(output, { recursive: true })) as string[]) {
        const path = join(output, entry);
        if (!(await stat(path)).isFile()) continue;
        if (entry.includes("nitro-dev")) found.push(entry);
        else if (DEV_MARKERS.some((marker) => readFileSync(path, "latin1").includes(marker))) found.push(entry);
      }
      expect(found).toEqual([]);
    });

    it("types a definition file's input: a wrong use fails the type-check", async () => {
      const file = `${suite.mcpDir}/tools/wrong-input.ts`;
      const source = [
        'import { z } from "zod";',
        "export default defineMcpTool({",
        "  input: z.object({ text: z.string() }),",
        "  handler: (event, { text }) => { const count: number = text; return String(count); },",
        "});",
        "",
      ].join("\n");
      const failure = await withFile(app(), file, source, () =>
        failureOf(app().exec(process.execPath, [TSC, "-p", "."])),
      );
      expect(failure).toContain(file);
      expect(failure).toContain("TS2322");
    });

    const build = suite.build;
    if (build === undefined) return;
    it.each([
      {
        case: "a file with no default export",
        file: "tools/nothing.ts",
        source: 'export const tool = defineMcpTool({ handler: () => "x" });\n',
        message: "has no default export",
      },
      {
        case: "a prompt in the tools folder",
        file: "tools/misplaced.ts",
        source: 'export default defineMcpPrompt({ handler: () => "x" });\n',
        message:
          "default-exports defineMcpPrompt(...), but a file under mcp/tools/ must default-export defineMcpTool(...)",
      },
      {
        case: "two files giving one name",
        file: "tools/more/echo.ts",
        source: 'export default defineMcpTool({ handler: () => "again" });\n',
        message: 'both give the tool "echo"',
      },
      {
        case: "a prompt in an endpoint's tools folder",
        file: "handlers/admin/tools/misplaced.ts",
        source: 'export default defineMcpPrompt({ handler: () => "x" });\n',
        message: "but a file under mcp/handlers/admin/tools/ must default-export defineMcpTool(...)",
      },
      {
        case: "a SKILL.md without a description",
        file: "skills/broken/SKILL.md",
        source: "---\nname: broken\n---\n",
        message: 'its frontmatter needs a non-empty string "description"',
      },
      {
        case: "an index.ts in an endpoint's folder",
        file: "handlers/admin/index.ts",
        source: "export default {};\n",
        message: "is not read: a handler's code options go in config.ts",
      },
    ])("fails the build on $case, naming the file", async ({ file, source, message }) => {
      const path = `${suite.mcpDir}/${file}`;
      const failure = await withFile(app(), path, source, () => failureOf(build(app())));
      expect(failure).toContain(path);
      expect(failure).toContain(message);
    });
  });
}
