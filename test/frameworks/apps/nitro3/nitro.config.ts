import { defineConfig } from "nitro";
import { mcpNitroModule } from "mcp-h3/nitro";

// A nitro 3 app: routes/ is scanned (serverDir), and the MCP handler file is mounted on /mcp by
// the library's module, with a path relative to this folder.
export default defineConfig({
  serverDir: "./",
  modules: [mcpNitroModule({ handler: "./mcp-handler.ts" })],
});
