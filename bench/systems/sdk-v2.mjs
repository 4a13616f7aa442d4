/**
 * The official SDK v2 (`@modelcontextprotocol/server` 2.4): `createMcpHandler(factory)` with its
 * default stateless legacy fallback (it keeps no sessions), behind the Host/Origin guards its
 * documentation puts in front of a bare fetch mount. Node: `toNodeHandler` from
 * `@modelcontextprotocol/node`.
 */
import { createServer } from "node:http";
import {
  McpServer,
  createMcpHandler,
  hostHeaderValidationResponse,
  localhostAllowedHostnames,
  localhostAllowedOrigins,
  originValidationResponse,
} from "@modelcontextprotocol/server";
import { toNodeHandler } from "@modelcontextprotocol/node";
import { registerBenchTools } from "../lib/sdk-tools.mjs";

export const info = {
  name: "sdk-v2",
  label: "SDK v2 createMcpHandler",
  modern: true,
  nodeServer: "@modelcontextprotocol/node toNodeHandler + node:http",
  legacy: "stateless",
};

function factory() {
  const server = new McpServer({ name: "bench", version: "1.0.0" });
  registerBenchTools(server);
  return server;
}

function createGuarded() {
  const handler = createMcpHandler(factory);
  const hosts = localhostAllowedHostnames();
  const origins = localhostAllowedOrigins();
  return {
    fetch(request) {
      const rejected = hostHeaderValidationResponse(request, hosts) ?? originValidationResponse(request, origins);
      return rejected ? Promise.resolve(rejected) : handler.fetch(request);
    },
    close: () => handler.close(),
  };
}

export async function create() {
  return createGuarded();
}

export async function createNodeServer() {
  return createServer(toNodeHandler(createGuarded()));
}
