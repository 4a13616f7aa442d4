// An h3 v1 app serving MCP at /mcp on Node's HTTP server. This repository has h3 v2 as `h3`, so
// it imports v1 through its `h3-v1` alias; in an app of your own with h3@1, import from "h3".
import { createServer } from "node:http";
import { createApp, toNodeListener } from "h3-v1";
import { defineMcpHandler } from "mcp-h3";
import { tools } from "../catalog.ts";

const app = createApp();
app.use("/mcp", defineMcpHandler({ name: "example-h3-v1", version: "1.0.0", tools }));

const port = Number(process.env.PORT ?? 3000);
createServer(toNodeListener(app)).listen(port, "127.0.0.1", () => console.log(`MCP at http://127.0.0.1:${port}/mcp`));
