/**
 * Vercel's mcp-handler 2.4 (a layer over SDK v2's createMcpHandler with the stateless legacy
 * fallback). It is a `(Request) => Promise<Response>` handler; on Node it is mounted through
 * `toNodeHandler` from @modelcontextprotocol/node (the README asks for a Web Request adapter).
 */
import { createServer } from "node:http";
import { createMcpHandler } from "mcp-handler";
import { toNodeHandler } from "@modelcontextprotocol/node";
import { registerBenchTools } from "../lib/sdk-tools.mjs";

export const info = {
  name: "mcp-handler",
  label: "mcp-handler",
  modern: true,
  nodeServer: "@modelcontextprotocol/node toNodeHandler + node:http",
  legacy: "stateless",
};

function createFetch() {
  return createMcpHandler((server) => registerBenchTools(server), { serverInfo: { name: "bench", version: "1.0.0" } });
}

export async function create() {
  const handler = createFetch();
  return { fetch: (request) => handler(request) };
}

export async function createNodeServer() {
  const handler = createFetch();
  return createServer(toNodeHandler({ fetch: handler }));
}
