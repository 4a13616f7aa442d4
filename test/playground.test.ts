/**
 * The playground as a user runs it: built by nitropack 2 (h3 v1), started with playground/start.mjs on a
 * free port, and driven over real HTTP by the MCP SDK client and by the MCP inspector CLI. It also
 * type-checks the playground's routes against h3 v1, which catches a second h3 copy breaking the typed
 * `event.context.mcp`.
 *
 * The playground imports the library by package name, that is the root's built dist/, so the library is
 * rebuilt first when dist/ is missing or older than src/.
 */
import { execFile, spawn, type ChildProcess } from "node:child_process";
import { existsSync, mkdtempSync, readFileSync, readdirSync, rmSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import {
  ElicitRequestSchema,
  LoggingMessageNotificationSchema,
  McpError as SdkMcpError,
  type Progress,
} from "@modelcontextprotocol/sdk/types.js";
import { freePort } from "./helpers/free-port.ts";
import { sectionBlocks, shellCommands } from "./helpers/readme-commands.ts";
import { createTask, isTerminal, pollTask, resultOf, taskRequest } from "./helpers/task-rpc.ts";
import { buildAppHost, buildAppView } from "../scripts/build-app-views.mjs";

const run = promisify(execFile);
const root = fileURLToPath(new URL("..", import.meta.url));
const playground = join(root, "playground");
/** Local bins, run directly: `npx` would read their options (`--noEmit`, `-p`) as its own. */
const bin = (name: string): string => join(root, "node_modules/.bin", name);
const inspectorCli = join(root, "node_modules/@modelcontextprotocol/inspector/clients/launcher/build/index.js");

/** Newest modification time of the files under `dir`. */
function newestMtime(dir: string): number {
  let newest = 0;
  for (const entry of readdirSync(dir, { withFileTypes: true, recursive: true })) {
    if (entry.isFile()) newest = Math.max(newest, statSync(join(entry.parentPath, entry.name)).mtimeMs);
  }
  return newest;
}

/** Builds the library when the playground would otherwise bundle a missing or stale dist/. */
async function ensureLibraryBuilt(): Promise<void> {
  const dist = join(root, "dist/index.mjs");
  if (existsSync(dist) && statSync(dist).mtimeMs >= newestMtime(join(root, "src"))) return;
  const before = existsSync(dist) ? statSync(dist).mtimeMs : 0;
  try {
    await run("npm", ["run", "build"], { cwd: root });
  } catch (error) {
    // unbuild exits 1 on warnings about entries the playground does not use; only a missing main entry matters.
    if (!existsSync(dist) || statSync(dist).mtimeMs <= before) throw error;
    console.warn("mcp-h3 build finished with warnings:", (error as { stdout?: string }).stdout?.slice(-400));
  }
}

/** Starts playground/start.mjs and resolves with the URL it prints once the server accepts connections. */
function startPlayground(port: number): Promise<{ child: ChildProcess; url: string }> {
  const child = spawn(process.execPath, ["start.mjs"], {
    cwd: playground,
    env: { ...process.env, PORT: String(port), HOST: "127.0.0.1" },
    stdio: ["ignore", "pipe", "pipe"],
  });
  let output = "";
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      child.kill("SIGTERM");
      reject(new Error(`playground did not start:\n${output}`));
    }, 30_000);
    const onData = (chunk: Buffer): void => {
      output += chunk.toString();
      const match = /MCP endpoint: (\S+)/.exec(output);
      if (match) {
        clearTimeout(timer);
        resolve({ child, url: match[1]! });
      }
    };
    child.stdout!.on("data", onData);
    child.stderr!.on("data", (chunk: Buffer) => void (output += chunk.toString()));
    child.once("exit", (code) => {
      clearTimeout(timer);
      reject(new Error(`playground exited with ${code}:\n${output}`));
    });
  });
}

/** Stops the server process this test started and waits until it is gone. */
function stop(child: ChildProcess | undefined): Promise<void> {
  if (!child || child.exitCode !== null || child.signalCode !== null) return Promise.resolve();
  return new Promise((resolve) => {
    child.once("exit", () => resolve());
    child.kill("SIGTERM");
  });
}

