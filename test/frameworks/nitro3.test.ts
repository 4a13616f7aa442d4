/**
 * A fresh nitro 3 (dated beta) app with the packed library installed as a user installs it, built
 * with the node-server preset and served with `node .output/server/index.mjs`. The MCP handler
 * file is mounted by `mcpNitroModule` from mcp-h3/nitro with a relative path.
 */
import { describeBuiltApp } from "./app-suite.ts";

describeBuiltApp({
  title: "nitro 3 app, node-server preset, built",
  fixture: "nitro3",
  packages: ["nitro@3.0.260903-beta", "zod@^4.0.0"],
  build: (app) => app.exec("npx", ["nitro", "build"], { NITRO_PRESET: "node-server" }),
  entry: ".output/server/index.mjs",
  h3Major: 2,
  wrongRoute: [
    'import { defineHandler } from "nitro/h3";',
    "export default defineHandler((event) => { const era: number = event.context.mcp!.era; return era; });",
    "",
  ].join("\n"),
});
