/**
 * A fresh nitropack 2 app (the Nitro of Nuxt 3–4) with the packed library installed as a user
 * installs it, built with the node-server preset and served with `node .output/server/index.mjs`.
 * The MCP handler is a file route (routes/mcp.ts); the other routes use Nitro's auto-imports.
 */
import { describeBuiltApp } from "./app-suite.ts";

describeBuiltApp({
  title: "nitropack 2 app, node-server preset, built",
  fixture: "nitropack2",
  packages: ["nitropack@2.13.6", "zod@^4.0.0"],
  build: (app) => app.exec("npx", ["nitropack", "build"], { NITRO_PRESET: "node-server" }),
  entry: ".output/server/index.mjs",
  h3Major: 1,
  wrongRoute:
    "export default defineEventHandler((event) => { const era: number = event.context.mcp!.era; return era; });\n",
});
