import { fileURLToPath } from "node:url";
import { defineNitroConfig } from "nitropack/config";

// The defaults are what a first look needs: srcDir is this folder, so the module (mcp-h3/nitro) serves
// the definition files under mcp/ on /mcp, and the preset is node-server (.output/server/index.mjs),
// which start.mjs runs. Each tool, resource and prompt is a file; mcp/config.ts gives the options
// that are code.
export default defineNitroConfig({
  compatibilityDate: "2025-07-01",
  modules: ["mcp-h3/nitro"],
  mcp: {
    name: "mcp-h3-playground",
    version: "0.1.0",
    instructions: "A demo server: try whoami first, then count_slowly with a progress-aware client.",
    // Declares the logging capability, so log() sends and logging/setLevel is served.
    logging: true,
  },
  alias: {
    // This app lives in an npm workspace whose root installs h3 v2 (the library's own dev dependency), and
    // Nitro looks up auto-import types from the workspace root first: without this line, the types of
    // `defineEventHandler`, `getQuery`, … would come from h3 v2 while the server runs on h3 v1. Pointing "h3"
    // at this app's own h3 v1 keeps types and runtime on one copy (the bundle holds one h3 as well).
    h3: fileURLToPath(new URL("./node_modules/h3", import.meta.url)),
  },
  // A test that builds its own copy sets this, so two builds running at once never share .nitro/ or .output/.
  ...(process.env.PLAYGROUND_BUILD_DIR && {
    buildDir: `${process.env.PLAYGROUND_BUILD_DIR}/.nitro`,
    output: { dir: `${process.env.PLAYGROUND_BUILD_DIR}/.output` },
  }),
});
