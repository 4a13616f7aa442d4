// server/routes/inspector.get.ts: a page to try the endpoint from the browser (loopback only)
import { defineMcpInspector } from "mcp-h3/inspector";

export default defineMcpInspector({ endpoint: "/mcp" });
