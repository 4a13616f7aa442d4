/**
 * `npm run lint` refuses an import that points up the ladder of src/ (scripts/check-layers.mjs, the
 * table in CONTRIBUTING.md). A deliberate upward import and a sideways one must fail the check; the
 * sources themselves must pass it.
 */
import { execFile } from "node:child_process";
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import { afterAll, describe, expect, it } from "vitest";

const run = promisify(execFile);
const root = fileURLToPath(new URL("..", import.meta.url));
const CHECK = join(root, "scripts/check-layers.mjs");

/** Runs the layer check on a source tree; resolves with its exit code and output. */
async function checkLayers(srcDir: string): Promise<{ code: number; output: string }> {
  try {
    const { stdout, stderr } = await run(process.execPath, [CHECK, srcDir]);
    return { code: 0, output: stdout + stderr };
  } catch (error) {
    const failed = error as { code: number; stdout: string; stderr: string };
    return { code: failed.code, output: failed.stdout + failed.stderr };
  }
}

/** Writes a small tree of files under `dir`, each with its text. */
function writeTree(dir: string, files: Record<string, string>): void {
  for (const [path, text] of Object.entries(files)) {
    mkdirSync(dirname(join(dir, path)), { recursive: true });
    writeFileSync(join(dir, path), text);
  }
}

