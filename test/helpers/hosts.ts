/**
 * Real HTTP servers for tests: the same mcp-h3 handler mounted at /mcp on h3 v2 and on h3 v1
 * (through the `h3-v1` alias), each on a random loopback port.
 */
import { createServer, type RequestListener, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { H3, toNodeHandler } from "h3";
import { createApp, toNodeListener } from "h3-v1";
import { toNodeHandler as fetchToNodeHandler } from "srvx/node";
import type { McpEventHandler } from "../../src/handler-types.ts";

export type HostName = "h3-v2" | "h3-v1";
export const HOSTS: HostName[] = ["h3-v2", "h3-v1"];

export interface RunningHost {
  /** The MCP endpoint, e.g. http://localhost:40123/mcp */
  url: string;
  close(): Promise<void>;
}

function listen(server: Server): Promise<number> {
  return new Promise((resolve) => server.listen(0, "127.0.0.1", () => resolve((server.address() as AddressInfo).port)));
}

/** Listens on a random loopback port; `close` ends every open connection too. */
async function running(server: Server): Promise<RunningHost> {
  const port = await listen(server);
  return {
    url: `http://localhost:${port}/mcp`,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** Starts `handler` on the named host. */
export async function startHost(host: HostName, handler: McpEventHandler): Promise<RunningHost> {
  let server: Server;
  if (host === "h3-v2") {
    const app = new H3().all("/mcp", handler);
    server = createServer(toNodeHandler(app));
  } else {
    const app = createApp();
    app.use("/mcp", handler as never);
    server = createServer(toNodeListener(app));
  }
  return running(server);
}

/**
 * Serves a fetch handler (`{ fetch(request) }`, as Workers, Deno and Bun take it) at /mcp over
 * Node's HTTP server through srvx, with no h3 app in between; other paths get 404.
 */
export async function startFetchHost(handler: { fetch(request: Request): Promise<Response> }): Promise<RunningHost> {
  const listener = fetchToNodeHandler((request) =>
    new URL(request.url).pathname === "/mcp" ? handler.fetch(request) : new Response("Not Found", { status: 404 }),
  ) as RequestListener; // srvx types it for HTTP/1 and HTTP/2 servers alike
  const server = createServer(listener);
  return running(server);
}
