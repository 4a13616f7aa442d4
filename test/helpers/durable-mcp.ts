/**
 * test/fixtures/durable-mcp in real workerd: `defineMcpWorker` (mcp-h3/cloudflare) on two
 * SQLite-backed Durable Object classes, `/mcp` (no auth) and `/auth/mcp` (bearer auth).
 */
import { startDurableWorker, type DurableWorker } from "./workerd-durable.ts";

export function startDurableMcp(): Promise<DurableWorker> {
  return startDurableWorker({
    entry: new URL("../fixtures/durable-mcp/worker.ts", import.meta.url).pathname,
    classes: [
      { className: "McpObject", binding: "MCP_OBJECT", enableSql: true },
      { className: "AuthObject", binding: "AUTH_OBJECT", enableSql: true },
    ],
  });
}
