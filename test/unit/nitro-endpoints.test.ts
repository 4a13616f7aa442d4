/**
 * How the Nitro module lays out several endpoints, on a folder tree as a user writes it: each
 * folder under `mcp/handlers/` is one more handler on its own route, with the options of its name
 * under the config key, and what cannot work (a name under `handlers` with no folder, a folder name
 * that cannot be a route segment, two endpoints on one route, code in the key) stops the build with
 * a message naming it. The built apps (test/frameworks/*-module.test.ts) serve these endpoints.
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { mcpNitroModule, type McpNitroLike, type McpNitroModuleOptions } from "../../src/_entries/nitro.ts";

const TOOL = 'export default defineMcpTool({ handler: () => "x" });\n';
const roots: string[] = [];

/** A Nitro app's folder with the given files (path → source). */
function appWith(files: Record<string, string>): string {
  const root = mkdtempSync(join(tmpdir(), "mcp-h3-endpoints-"));
  roots.push(root);
  for (const [path, source] of Object.entries(files)) {
    mkdirSync(dirname(join(root, path)), { recursive: true });
    writeFileSync(join(root, path), source);
  }
  return root;
}

/** Runs the module's setup on a Nitro of that folder, as both majors would. */
function setUp(root: string, mcp: McpNitroModuleOptions = {}): McpNitroLike["options"] {
  const options: McpNitroLike["options"] = { rootDir: root, srcDir: root, handlers: [], imports: { imports: [] }, mcp };
  mcpNitroModule().setup({ options });
  return options;
}

afterEach(() => {
  for (const root of roots.splice(0)) rmSync(root, { recursive: true, force: true });
});

describe("several endpoints", () => {
  it("serves each folder under mcp/handlers/ on its own route, with its own files and options", async () => {
    const root = appWith({
      "mcp/tools/echo.ts": TOOL,
      "mcp/handlers/admin/tools/echo.ts": TOOL,
      "mcp/handlers/admin/config.ts": "export default defineMcpConfig({});\n",
      "mcp/handlers/v2/tools/other.ts": TOOL,
    });
    const options = setUp(root, { name: "app", handlers: { v2: { route: "/api/v2/mcp", version: "2.0.0" } } });
    expect(options.handlers.map((handler) => handler.route)).toEqual(["/mcp", "/mcp/admin", "/api/v2/mcp"]);
    const modules = await Promise.all(
      options.handlers.map(async ({ handler }) => {
        const make = options.virtual![handler]!;
        return typeof make === "string" ? make : await make();
      }),
    );
    expect(modules[0]).toContain(JSON.stringify(join(root, "mcp/tools/echo.ts")));
    expect(modules[0]).not.toContain("handlers/admin");
    expect(modules[0]).toContain('"name":"app"');
    expect(modules[1]).toContain(JSON.stringify(join(root, "mcp/handlers/admin/tools/echo.ts")));
    expect(modules[1]).toContain(JSON.stringify(join(root, "mcp/handlers/admin/config.ts")));
    expect(modules[1]).not.toContain(JSON.stringify(join(root, "mcp/tools/echo.ts")));
    // Nothing inherited from the default endpoint: the name is the folder's unless its options say.
    expect(modules[1]).toContain('"name":"admin"');
    expect(modules[2]).toContain('"version":"2.0.0"');
    expect(modules[2]).toContain('"name":"v2"');
  });

  it("puts the other endpoints under the default endpoint's route", () => {
    const root = appWith({ "mcp/handlers/admin/tools/echo.ts": TOOL });
    expect(setUp(root, { route: "/api/mcp/" }).handlers.map((handler) => handler.route)).toEqual([
      "/api/mcp/",
      "/api/mcp/admin",
    ]);
  });

  it.each<{ case: string; files: Record<string, string>; mcp: McpNitroModuleOptions; message: string }>([
    {
      case: "a name under handlers with no folder",
      files: { "mcp/handlers/admin/tools/echo.ts": TOOL },
      mcp: { handlers: { admn: { version: "1.0.0" } } },
      message: "the config key's handlers.admn has no folder mcp/handlers/admn/ (the handlers found: admin)",
    },
    {
      case: "a folder name that cannot be a route segment",
      files: { "mcp/handlers/a b/tools/echo.ts": TOOL },
      mcp: {},
      message: 'mcp/handlers/a b cannot name an endpoint: a handler\'s folder name is letters, digits, "-" and "_"',
    },
    {
      case: "two endpoints on one route",
      files: { "mcp/handlers/admin/tools/echo.ts": TOOL },
      mcp: { handlers: { admin: { route: "/mcp" } } },
      message: "the default endpoint and mcp/handlers/admin/ are both routed to /mcp",
    },
    {
      case: "code in an endpoint's options",
      files: { "mcp/handlers/admin/tools/echo.ts": TOOL },
      mcp: { handlers: { admin: { onIncident: () => {} } } },
      message:
        "the config key's mcp.handlers.admin.onIncident is code (function); give it in mcp/handlers/admin/config.ts",
    },
    {
      case: "two files of one endpoint giving one name",
      files: { "mcp/handlers/admin/tools/echo.ts": TOOL, "mcp/handlers/admin/tools/more/echo.ts": TOOL },
      mcp: {},
      message: 'mcp/handlers/admin/tools/echo.ts and mcp/handlers/admin/tools/more/echo.ts both give the tool "echo"',
    },
  ])("stops the build on $case, naming it", ({ files, mcp, message }) => {
    const root = appWith(files);
    expect(() => setUp(root, mcp)).toThrow(message);
  });

  it("lets two endpoints give one name", () => {
    const root = appWith({ "mcp/tools/echo.ts": TOOL, "mcp/handlers/admin/tools/echo.ts": TOOL });
    expect(setUp(root).handlers).toHaveLength(2);
  });
});
