/**
 * A server carries only the optional parts it imports: a one-tool server on the memory stores,
 * bundled from the sources for a Worker (esbuild, as `bench/lib/bundle.mjs` does), has none of the
 * session routing between instances (`src/legacy/bus/`), none of MCP Apps (`src/apps/`) and none of
 * the tasks (`src/tasks/`, the task stores) among its inputs; the same server with `mcp-h3/shared`,
 * or with the Redis bus, has the routing, one that imports `mcp-h3/apps` has the apps, and with
 * `mcp-h3/tasks` the tasks; the inspector page's handler comes with `mcp-h3/inspector` alone, the page
 * itself as a separate module it imports when first asked for it. Nothing of `mcp-h3/testing` (the
 * test client, `src/testing/`) is in any of them, nor anything of the Nuxt and Nitro modules (their
 * build side, the definitions-as-files entry and its dev loading), which a server on the core never
 * imports, nor of `mcp-h3/cloudflare` (its Durable Object and stores), which comes with that entry alone.
 */
import { fileURLToPath } from "node:url";
import { build } from "esbuild";
import { describe, expect, it } from "vitest";

const ROOT = fileURLToPath(new URL("..", import.meta.url));

const TOOL = `defineTool({ name: "echo", description: "Echoes the text back",
  input: { type: "object", properties: { text: { type: "string" } }, required: ["text"] },
  handler: (_event, { text }) => text })`;

/** Every input (sources, packages) with bytes in a Worker bundle of `entry`. */
async function bundleInputs(entry: string): Promise<string[]> {
  const result = await build({
    stdin: { contents: entry, resolveDir: ROOT, loader: "ts" },
    bundle: true,
    write: false,
    minify: true,
    format: "esm",
    platform: "browser",
    conditions: ["workerd", "worker", "browser"],
    external: ["node:*", "redis"],
    metafile: true,
    logLevel: "silent",
  });
  const output = Object.values(result.metafile.outputs)[0]!;
  return Object.keys(output.inputs).filter((path) => output.inputs[path]!.bytesInOutput > 0);
}

/** The source files (relative to src/) in a Worker bundle of `entry`. */
async function bundledSources(entry: string): Promise<string[]> {
  const inputs = await bundleInputs(entry);
  return inputs.filter((path) => path.startsWith("src/")).map((path) => path.slice("src/".length));
}

const isRouting = (path: string): boolean => path.startsWith("legacy/bus/");
const isApps = (path: string): boolean => path.startsWith("apps/") || path === "_entries/apps.ts";
const isInspector = (path: string): boolean => path.startsWith("inspector/") || path === "_entries/inspector.ts";
const isTesting = (path: string): boolean =>
  path.startsWith("testing/") || path === "_entries/testing.ts" || path === "types/testing.ts";
/** The modules `mcp-h3/nuxt` and `mcp-h3/nitro`, `mcp-h3/definitions` and what only they import. */
const isFrameworkModule = (path: string): boolean =>
  /^_entries\/(nitro[^/]*|nuxt[^/]*|definitions)\.ts$/.test(path) ||
  /^define\/file[^/]*\.ts$/.test(path) ||
  path === "types/files.ts" ||
  path.startsWith("dev/");
/** `mcp-h3/cloudflare`: the Worker's object and its Durable Object stores. */
const isCloudflare = (path: string): boolean =>
  path.startsWith("cloudflare/") || path.startsWith("stores/durable/") || path === "_entries/cloudflare.ts";
/** `mcp-h3/skills`: the skills extension, its types, and the YAML parser it brings. */
const isSkills = (path: string): boolean =>
  path.startsWith("skills/") || path === "_entries/skills.ts" || path === "types/skills.ts";
/** The task manager and wires, and the task stores. */
const isTasks = (path: string): boolean =>
  path.startsWith("tasks/") || path === "tasks.ts" || /^stores\/(memory\/)?task/.test(path);

