/**
 * A fresh nitropack 2 app (the Nitro of Nuxt 3–4) with the packed library installed as a user
 * installs it, built with the node-server preset (served with `node .output/server/index.mjs`) and
 * with the cloudflare-module preset (served by the real workerd). The MCP handler is a file route
 * (routes/mcp.ts), and mounted again on /mcp-module by `mcpNitroModule` from mcp-h3/nitro; the
 * other routes use Nitro's auto-imports.
 */
import { join } from "node:path";
import { describeBuiltApp } from "./app-suite.ts";
import { startBuilt } from "./apps.ts";
import { startWorkerd } from "./workerd.ts";

const app = {
  fixture: "nitropack2",
  packages: ["nitropack@2.13.6", "zod@^4.0.0"],
  h3Major: 1,
  alsoMountedAt: "/mcp-module",
  wrongRoute:
    "export default defineEventHandler((event) => { const era: number = event.context.mcp!.era; return era; });\n",
} as const;

describeBuiltApp({
  ...app,
  title: "nitropack 2 app, node-server preset, built",
  build: (built) => built.exec("npx", ["nitropack", "build"], { NITRO_PRESET: "node-server" }),
  serve: (built) => startBuilt(built, ".output/server/index.mjs"),
});

describeBuiltApp({
  ...app,
  title: "nitropack 2 app, cloudflare-module preset, built, in workerd",
  build: (built) => built.exec("npx", ["nitropack", "build"], { NITRO_PRESET: "cloudflare-module" }),
  serve: (built) => startWorkerd(join(built.dir, ".output/server"), "index.mjs"),
});
