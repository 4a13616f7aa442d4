/** The sandbox's Content-Security-Policy: mcp-h3/inspector's, which hosts MCP App views too. */
export { parseViewCsp, viewCspHeader, type ViewCsp } from "mcp-h3/inspector";