/** Runs the inspector CLI against `url` with a throw-away HOME (it keeps state in $HOME/.mcp-inspector). */
async function inspector(url: string, home: string, era: "legacy" | "modern", ...args: string[]): Promise<unknown> {
  // The CLI mode runs on Node 20; only the web UI and the conformance referee need Node 22.
  const { stdout } = await run(
    process.execPath,
    [inspectorCli, "--cli", url, "--protocol-era", era, ...args, "--format", "json", "-q"],
    { env: { ...process.env, HOME: home }, timeout: 30_000 },
  );
  return JSON.parse(stdout);
}

describe("playground (nitropack 2, h3 v1)", () => {
  let server: ChildProcess | undefined;
  let url = "";
  let port = 0;
  let home = "";
  let viewHtml = "";

  beforeAll(async () => {
    await ensureLibraryBuilt();
    // As `npm run playground` does: the MCP App's view and the minimal host are built before the app imports them.
    [viewHtml] = await Promise.all([buildAppView("weather-view", { write: true }), buildAppHost({ write: true })]);
    await run(bin("nitropack"), ["build"], { cwd: playground });
    port = await freePort();
    ({ child: server, url } = await startPlayground(port));
    home = mkdtempSync(join(tmpdir(), "mcp-h3-inspector-"));
  }, 180_000);

  afterAll(async () => {
    await stop(server);
    if (home) rmSync(home, { recursive: true, force: true });
  });

  it("prints its endpoint on the chosen port", () => {
    expect(url).toBe(`http://localhost:${port}/mcp`);
  });

  describe("with the MCP SDK client", () => {
    let client: Client;
    const logs: { level: string; data: unknown }[] = [];

    beforeAll(async () => {
      // Declaring elicitation is what lets ask_name ask; without it the server answers -32021.
      client = new Client({ name: "playground-test", version: "1.0.0" }, { capabilities: { elicitation: {} } });
      client.setNotificationHandler(LoggingMessageNotificationSchema, (notification) => {
        logs.push({ level: notification.params.level, data: notification.params.data });
      });
      client.setRequestHandler(ElicitRequestSchema, async (request) => {
        expect(request.params.message).toBe("What is your name?");
        return { action: "accept", content: { name: "Ada" } };
      });
      await client.connect(new StreamableHTTPClientTransport(new URL(url)));
    });

    afterAll(async () => {
      await client?.close();
    });

    it("lists the example tools", async () => {
      const { tools } = await client.listTools();
      expect(tools.map((tool) => tool.name).sort()).toEqual([
        "ask_name",
        "count_slowly",
        "countdown",
        "log_levels",
        "refresh_weather",
        "show_weather",
        "weather",
        "whoami",
      ]);
      const count = tools.find((tool) => tool.name === "count_slowly")!;
      expect(count.inputSchema.required).toEqual(["to"]);
    });

    it("serves the MCP App: show_weather linked to its view, the built view, and both tools' answers", async () => {
      const { tools } = await client.listTools();
      const show = tools.find((tool) => tool.name === "show_weather")!;
      expect(show._meta).toMatchObject({ ui: { resourceUri: "ui://weather/view.html", visibility: ["model", "app"] } });
      const { contents } = await client.readResource({ uri: "ui://weather/view.html" });
      expect(contents).toEqual([
        expect.objectContaining({
          uri: "ui://weather/view.html",
          mimeType: "text/html;profile=mcp-app",
          text: viewHtml,
        }),
      ]);
      const shown = await client.callTool({ name: "show_weather", arguments: { city: "Lisbon" } });
      expect(shown.structuredContent).toMatchObject({ city: "Lisbon", reading: 1 });
      const refreshed = await client.callTool({ name: "refresh_weather", arguments: { city: "Lisbon" } });
      expect(refreshed.structuredContent).toMatchObject({ city: "Lisbon", era: "legacy" });
    });

    it("shows the request context from whoami", async () => {
      const result = await client.callTool({ name: "whoami", arguments: {} });
      const text = (result.content as { type: string; text: string }[])[0]!.text;
      expect(text).toContain("era: legacy");
      expect(text).toContain("protocolVersion: 2025-11-25");
      expect(text).toMatch(/sessionId: [0-9a-f-]{36}/);
      expect(text).toContain("client: playground-test 1.0.0");
    });

    it("reports progress at each step of count_slowly", async () => {
      const progress: Progress[] = [];
      const result = await client.callTool({ name: "count_slowly", arguments: { to: 3, delayMs: 20 } }, undefined, {
        onprogress: (update) => void progress.push(update),
      });
      expect(result.content).toEqual([{ type: "text", text: "Counted to 3." }]);
      expect(progress.map((update) => [update.progress, update.total])).toEqual([
        [1, 3],
        [2, 3],
        [3, 3],
      ]);
      expect(progress[0]!.message).toBe("counted to 1");
    });

    it("filters log_levels by the level the client set", async () => {
      await client.setLoggingLevel("warning");
      logs.length = 0;
      await client.callTool({ name: "log_levels", arguments: {} });
      expect(logs).toEqual([
        { level: "warning", data: "a warning line" },
        { level: "error", data: "a error line" },
      ]);
    });

    it("asks for a name through elicitation and greets", async () => {
      const result = await client.callTool({ name: "ask_name", arguments: {} });
      expect(result.content).toEqual([{ type: "text", text: "Hello, Ada!" }]);
    });

    it("reads the readme and a note of the template", async () => {
      const readme = await client.readResource({ uri: "playground://readme" });
      expect(readme.contents[0]).toMatchObject({ uri: "playground://readme", mimeType: "text/markdown" });
      expect(readme.contents[0]).toHaveProperty("text", expect.stringContaining("# mcp-h3 playground"));

      const { resourceTemplates } = await client.listResourceTemplates();
      expect(resourceTemplates.map((template) => template.uriTemplate)).toEqual(["playground://notes/{id}"]);
      const { resources } = await client.listResources();
      expect(resources.map((resource) => resource.uri)).toContain("playground://notes/2");

      const note = await client.readResource({ uri: "playground://notes/2" });
      expect(note.contents).toEqual([
        { uri: "playground://notes/2", mimeType: "text/plain", text: "Release\n\nRun `npm test`, then tag v0.1.0." },
      ]);
      const missing = client.readResource({ uri: "playground://notes/404" });
      await expect(missing).rejects.toBeInstanceOf(SdkMcpError);
      await expect(missing).rejects.toMatchObject({ code: -32002 });
    });

    it("gets the prompt with the note embedded", async () => {
      const prompt = await client.getPrompt({ name: "review_note", arguments: { id: "3" } });
      expect(prompt.messages).toHaveLength(2);
      expect(prompt.messages[1]!.content).toEqual({
        type: "resource",
        resource: { uri: "playground://notes/3", mimeType: "text/plain", text: "Idea\n\nServe MCP from every H3 app." },
      });
    });

    it("completes the prompt argument and the template variable", async () => {
      const forPrompt = await client.complete({
        ref: { type: "ref/prompt", name: "review_note" },
        argument: { name: "id", value: "1" },
      });
      expect(forPrompt.completion.values).toEqual(["1", "12"]);
      const forTemplate = await client.complete({
        ref: { type: "ref/resource", uri: "playground://notes/{id}" },
        argument: { name: "id", value: "" },
      });
      expect(forTemplate.completion.values.sort()).toEqual(["1", "12", "2", "3"]);
    });
  });

  describe.each(["legacy", "modern"] as const)("with the MCP inspector CLI, %s era", (era) => {
    it("lists the tools", async () => {
      const listed = (await inspector(url, home, era, "--method", "tools/list")) as {
        result: { tools: { name: string }[] };
      };
      expect(listed.result.tools.map((tool) => tool.name).sort()).toEqual([
        "ask_name",
        "count_slowly",
        "countdown",
        "log_levels",
        "refresh_weather",
        "show_weather",
        "weather",
        "whoami",
      ]);
    });

    it("calls whoami", async () => {
      const called = (await inspector(url, home, era, "--method", "tools/call", "--tool-name", "whoami")) as {
        result: { content: { type: string; text: string }[] };
      };
      const text = called.result.content[0]!.text;
      if (era === "legacy") expect(text).toMatch(/^era: legacy\nprotocolVersion: 2025-11-25\nsessionId: \S+/);
      else expect(text).toMatch(/^era: modern\nprotocolVersion: 2026-07-28\nsessionId: \(none\)/);
      expect(text).toContain("client: inspector-cli");
    });
  });

  describe("the README's Try it with curl, as written, against the playground", () => {
    const readme = readFileSync(join(root, "README.md"), "utf8");
    const blocks = sectionBlocks(readme, "Try it with curl").filter((block) => block.lang === "sh");
    /** A block's commands run by bash, stopping at the first that fails, with the README's URL made the playground's. */
    const runBlock = async (code: string): Promise<string> => {
      const commands = shellCommands(code).map((c) => c.command.replaceAll("http://localhost:3000/mcp", url));
      const { stdout } = await run("bash", ["-c", `set -euo pipefail\n${commands.join("\n")}`], { timeout: 30_000 });
      return stdout;
    };

    it("legacy era: the session's call of weather answers its result", async () => {
      expect(blocks[0]!.code).toContain("MCP=http://localhost:3000/mcp");
      const out = await runBlock(blocks[0]!.code);
      expect(out).toContain('"structuredContent":{"city":"Paris","celsius":21}');
      expect(out).not.toContain("Unknown tool");
    });

    it("modern era: server/discover, then the call of weather answers its result", async () => {
      const out = await runBlock(blocks[1]!.code);
      expect(out).toContain('"supportedVersions":["2026-07-28"]');
      expect(out).toContain('"structuredContent":{"city":"Paris","celsius":21},"resultType":"complete"');
    });
  });

  describe("the countdown task tool, the README's curl walk-through as raw HTTP", () => {
    it("2026-07-28: a task at once, its status message, input_required for a go, tasks/update, completed", async () => {
      const created = await createTask(url, "countdown", { from: 1 });
      expect(created).toMatchObject({ resultType: "task", status: "working", statusMessage: "1 s left" });
      const taskId = String(created.taskId);
      const asking = await pollTask(url, taskId, (task) => task.status !== "working");
      expect(asking).toMatchObject({
        status: "input_required",
        statusMessage: "Waiting for a go",
        inputRequests: { go: { method: "elicitation/create" } },
      });
      resultOf(
        await taskRequest(url, "tasks/update", {
          taskId,
          inputResponses: { go: { action: "accept", content: { go: true } } },
        }),
      );
      const done = await pollTask(url, taskId, isTerminal);
      expect(done).toMatchObject({ status: "completed", result: { content: [{ type: "text", text: "Lift off!" }] } });
    });

    it("2026-07-28: tasks/cancel stops a running countdown", async () => {
      const taskId = String((await createTask(url, "countdown", { from: 60 })).taskId);
      resultOf(await taskRequest(url, "tasks/cancel", { taskId }));
      expect(await pollTask(url, taskId, isTerminal)).toMatchObject({ status: "cancelled" });
    });

    it("2025-11-25: params.task makes a task; tasks/get, tasks/list and tasks/cancel in the session", async () => {
      const init = await fetch(url, {
        method: "POST",
        headers: { "content-type": "application/json", accept: "application/json, text/event-stream" },
        body: JSON.stringify({
          jsonrpc: "2.0",
          id: 0,
          method: "initialize",
          params: {
            protocolVersion: "2025-11-25",
            capabilities: { elicitation: {} },
            clientInfo: { name: "t", version: "1" },
          },
        }),
      });
      const sid = init.headers.get("mcp-session-id")!;
      await init.text();
      const headers = {
        "content-type": "application/json",
        accept: "application/json, text/event-stream",
        "mcp-session-id": sid,
        "mcp-protocol-version": "2025-11-25",
      };
      const post = async (body: object): Promise<Record<string, any>> => {
        const response = await fetch(url, {
          method: "POST",
          headers,
          body: JSON.stringify({ jsonrpc: "2.0", ...body }),
        });
        const text = await response.text();
        return text ? (JSON.parse(text) as Record<string, any>) : {};
      };
      await post({ method: "notifications/initialized" });
      const created = await post({
        id: 1,
        method: "tools/call",
        params: { name: "countdown", arguments: { from: 60 }, task: { ttl: 60_000 } },
      });
      expect(created.result.task).toMatchObject({ status: "working", ttl: 60_000 });
      const taskId = created.result.task.taskId as string;
      expect((await post({ id: 2, method: "tasks/get", params: { taskId } })).result).toMatchObject({
        taskId,
        status: "working",
      });
      const listed = await post({ id: 3, method: "tasks/list", params: {} });
      expect(listed.result.tasks.map((task: { taskId: string }) => task.taskId)).toEqual([taskId]);
      expect((await post({ id: 4, method: "tasks/cancel", params: { taskId } })).result).toMatchObject({
        taskId,
        status: "cancelled",
      });
    });
  });

  it("type-checks the routes against h3 v1", async () => {
    // Needs .nitro/types/, which the build in beforeAll wrote. A failure prints tsc's diagnostics.
    const diagnostics = await run(bin("tsc"), ["--noEmit", "-p", "playground"], { cwd: root }).then(
      ({ stdout }) => stdout,
      (error: { stdout?: string; message: string }) => error.stdout || error.message,
    );
    expect(diagnostics).toBe("");
  }, 60_000);
});
