// The Worker entry of the build: the cloudflare-module preset's own (its default export serves the
// Nitro app), and the Durable Object class that wrangler.json binds as MCP_OBJECT.
export { default } from "nitropack/presets/cloudflare/runtime/cloudflare-module";
export { McpObject } from "./mcp.ts";