describe("the bundle of a minimal Worker", () => {
  it("has no session routing on the memory stores", async () => {
    const sources = await bundledSources(`import { defineMcpFetchHandler, defineTool } from "./src/index.ts";
      export default defineMcpFetchHandler({ name: "w", version: "1.0.0", tools: [${TOOL}] });`);
    expect(sources).toContain("engine/engine.ts");
    expect(sources).toContain("legacy/state/sessions.ts");
    expect(sources.filter(isRouting)).toEqual([]);
    expect(sources.filter(isApps)).toEqual([]);
    expect(sources.filter(isTasks)).toEqual([]);
    expect(sources.filter(isInspector)).toEqual([]);
    expect(sources.filter(isTesting)).toEqual([]);
    expect(sources.filter(isFrameworkModule)).toEqual([]);
    expect(sources.filter(isCloudflare)).toEqual([]);
    expect(sources.filter(isSkills)).toEqual([]);
  }, 60_000);

  it("has the skills extension and its YAML parser with mcp-h3/skills only", async () => {
    const inputs = await bundleInputs(`import { defineMcpFetchHandler } from "./src/index.ts";
      import { defineSkill, skills } from "./src/_entries/skills.ts";
      const git = defineSkill({ markdown: "---\\nname: git\\ndescription: Git rules\\n---\\n" });
      export default defineMcpFetchHandler({ name: "w", version: "1.0.0", extensions: [skills([git])] });`);
    expect(inputs.map((path) => path.replace(/^src\//, "")).filter(isSkills)).toEqual(
      expect.arrayContaining([
        "skills/extension.ts",
        "skills/skill-set.ts",
        "skills/frontmatter.ts",
        "skills/digest.ts",
      ]),
    );
    expect(inputs.some((path) => path.includes("node_modules/yaml/"))).toBe(true);
  }, 60_000);

  it("has the Durable Object and its stores with mcp-h3/cloudflare only", async () => {
    const sources = await bundledSources(`import { defineTool } from "./src/index.ts";
      import { defineMcpWorker } from "./src/_entries/cloudflare.ts";
      const mcp = defineMcpWorker({ handler: () => ({ name: "w", version: "1.0.0", tools: [${TOOL}] }) });
      export const McpObject = mcp.McpObject;
      export default mcp;`);
    expect(sources.filter(isCloudflare)).toEqual(
      expect.arrayContaining(["cloudflare/object.ts", "cloudflare/worker.ts", "stores/durable/session-store.ts"]),
    );
    expect(sources.filter(isRouting)).toEqual([]);
  }, 60_000);

  it("has the task manager, its wires and the memory task store with mcp-h3/tasks only", async () => {
    const sources = await bundledSources(`import { defineMcpFetchHandler, defineTool } from "./src/index.ts";
      import { tasks } from "./src/_entries/tasks.ts";
      export default defineMcpFetchHandler({ name: "w", version: "1.0.0", extensions: [tasks()], tools: [${TOOL}] });`);
    expect(sources).toContain("tasks/manager.ts");
    expect(sources).toContain("tasks/modern/wire.ts");
    expect(sources).toContain("stores/memory/tasks.ts");
    expect(sources).toContain("engine/tool-call-wrap.ts");
  }, 60_000);

  it("has it with mcp-h3/shared, and with the Redis bus", async () => {
    const shared = await bundledSources(`import { defineMcpFetchHandler, defineTool } from "./src/index.ts";
      import { sessionRouting } from "./src/_entries/shared.ts";
      export default defineMcpFetchHandler({ name: "w", version: "1.0.0", extensions: [sessionRouting], tools: [${TOOL}] });`);
    expect(shared.filter(isRouting).sort()).toEqual([
      "legacy/bus/session-bus-parse.ts",
      "legacy/bus/session-bus.ts",
      "legacy/bus/session-routing.ts",
      "legacy/bus/shared-sessions.ts",
      "legacy/bus/stream-follow.ts",
    ]);
    const redis = await bundledSources(`import { defineMcpFetchHandler, defineTool } from "./src/index.ts";
      import { RedisBus } from "./src/_entries/redis.ts";
      export default defineMcpFetchHandler({ name: "w", version: "1.0.0", bus: new RedisBus(), tools: [${TOOL}] });`);
    expect(redis).toContain("legacy/bus/shared-sessions.ts");
    // The Redis bus alone does not bring the task store, though both ship from mcp-h3/redis.
    expect(redis.filter(isTaskStoreFile)).toEqual([]);
  }, 60_000);

  it("has the Redis task store only when it uses it", async () => {
    const sources = await bundledSources(`import { defineMcpFetchHandler, defineTool } from "./src/index.ts";
      import { RedisTaskStore } from "./src/_entries/redis.ts";
      export const tasks = new RedisTaskStore();
      export default defineMcpFetchHandler({ name: "w", version: "1.0.0", tools: [${TOOL}] });`);
    expect(sources.filter(isTaskStoreFile).sort()).toEqual([
      "stores/redis/task-record.ts",
      "stores/redis/task-scripts.ts",
      "stores/redis/task-store.ts",
      "stores/task-change.ts",
      "stores/task-cursor.ts",
      "stores/task-listeners.ts",
    ]);
  }, 60_000);

  it("has the definitions-as-files runtime only with mcp-h3/definitions", async () => {
    const sources =
      await bundledSources(`import { defineMcpFileHandler, defineMcpTool } from "./src/_entries/definitions.ts";
      export default defineMcpFileHandler({ options: { name: "w", version: "1.0.0" },
        files: [{ kind: "tool", name: "echo", file: "mcp/tools/echo.ts", definition: defineMcpTool(${TOOL.replace('name: "echo", ', "")}) }] });`);
    expect(sources.filter(isFrameworkModule).sort()).toEqual([
      "_entries/definitions.ts",
      "define/file-definitions.ts",
      "define/files.ts",
    ]);
  }, 60_000);

  it("has MCP Apps only with mcp-h3/apps", async () => {
    const sources = await bundledSources(`import { defineMcpFetchHandler } from "./src/index.ts";
      import { defineMcpApp } from "./src/_entries/apps.ts";
      const app = defineMcpApp({ name: "a", handler: () => "a", view: { html: "<!doctype html>" } });
      export default defineMcpFetchHandler({ name: "w", version: "1.0.0", tools: [app.tool], resources: [app.view] });`);
    expect(sources.filter(isApps).sort()).toEqual([
      "apps/check.ts",
      "apps/constants.ts",
      "apps/define-app.ts",
      "apps/json.ts",
      "apps/meta.ts",
    ]);
  }, 60_000);

  it("has the inspector's handler only with mcp-h3/inspector, and its page only as a lazy import", async () => {
    const result = await build({
      stdin: {
        contents: `import { defineMcpFetchHandler } from "./src/index.ts";
          import { defineMcpInspector } from "./src/_entries/inspector.ts";
          const mcp = defineMcpFetchHandler({ name: "w", version: "1.0.0" });
          const inspector = defineMcpInspector({ enabled: false });
          export default { fetch: (r) => new URL(r.url).pathname === "/inspector" ? inspector.fetch(r) : mcp.fetch(r) };`,
        resolveDir: ROOT,
        loader: "ts",
      },
      bundle: true,
      minify: true,
      write: false,
      format: "esm",
      platform: "browser",
      conditions: ["workerd", "worker", "browser"],
      external: ["node:*", "redis", "#inspector-page"],
      metafile: true,
      logLevel: "silent",
    });
    const output = Object.values(result.metafile.outputs)[0]!;
    const sources = Object.keys(output.inputs).filter((path) => path.startsWith("src/"));
    expect(
      sources
        .map((path) => path.slice(4))
        .filter(isInspector)
        .sort(),
    ).toEqual([
      "_entries/inspector.ts",
      "inspector/access.ts",
      "inspector/dev-proxy.ts",
      "inspector/options.ts",
      "inspector/sandbox-page.ts",
      "inspector/serve.ts",
    ]);
    // The page (the browser client, about 800 KiB with the tasks and apps clients) stays a separate module, imported on the first page request.
    expect(output.imports).toContainEqual({ path: "#inspector-page", kind: "dynamic-import", external: true });
    expect(output.bytes).toBeLessThan(150_000);
  }, 60_000);
});

/** The task stores' files: the memory and Redis stores and what they share. */
function isTaskStoreFile(path: string): boolean {
  return /^stores\/((memory|redis)\/)?tasks?[-.]/.test(path);
}
