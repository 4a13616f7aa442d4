/**
 * A fresh nitro 3 (dated beta) app with the packed library installed as a user installs it, built
 * with the node-server preset (served with `node .output/server/index.mjs`) and with the
 * cloudflare-module preset (served by the real workerd). The MCP handler file is mounted by
 * `mcpNitroModule` from mcp-h3/nitro with a relative path, and again on /mcp-route by a route file.
 */
import { join } from "node:path";
import { describeBuiltApp } from "./app-suite.ts";
import { startBuilt } from "./apps.ts";
import { startWorkerd } from "./workerd.ts";

const app = {
  fixture: "nitro3",
  packages: ["nitro@3.0.260903-beta", "zod@^4.0.0"],
  h3Major: 2,
  alsoMountedAt: "/mcp-route",
  wrongRoute: [
    'import { defineHandler } from "nitro/h3";',
    "export default defineHandler((event) => { const era: number = event.context.mcp!.era; return era; });",
    "",
  ].join("\n"),
} as const;

describeBuiltApp({
  ...app,
  title: "nitro 3 app, node-server preset, built",
  build: (built) => built.exec("npx", ["nitro", "build"], { NITRO_PRESET: "node-server" }),
  serve: (built) => startBuilt(built, ".output/server/index.mjs"),
});

describeBuiltApp({
  ...app,
  title: "nitro 3 app, cloudflare-module preset, built, in workerd",
  build: (built) => built.exec("npx", ["nitro", "build"], { NITRO_PRESET: "cloudflare-module" }),
  serve: (built) => startWorkerd(join(built.dir, ".output/server"), "index.mjs"),
});
