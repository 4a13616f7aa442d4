import { defineConfig } from "nitro";
import { mcpNitroModule } from "mcp-h3/nitro";

// A nitro 3 app on the module: routes/ and mcp/ are scanned from this folder (serverDir); the
// definitions under mcp/ are served at /mcp, those under mcp/handlers/admin/ at /mcp/admin. The
// module's options are given inline and under the `mcp` key, merged.
export default defineConfig({
  serverDir: "./",
  modules: [mcpNitroModule({ name: "nitro3-module-app", version: "1.0.0" })],
  // A file whose load never settles is given up after 3 s in dev (test/frameworks/live-definitions.ts).
  mcp: { devLoadTimeoutMs: 3_000, handlers: { admin: { name: "admin-endpoint", version: "2.0.0" } } },
});
