/**
 * A fresh nitropack 2 app on the module, `modules: ["mcp-h3/nitro"]`: its tools, app, resource and
 * prompt are files under mcp/ beside routes/ that import no `defineMcp…` (Nitro auto-imports them),
 * named after their files, with a second endpoint in mcp/handlers/admin/ (options in the typed `mcp`
 * key), built with the node-server preset (served with
 * `node .output/server/index.mjs`) and with the cloudflare-module preset (served by the real workerd).
 */
import { join } from "node:path";
import { describeBuiltApp } from "./app-suite.ts";
import { startBuilt, type App } from "./apps.ts";
import { describeFileDefinitions } from "./file-definitions.ts";
import { startWorkerd } from "./workerd.ts";

const app = {
  fixture: "nitropack2-module",
  packages: ["nitropack@2.13.6", "zod@^4.0.0"],
  h3Major: 1,
  wrongRoute:
    "export default defineEventHandler((event) => { const era: number = event.context.mcp!.era; return era; });\n",
} as const;
const build = (preset: string) => (built: App) => built.exec("npx", ["nitropack", "build"], { NITRO_PRESET: preset });

describeBuiltApp({
  ...app,
  title: "nitropack 2 app on mcp-h3/nitro, node-server preset, built",
  build: build("node-server"),
  serve: (built) => startBuilt(built, ".output/server/index.mjs"),
  more: (built, server) =>
    describeFileDefinitions(built, server, {
      mcpDir: "mcp",
      build: build("node-server"),
      adminRoute: "/mcp-admin",
      config: { file: "nitro.config.ts", tsc: ["-p", "."] },
    }),
});

describeBuiltApp({
  ...app,
  title: "nitropack 2 app on mcp-h3/nitro, cloudflare-module preset, built, in workerd",
  build: build("cloudflare-module"),
  serve: (built) => startWorkerd(join(built.dir, ".output/server"), "index.mjs"),
  more: (built, server) => describeFileDefinitions(built, server, { mcpDir: "mcp", adminRoute: "/mcp-admin" }),
});