describe("import layers", () => {
  const dir = mkdtempSync(join(tmpdir(), "mcp-h3-layer-check-"));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it("fails on an import that points up", async () => {
    const src = join(dir, "up");
    writeTree(src, {
      "http/reply.ts": 'import type { Engine } from "../engine/engine.ts";\nexport type R = Engine;\n',
      "engine/engine.ts": "export interface Engine { x: number }\n",
    });
    const { code, output } = await checkLayers(src);
    expect(code).toBe(1);
    expect(output).toContain("http/reply.ts -> engine/engine.ts (points up");
  });

  it("fails on an import between the two lanes", async () => {
    const src = join(dir, "sideways");
    writeTree(src, {
      "legacy/serve/post.ts": 'import { x } from "../../modern/lane.ts";\nexport const y = x;\n',
      "modern/lane.ts": "export const x = 1;\n",
    });
    const { code, output } = await checkLayers(src);
    expect(code).toBe(1);
    expect(output).toContain("legacy/serve/post.ts -> modern/lane.ts (points sideways");
  });

  it("fails when a file below the entries imports the Redis stores", async () => {
    const src = join(dir, "redis");
    writeTree(src, {
      "engine/engine.ts": 'import { RedisBus } from "../stores/redis/bus.ts";\nexport const b = RedisBus;\n',
      "stores/redis/bus.ts": "export class RedisBus {}\n",
      "redis.ts": 'export { RedisBus } from "./stores/redis/bus.ts";\n',
    });
    const { code, output } = await checkLayers(src);
    expect(code).toBe(1);
    expect(output).toContain("engine/engine.ts -> stores/redis/bus.ts (stores/redis/ is imported by the entries only)");
    expect(output).not.toContain("redis.ts -> stores/redis/bus.ts");
  });

  it("fails when the engine or a lane imports the session routing, which only the entries that bring it import", async () => {
    const src = join(dir, "optional");
    writeTree(src, {
      "engine/engine.ts":
        'import { sessionRouting } from "../legacy/bus/shared-sessions.ts";\nexport const r = sessionRouting;\n',
      "legacy/serve/get.ts": 'import { follow } from "../bus/stream-follow.ts";\nexport const f = follow;\n',
      "legacy/bus/shared-sessions.ts":
        'import { follow } from "./stream-follow.ts";\nexport const sessionRouting = follow;\n',
      "legacy/bus/stream-follow.ts": "export const follow = 1;\n",
      "stores/redis/bus.ts":
        'import { sessionRouting } from "../../legacy/bus/shared-sessions.ts";\nexport const b = sessionRouting;\n',
      "shared.ts": 'export { sessionRouting } from "./legacy/bus/shared-sessions.ts";\n',
    });
    const { code, output } = await checkLayers(src);
    expect(code).toBe(1);
    expect(output).toContain("engine/engine.ts -> legacy/bus/shared-sessions.ts (legacy/bus/ is an optional part");
    expect(output).toContain("legacy/serve/get.ts -> legacy/bus/stream-follow.ts (legacy/bus/ is an optional part");
    // The entry that brings it, the Redis stores (part of their entry) and the folder itself may.
    expect(output).not.toContain("shared.ts ->");
    expect(output).not.toContain("stores/redis/bus.ts ->");
    expect(output).not.toContain("legacy/bus/shared-sessions.ts ->");
  });

  it("fails when the core imports MCP Apps, which only mcp-h3/apps brings", async () => {
    const src = join(dir, "apps");
    writeTree(src, {
      "dispatch/tools.ts": 'import { defineMcpApp } from "../apps/define-app.ts";\nexport const d = defineMcpApp;\n',
      "apps/define-app.ts": 'import { defineTool } from "../index.ts";\nexport const defineMcpApp = defineTool;\n',
      "define/tool.ts": "export const defineTool = 1;\n",
      "index.ts": 'export { defineTool } from "./define/tool.ts";\n',
      "apps.ts": 'export { defineMcpApp } from "./apps/define-app.ts";\n',
    });
    const { code, output } = await checkLayers(src);
    expect(code).toBe(1);
    expect(output).toContain("dispatch/tools.ts -> apps/define-app.ts (apps/ is an optional part");
    // Its entry may, and it builds on the public entry.
    expect(output).not.toContain("apps.ts ->");
    expect(output).not.toContain("apps/define-app.ts ->");
  });

  it("fails when an extension imports anything but the public entries, the public types and its own folder", async () => {
    const src = join(dir, "extensions");
    writeTree(src, {
      // What a stranger has: mcp-h3, mcp-h3/shared, the public types, the extension's own files, h3.
      "tasks/start.ts": [
        'import { McpError } from "../index.ts";',
        'import { sessionRouting } from "../_entries/shared.ts";',
        'import type { McpToolCall } from "../types/extensions.ts";',
        'import { owner } from "./identity.ts";',
        'import type { H3Event } from "h3";',
        "export const s = [McpError, sessionRouting, owner];",
        "export type C = McpToolCall | H3Event;",
        "",
      ].join("\n"),
      "tasks/identity.ts": "export const owner = 1;\n",
      // Reaching past the seam: an internal class, a protocol module, a sibling extension, a package.
      "tasks/legacy/result.ts": [
        'import type { RequestContext } from "../../context/request-context.ts";',
        'import { INVALID_PARAMS } from "../../protocol/errors.ts";',
        'import { isObject } from "../../apps/json.ts";',
        'import { createClient } from "redis";',
        "export type R = RequestContext;",
        "export const r = [INVALID_PARAMS, isObject, createClient];",
        "",
      ].join("\n"),
      "apps/check.ts": 'import { isCspOrigin } from "../protocol/csp-source.ts";\nexport const c = isCspOrigin;\n',
      "apps/json.ts": "export const isObject = 1;\n",
      "context/request-context.ts": "export interface RequestContext { x: number }\n",
      "protocol/errors.ts": "export const INVALID_PARAMS = -32602;\nexport class McpError {}\n",
      "protocol/csp-source.ts": "export const isCspOrigin = 1;\n",
      "types/extensions.ts": "export interface McpToolCall { x: number }\n",
      "index.ts": 'export { McpError } from "./protocol/errors.ts";\n',
      "_entries/shared.ts": "export const sessionRouting = 1;\n",
    });
    const { code, output } = await checkLayers(src);
    expect(code).toBe(1);
    const refused =
      "is an extension: it imports only the public entries (index.ts, _entries/shared.ts), types/ and its own folder";
    expect(output).toContain(`tasks/legacy/result.ts -> context/request-context.ts (tasks/ ${refused})`);
    expect(output).toContain(`tasks/legacy/result.ts -> protocol/errors.ts (tasks/ ${refused})`);
    expect(output).toContain(`tasks/legacy/result.ts -> apps/json.ts (tasks/ ${refused})`);
    expect(output).toContain(
      "tasks/legacy/result.ts -> redis (tasks/ is an extension: of the packages it imports only h3)",
    );
    expect(output).toContain(`apps/check.ts -> protocol/csp-source.ts (apps/ ${refused})`);
    expect(output).not.toContain("tasks/start.ts ->");
  });

  it("fails when the core imports the task stores, which only their entries (and each other) import", async () => {
    const src = join(dir, "optional-tasks");
    writeTree(src, {
      "engine/engine.ts":
        'import { MemoryTaskStore } from "../stores/memory/tasks.ts";\nexport const s = MemoryTaskStore;\n',
      "stores/memory/sessions.ts":
        'import { TaskListeners } from "../task-listeners.ts";\nexport const l = TaskListeners;\n',
      "stores/memory/tasks.ts":
        'import { TaskListeners } from "../task-listeners.ts";\nexport const MemoryTaskStore = TaskListeners;\n',
      "stores/task-listeners.ts": "export const TaskListeners = 1;\n",
      "tasks.ts": 'export { MemoryTaskStore } from "./stores/memory/tasks.ts";\n',
    });
    const { code, output } = await checkLayers(src);
    expect(code).toBe(1);
    expect(output).toContain("engine/engine.ts -> stores/memory/tasks.ts (stores/memory/tasks.ts is an optional part");
    expect(output).toContain(
      "stores/memory/sessions.ts -> stores/task-listeners.ts (stores/task-listeners.ts is an optional part",
    );
    expect(output).not.toContain("tasks.ts -> stores/memory/tasks.ts");
    expect(output).not.toContain("stores/memory/tasks.ts ->");
  });

  it("passes on the sources", async () => {
    const { code, output } = await checkLayers(join(root, "src"));
    expect(output).toBe("");
    expect(code).toBe(0);
  });
});
