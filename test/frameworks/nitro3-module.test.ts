/**
 * A fresh nitro 3 (dated beta) app on the module, `mcpNitroModule({ name, version })` in its
 * modules: its tools, app, resource and prompt are files under mcp/ beside routes/ that import no
 * `defineMcp…` (nitro 3 has no auto-imports: the module's bundler plugin imports them into those
 * files, and `"types": ["mcp-h3/globals"]` declares them), named after their files, built with the
 * node-server preset (served with `node .output/server/index.mjs`) and with the cloudflare-module
 * preset (served by the real workerd).
 */
import { join } from "node:path";
import { describeBuiltApp } from "./app-suite.ts";
import { startBuilt, type App } from "./apps.ts";
import { describeFileDefinitions } from "./file-definitions.ts";
import { startWorkerd } from "./workerd.ts";

const app = {
  fixture: "nitro3-module",
  packages: ["nitro@3.0.260903-beta", "zod@^4.0.0"],
  h3Major: 2,
  wrongRoute: [
    'import { defineHandler } from "nitro/h3";',
    "export default defineHandler((event) => { const era: number = event.context.mcp!.era; return era; });",
    "",
  ].join("\n"),
} as const;
const build = (preset: string) => (built: App) => built.exec("npx", ["nitro", "build"], { NITRO_PRESET: preset });

describeBuiltApp({
  ...app,
  title: "nitro 3 app on mcp-h3/nitro, node-server preset, built",
  build: build("node-server"),
  serve: (built) => startBuilt(built, ".output/server/index.mjs"),
  more: (built, server) =>
    describeFileDefinitions(built, server, {
      mcpDir: "mcp",
      build: build("node-server"),
      adminRoute: "/mcp/admin",
      config: { file: "nitro.config.ts", tsc: ["-p", "."] },
    }),
});

describeBuiltApp({
  ...app,
  title: "nitro 3 app on mcp-h3/nitro, cloudflare-module preset, built, in workerd",
  build: build("cloudflare-module"),
  serve: (built) => startWorkerd(join(built.dir, ".output/server"), "index.mjs"),
  more: (built, server) => describeFileDefinitions(built, server, { mcpDir: "mcp", adminRoute: "/mcp/admin" }),
});
