/**
 * A nitropack 2 app on the module under `nitro dev`: its definition files are live (added, edited
 * and removed with the server running, `list_changed` to the open streams, no restart).
 */
import { startDevServer } from "./dev-server.ts";
import { describeLiveDefinitions } from "./live-definitions.ts";

describeLiveDefinitions({
  title: "nitropack 2 app on mcp-h3/nitro, nitro dev",
  fixture: "nitropack2-module",
  packages: ["nitropack@2.13.6", "zod@^4.0.0"],
  mcpDir: "mcp",
  adminRoute: "/mcp-admin",
  startDev: (app) => startDevServer(app, { entry: "node_modules/nitropack/dist/cli/index.mjs", readyPath: "/mcp" }),
});
