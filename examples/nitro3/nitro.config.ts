import { defineConfig } from "nitro";
import { mcpNitroModule } from "mcp-h3/nitro";

export default defineConfig({
  // nitro 3 scans routes/ only when serverDir is set.
  serverDir: "./",
  // Mounts the default export of ./mcp.ts on /mcp (a path relative to this folder).
  modules: [mcpNitroModule({ handler: "./mcp.ts" })],
});
