/**
 * Definition files live in dev (issue 33): on a real dev server of the framework, a legacy
 * session holds its GET stream (`@modelcontextprotocol/sdk` 1.x) and a modern client holds a
 * `subscriptions/listen` stream (`@modelcontextprotocol/client` 2.x pinned to 2026-07-28) while a
 * tool file is edited, added and removed: the list changes with no restart (the same session and
 * streams carry on) and both streams receive `notifications/tools/list_changed` each time; prompts
 * and resources alike; an edited skill file of `mcp/skills/` is served with its new digest. A bad file is reported naming it, and the last good files stay served; so is a file whose
 * evaluation never settles, given up after the fixtures' `devLoadTimeoutMs` (3 s), and the reloads after it still run.
 */
import { createHash } from "node:crypto";
import { mkdir, readFile, rm, writeFile } from "node:fs/promises";
import { dirname, join } from "node:path";
import type { McpSubscription } from "@modelcontextprotocol/client";
import { Client as ClientV1 } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport as TransportV1 } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import {
  PromptListChangedNotificationSchema,
  ResourceListChangedNotificationSchema,
  ToolListChangedNotificationSchema,
} from "@modelcontextprotocol/sdk/types.js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { installApp, type App } from "./apps.ts";
import type { DevServer } from "./dev-server.ts";
import { MODERN_MODES, connectModern, type ModernConnection } from "../helpers/modern-clients.ts";
import { textOf, type TextResult } from "../helpers/results.ts";
import { connectSkillsHost } from "../helpers/skills-clients.ts";
import { listSkills, readSkillResource } from "@olaservo/ext-skills/client";

const SETUP_TIMEOUT_MS = 300_000;
const CALL = { timeout: 10_000 };
/** How long a change may take to reach the streams: the watcher's settle time, a reload, the bus. */
const NOTICE_MS = 8_000;

export interface LiveDefinitionsSuite {
  title: string;
  fixture: string;
  packages: readonly string[];
  /** The app's `mcp/` folder, relative to its root (`server/mcp` in Nuxt). */
  mcpDir: string;
  /** The route of the fixture's second endpoint, `mcp/handlers/admin/`. */
  adminRoute: string;
  /** Starts the framework's dev server in the app. */
  startDev(app: App): Promise<DevServer>;
}

type Change = "tools" | "resources" | "prompts";

/** A legacy session whose GET stream is open, and the list changes it heard. */
interface LegacyListener {
  client: ClientV1;
  heard: Change[];
  sessionId(): string | undefined;
  close(): Promise<void>;
}

async function openLegacy(url: string): Promise<LegacyListener> {
  let getOpened: () => void = () => {};
  const getOpen = new Promise<void>((resolve) => (getOpened = resolve));
  const transport = new TransportV1(new URL(url), {
    // Tells when the GET stream the client opens after `initialized` has its response headers.
    fetch: async (input, init) => {
      const response = await fetch(input, init);
      if ((init?.method ?? "GET") === "GET" && response.status === 200) getOpened();
      return response;
    },
  });
  const client = new ClientV1({ name: "live-legacy", version: "1.0.0" }, { capabilities: {} });
  const heard: Change[] = [];
  client.setNotificationHandler(ToolListChangedNotificationSchema, () => void heard.push("tools"));
  client.setNotificationHandler(ResourceListChangedNotificationSchema, () => void heard.push("resources"));
  client.setNotificationHandler(PromptListChangedNotificationSchema, () => void heard.push("prompts"));
  await client.connect(transport);
  await getOpen;
  return { client, heard, sessionId: () => transport.sessionId, close: () => client.close() };
}

/** A modern client with a listen stream open for the three list changes, and what it heard. */
interface ModernListener {
  connection: ModernConnection;
  heard: Change[];
  close(): Promise<void>;
}

async function openModern(url: string): Promise<ModernListener> {
  const connection = await connectModern(url, MODERN_MODES[0]!);
  const heard: Change[] = [];
  const { client } = connection;
  client.setNotificationHandler("notifications/tools/list_changed", () => void heard.push("tools"));
  client.setNotificationHandler("notifications/resources/list_changed", () => void heard.push("resources"));
  client.setNotificationHandler("notifications/prompts/list_changed", () => void heard.push("prompts"));
  let subscription: McpSubscription | undefined;
  try {
    subscription = await client.listen(
      { toolsListChanged: true, resourcesListChanged: true, promptsListChanged: true },
      CALL,
    );
  } catch (error) {
    await connection.close();
    throw error;
  }
  return {
    connection,
    heard,
    close: async () => {
      await subscription?.close().catch(() => {});
      await connection.close();
    },
  };
}

