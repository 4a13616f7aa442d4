// Bun: Bun.serve with the handler's fetch. Bun closes a connection idle for 10 s (its default
// idleTimeout); the handler's keep-alive comments (every 8 s by default) keep streams open.
import { defineMcpFetchHandler } from "mcp-h3";
import { tools } from "../catalog.ts";

declare const Bun: {
  serve(options: { hostname: string; port: number; fetch(request: Request): Promise<Response> }): { url: URL };
  env: Record<string, string | undefined>;
};

const handler = defineMcpFetchHandler({ name: "example-bun", version: "1.0.0", tools });
const server = Bun.serve({ hostname: "127.0.0.1", port: Number(Bun.env.PORT ?? 3000), fetch: handler.fetch });
console.log(`MCP at ${new URL("/mcp", server.url)}`);
