import { defineNitroConfig } from "nitropack/config";
import { mcpNitroModule } from "mcp-h3/nitro";

// A plain nitropack 2 app, as `npx giget nitro` makes it: no alias, no tsconfig paths. The test
// installs the packed library into a copy and builds it with the preset it is testing. Besides the
// route file (routes/mcp.ts), the module mounts the same handler file on /mcp-module.
export default defineNitroConfig({
  compatibilityDate: "2025-07-01",
  srcDir: ".",
  modules: [mcpNitroModule({ route: "/mcp-module", handler: "./routes/mcp.ts" })],
});