/** A listed tool as the tests compare it. */
const described = (tool: { name: string; description?: string }): string => `${tool.name}: ${tool.description}`;

export function describeLiveDefinitions(suite: LiveDefinitionsSuite): void {
  describe(suite.title, () => {
    let app: App;
    let dev: DevServer;
    const url = (): string => `${dev.origin}/mcp`;
    const file = (path: string): string => join(app.dir, suite.mcpDir, path);
    const write = async (path: string, source: string): Promise<void> => {
      await mkdir(dirname(file(path)), { recursive: true });
      await writeFile(file(path), source);
    };

    beforeAll(async () => {
      app = await installApp(suite.fixture, suite.packages);
      dev = await suite.startDev(app);
    }, SETUP_TIMEOUT_MS);
    afterAll(async () => {
      await dev?.close();
      await app?.remove();
    });

    it("edits, adds and removes a tool file under open legacy GET and modern listen streams", async () => {
      const legacy = await openLegacy(url());
      const modern = await openModern(url()).catch(async (error: unknown) => {
        await legacy.close();
        throw error;
      });
      const echo = await readFile(file("tools/echo.ts"), "utf8");
      try {
        const session = legacy.sessionId();
        expect(session).toBeDefined();
        const toolsOf = async (): Promise<{ legacy: string[]; modern: string[] }> => ({
          legacy: (await legacy.client.listTools(undefined, CALL)).tools.map(described),
          modern: (await modern.connection.client.listTools(undefined, CALL)).tools.map(described),
        });
        const heardBoth = async (count: number): Promise<void> => {
          await expect
            .poll(() => legacy.heard.filter((change) => change === "tools").length, { timeout: NOTICE_MS })
            .toBe(count);
          await expect
            .poll(() => modern.heard.filter((change) => change === "tools").length, { timeout: NOTICE_MS })
            .toBe(count);
        };
        expect((await toolsOf()).legacy).toContain("echo: Echo the text back");

        // Edit: the description changes.
        await writeFile(file("tools/echo.ts"), echo.replace("Echo the text back", "Echo the text, edited live"));
        await heardBoth(1);
        const edited = await toolsOf();
        expect(edited.legacy).toContain("echo: Echo the text, edited live");
        expect(edited.modern).toContain("echo: Echo the text, edited live");

        // Add: a new tool, callable at once by both clients.
        await write(
          "tools/fresh.ts",
          'export default defineMcpTool({ description: "Added live", handler: () => "fresh!" });\n',
        );
        await heardBoth(2);
        expect((await toolsOf()).modern).toContain("fresh: Added live");
        const legacyCall = (await legacy.client.callTool(
          { name: "fresh", arguments: {} },
          undefined,
          CALL,
        )) as TextResult;
        expect(textOf(legacyCall)).toBe("fresh!");
        const modernCall = (await modern.connection.client.callTool(
          { name: "fresh", arguments: {} },
          CALL,
        )) as TextResult;
        expect(textOf(modernCall)).toBe("fresh!");

        // Remove: gone from the lists.
        await rm(file("tools/fresh.ts"));
        await heardBoth(3);
        const removed = await toolsOf();
        expect(removed.legacy.some((tool) => tool.startsWith("fresh:"))).toBe(false);
        expect(removed.modern.some((tool) => tool.startsWith("fresh:"))).toBe(false);

        // No restart: the legacy session is the same one, its stream was never replaced.
        expect(legacy.sessionId()).toBe(session);
        expect(legacy.heard.filter((change) => change !== "tools")).toEqual([]);
      } finally {
        await writeFile(file("tools/echo.ts"), echo);
        await rm(file("tools/fresh.ts"), { force: true });
        // The next test starts once the server serves the fixture's files again.
        await expect
          .poll(async () => (await modern.connection.client.listTools(undefined, CALL)).tools.map(described), {
            timeout: NOTICE_MS,
          })
          .toContain("echo: Echo the text back");
        await legacy.close();
        await modern.close();
      }
    });

    it("runs a handler's edited code at the next call, announcing nothing (no list changed)", async () => {
      const modern = await openModern(url());
      const echo = await readFile(file("tools/echo.ts"), "utf8");
      const call = async (): Promise<string> =>
        textOf(
          (await modern.connection.client.callTool({ name: "echo", arguments: { text: "hi" } }, CALL)) as TextResult,
        );
      try {
        expect(await call()).toBe("hi");
        const since = dev.mark();
        await writeFile(file("tools/echo.ts"), echo.replace("=> text,", "=> text.toUpperCase(),"));
        await expect.poll(call, { timeout: NOTICE_MS }).toBe("HI");
        expect(dev.printedSince(since)).not.toContain("definition files reloaded");
        expect(modern.heard).toEqual([]);
      } finally {
        await writeFile(file("tools/echo.ts"), echo);
        await expect.poll(call, { timeout: NOTICE_MS }).toBe("hi");
        await modern.close();
      }
    });

    it("announces an added prompt and resource as their own list changes", async () => {
      const legacy = await openLegacy(url());
      const modern = await openModern(url());
      try {
        await write(
          "prompts/hello.ts",
          'export default defineMcpPrompt({ description: "Says hello", handler: () => "Hello" });\n',
        );
        await expect.poll(() => modern.heard, { timeout: NOTICE_MS }).toEqual(["prompts"]);
        await expect.poll(() => legacy.heard, { timeout: NOTICE_MS }).toEqual(["prompts"]);
        const { prompts } = await modern.connection.client.listPrompts(undefined, CALL);
        expect(prompts.map((prompt) => prompt.name)).toContain("hello");

        await write(
          "resources/motd.ts",
          'export default defineMcpResource({ uri: "note://motd", mimeType: "text/plain", handler: () => "Live" });\n',
        );
        await expect.poll(() => modern.heard, { timeout: NOTICE_MS }).toEqual(["prompts", "resources"]);
        await expect.poll(() => legacy.heard, { timeout: NOTICE_MS }).toEqual(["prompts", "resources"]);
        const { contents } = await legacy.client.readResource({ uri: "note://motd" }, CALL);
        expect(contents).toEqual([{ uri: "note://motd", mimeType: "text/plain", text: "Live" }]);
      } finally {
        await rm(file("prompts/hello.ts"), { force: true });
        await rm(file("resources/motd.ts"), { force: true });
        await expect
          .poll(async () => (await modern.connection.client.listPrompts(undefined, CALL)).prompts.length, {
            timeout: NOTICE_MS,
          })
          .toBe(1);
        await expect
          .poll(
            async () =>
              (await modern.connection.client.listResources(undefined, CALL)).resources.filter(
                (resource) => !resource.uri.startsWith("skill://"),
              ).length,
            { timeout: NOTICE_MS },
          )
          .toBe(2);
        await legacy.close();
        await modern.close();
      }
    });

    it("serves an edited skill file at once: the digest in skills/list follows, both streams hear the resources change", async () => {
      const legacy = await openLegacy(url());
      const modern = await openModern(url());
      const policy = file("skills/acme/refunds/references/POLICY.md");
      const original = await readFile(policy, "utf8");
      const policyUri = "skill://acme/refunds/references/POLICY.md";
      const digestOf = (text: string): string => `sha256:${createHash("sha256").update(text).digest("hex")}`;
      const served = async (): Promise<string | undefined> => {
        const host = await connectSkillsHost("modern", url());
        try {
          const [refunds] = await listSkills(host.client);
          const entry = (refunds!.resources as { uri: string; digest: string }[]).find((r) => r.uri === policyUri);
          // Read and verified by the client against the manifest it just listed.
          await readSkillResource(host.client, refunds!, policyUri);
          return entry?.digest;
        } finally {
          await host.close();
        }
      };
      try {
        expect(await served()).toBe(digestOf(original));
        const edited = original.replace("30 days", "60 days"); // the same size: only the digest tells
        await writeFile(policy, edited);
        await expect.poll(() => modern.heard, { timeout: NOTICE_MS }).toEqual(["resources"]);
        await expect.poll(() => legacy.heard, { timeout: NOTICE_MS }).toEqual(["resources"]);
        expect(await served()).toBe(digestOf(edited));
      } finally {
        await writeFile(policy, original);
        await expect.poll(() => legacy.heard.length, { timeout: NOTICE_MS }).toBe(2);
        await legacy.close();
        await modern.close();
      }
    });

    it("keeps each endpoint live on its own folder: an admin tool is announced on /mcp/admin alone", async () => {
      const admin = await openModern(`${dev.origin}${suite.adminRoute}`);
      const main = await openModern(url()).catch(async (error: unknown) => {
        await admin.close();
        throw error;
      });
      const names = async (listener: ModernListener): Promise<string[]> =>
        (await listener.connection.client.listTools(undefined, CALL)).tools.map((tool) => tool.name);
      try {
        await write(
          "handlers/admin/tools/rotate.ts",
          'export default defineMcpTool({ description: "Added live", handler: () => "rotated" });\n',
        );
        await expect.poll(() => admin.heard, { timeout: NOTICE_MS }).toEqual(["tools"]);
        expect(await names(admin)).toContain("rotate");
        const called = (await admin.connection.client.callTool({ name: "rotate", arguments: {} }, CALL)) as TextResult;
        expect(textOf(called)).toBe("rotated");
        expect(await names(main)).not.toContain("rotate");
        expect(main.heard).toEqual([]);
      } finally {
        await rm(file("handlers/admin/tools/rotate.ts"), { force: true });
        await expect.poll(() => names(admin), { timeout: NOTICE_MS }).not.toContain("rotate");
        await admin.close();
        await main.close();
      }
    });

    it.each([
      {
        case: "a file with no default export",
        path: "tools/nothing.ts",
        source: 'export const tool = defineMcpTool({ handler: () => "x" });\n',
        message: "has no default export",
      },
      {
        case: "a prompt in the tools folder",
        path: "tools/misplaced.ts",
        source: 'export default defineMcpPrompt({ handler: () => "x" });\n',
        message: "but a file under mcp/tools/ must default-export defineMcpTool(...)",
      },
      {
        case: "two files giving one name",
        path: "tools/more/echo.ts",
        source: 'export default defineMcpTool({ handler: () => "again" });\n',
        message: 'both give the tool "echo"',
      },
      {
        case: "a syntax error",
        path: "tools/typo.ts",
        source: 'export default defineMcpTool({ handler: () => "x" ;\n',
        message: "Unexpected token",
      },
      {
        case: "a file that throws when it loads",
        path: "tools/broken.ts",
        source: 'throw new Error("broken on purpose");\nexport default defineMcpTool({ handler: () => "x" });\n',
        message: "broken on purpose",
      },
    ])("reports $case naming the file, and keeps serving the last good files", async ({ path, source, message }) => {
      const modern = await openModern(url());
      try {
        const before = (await modern.connection.client.listTools(undefined, CALL)).tools.map((tool) => tool.name);
        const since = dev.mark();
        await write(path, source);
        const printed = await dev.waitForOutput(/the last good files stay served/, since);
        expect(printed).toContain(`${suite.mcpDir}/${path}`);
        expect(printed).toContain(message);
        const during = (await modern.connection.client.listTools(undefined, CALL)).tools.map((tool) => tool.name);
        expect(during).toEqual(before);
        const echoed = (await modern.connection.client.callTool(
          { name: "echo", arguments: { text: "still here" } },
          CALL,
        )) as TextResult;
        expect(textOf(echoed)).toBe("still here");
        expect(modern.heard).toEqual([]);
      } finally {
        await rm(file(path), { force: true });
        await modern.close();
      }
    });

    it("names a file whose evaluation never settles, keeps serving, and loads the changes after it", async () => {
      const modern = await openModern(url());
      const names = async (): Promise<string[]> =>
        (await modern.connection.client.listTools(undefined, CALL)).tools.map((tool) => tool.name);
      try {
        const before = await names();
        let since = dev.mark();
        await write(
          "tools/hanging.ts",
          'await new Promise(() => {});\nexport default defineMcpTool({ handler: () => "never" });\n',
        );
        let printed = await dev.waitForOutput(/the last good files stay served/, since);
        expect(printed).toContain(`${suite.mcpDir}/tools/hanging.ts`);
        expect(printed).toContain("did not settle within 3000 ms");
        expect(await names()).toEqual(before);
        // A change to another file still reloads (and says the hanging file again)...
        since = dev.mark();
        await write("tools/after.ts", 'export default defineMcpTool({ handler: () => "after" });\n');
        printed = await dev.waitForOutput(/the last good files stay served/, since);
        expect(printed).toContain(`${suite.mcpDir}/tools/hanging.ts`);
        // ...and once the hanging file is gone, that change is served.
        await rm(file("tools/hanging.ts"));
        await expect
          .poll(async () => (await names()).sort(), { timeout: NOTICE_MS })
          .toEqual([...before, "after"].sort());
      } finally {
        await rm(file("tools/hanging.ts"), { force: true });
        await rm(file("tools/after.ts"), { force: true });
        await expect.poll(names, { timeout: NOTICE_MS }).toEqual(expect.not.arrayContaining(["after"]));
        await modern.close();
      }
    });
  });
}
