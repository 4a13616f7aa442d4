/**
 * examples/nitro-cloudflare: a nitropack 2 app built with the cloudflare-module preset, whose MCP
 * route sends its requests to the Durable Object of mcp-h3/cloudflare. The preset's output is
 * served as wrangler would serve it (its `.output/server/index.mjs` bundled, the bindings, classes,
 * date and flags of the wrangler.json the build wrote) in workerd, offline, restarted between steps.
 */
import { execFile } from "node:child_process";
import { mkdtemp, readFile, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { durableClassesOf, parseJsonc } from "../scripts/workerd-config.mjs";
import { ensureLibraryBuilt } from "./helpers/playground-build.ts";
import { createTask, isTerminal, pollTask, resultOf, taskRequest } from "./helpers/task-rpc.ts";
import { startDurableWorker, type DurableWorker } from "./helpers/workerd-durable.ts";

const run = promisify(execFile);
const ROOT = fileURLToPath(new URL("..", import.meta.url));

let buildDir: string;
let worker: DurableWorker | undefined;
let wrangler: { compatibility_date: string; compatibility_flags?: string[] };
const mcpUrl = (): string => `${worker!.url}/mcp`;

beforeAll(async () => {
  await ensureLibraryBuilt();
  buildDir = await mkdtemp(join(tmpdir(), "mcp-h3-nitro-cloudflare-"));
  await run(join(ROOT, "node_modules/.bin/nitropack"), ["build", "examples/nitro-cloudflare"], {
    cwd: ROOT,
    env: { ...process.env, NITRO_BUILD_DIR: buildDir },
  });
  const server = join(buildDir, ".output/server");
  wrangler = parseJsonc(await readFile(join(server, "wrangler.json"), "utf8")) as typeof wrangler;
  worker = await startDurableWorker({
    entry: join(server, "index.mjs"),
    classes: durableClassesOf(wrangler),
    compatibilityDate: wrangler.compatibility_date,
    compatibilityFlags: wrangler.compatibility_flags,
  });
}, 180_000);

afterAll(async () => {
  await worker?.close();
  if (buildDir) await rm(buildDir, { recursive: true, force: true });
});

const textOf = (result: unknown): string | undefined =>
  (result as { content?: { text?: string }[] }).content?.[0]?.text;

describe("a Nitro app on the cloudflare-module preset, MCP on a Durable Object", () => {
  it("the build's wrangler config binds the object's class, SQLite-backed, with Node.js compatibility off", () => {
    expect(durableClassesOf(wrangler)).toEqual([{ className: "McpObject", binding: "MCP_OBJECT", enableSql: true }]);
    expect(wrangler.compatibility_flags).toEqual(["no_nodejs_compat", "no_nodejs_compat_v2"]);
  });

  it("a legacy session (SDK 1.x) goes on across a restart of workerd", async () => {
    const client = new Client({ name: "nitro-cloudflare-test", version: "1.0.0" });
    const transport = new StreamableHTTPClientTransport(new URL(mcpUrl()));
    await client.connect(transport);
    expect(textOf(await client.callTool({ name: "add", arguments: { a: 2, b: 3 } }))).toBe("5");
    await worker!.restart();
    expect(textOf(await client.callTool({ name: "add", arguments: { a: 4, b: 4 } }))).toBe("8");
    await client.close();
  }, 60_000);

  it("a modern task completes and is read after a restart", async () => {
    const created = await createTask(mcpUrl(), "slow", { ms: 300 });
    const done = await pollTask(mcpUrl(), created.taskId as string, isTerminal);
    expect(textOf(done.result)).toBe("slept 300");
    await worker!.restart();
    const read = resultOf(await taskRequest(mcpUrl(), "tasks/get", { taskId: created.taskId }));
    expect(read.status).toBe("completed");
  }, 60_000);
});
