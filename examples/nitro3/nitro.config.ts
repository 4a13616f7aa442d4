import { defineConfig } from "nitro";
import { mcpNitroModule } from "mcp-h3/nitro";

export default defineConfig({
  // nitro 3 scans routes/ and mcp/ only when serverDir is set.
  serverDir: "./",
  // Serves the definition files under mcp/ on /mcp; the options could go under an `mcp` key as well.
  modules: [mcpNitroModule({ name: "nitro3-example", version: "1.0.0" })],
});
