import { fileURLToPath } from "node:url";
import { defineNitroConfig } from "nitropack/config";

// A Nitro app on Cloudflare Workers (preset cloudflare-module) whose MCP route keeps sessions, event
// logs and tasks in a Durable Object (mcp-h3/cloudflare). What it adds to a plain Cloudflare build:
// an entry that also exports the object's class, and the object's binding and migration.
export default defineNitroConfig({
  compatibilityDate: "2026-11-17",
  preset: "cloudflare-module",
  // The preset's own Worker entry, plus the Durable Object class (see entry.ts).
  entry: fileURLToPath(new URL("./entry.ts", import.meta.url)),
  cloudflare: {
    // Writes the wrangler config of the build (.output/server/wrangler.json) from `wrangler` below.
    deployConfig: true,
    nodeCompat: false,
    wrangler: {
      compatibility_flags: ["no_nodejs_compat", "no_nodejs_compat_v2"],
      durable_objects: { bindings: [{ name: "MCP_OBJECT", class_name: "McpObject" }] },
      migrations: [{ tag: "v1", new_sqlite_classes: ["McpObject"] }],
    },
  },
  alias: {
    // nitropack 2 runs on h3 v1; this repository's root installs h3 v2 for the library's own tests.
    h3: fileURLToPath(new URL("../../node_modules/nitropack/node_modules/h3", import.meta.url)),
  },
  // A test that builds its own copy sets this, so two builds never share .nitro/ or .output/.
  ...(process.env.NITRO_BUILD_DIR && {
    buildDir: `${process.env.NITRO_BUILD_DIR}/.nitro`,
    output: { dir: `${process.env.NITRO_BUILD_DIR}/.output` },
  }),
});
