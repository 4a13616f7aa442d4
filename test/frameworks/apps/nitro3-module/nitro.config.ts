import { defineConfig } from "nitro";
import { mcpNitroModule } from "mcp-h3/nitro";

// A nitro 3 app on the module: routes/ and mcp/ are scanned from this folder (serverDir); the
// definitions under mcp/ are served at /mcp, the module's options given inline.
export default defineConfig({
  serverDir: "./",
  modules: [mcpNitroModule({ name: "nitro3-module-app", version: "1.0.0" })],
});
