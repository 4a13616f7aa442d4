// An h3 v2 app serving MCP at /mcp, on Node (or Deno, Bun) through srvx.
import { H3 } from "h3";
import { defineMcpHandler } from "mcp-h3";
import { serve } from "srvx";
import { tools } from "../catalog.ts";

const app = new H3().all("/mcp", defineMcpHandler({ name: "example-h3-v2", version: "1.0.0", tools }));

serve({ fetch: app.fetch, hostname: "127.0.0.1", port: Number(process.env.PORT ?? 3000) });
