/**
 * GET /inspector: mcp-h3's inspector page (mcp-h3/inspector) on this playground's /mcp, which the page at /
 * shows in a frame beside the live activity. Loopback only (the default): start.mjs binds 127.0.0.1, and a
 * request forwarded by a proxy or tunnel gets a 404.
 */
import { defineMcpInspector } from "mcp-h3/inspector";

export default defineMcpInspector({ endpoint: "/mcp", embeddable: true });
