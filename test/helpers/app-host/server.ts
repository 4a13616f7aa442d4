/**
 * Serves the minimal MCP Apps host of examples/apps/host on one local port, under two origins (the MCP
 * Apps spec wants the host and its sandbox on different ones): http://localhost:<port>/host for the host
 * page and /mcp for the MCP endpoint (same origin, so the host's client needs no CORS), and
 * http://127.0.0.1:<port>/sandbox for the sandbox proxy, answered as examples/apps/server.ts answers them
 * (examples/apps/host/serve.ts).
 */
import { createServer, type RequestListener } from "node:http";
import { H3, toNodeHandler, type EventHandler } from "h3";
import { buildAppHost } from "../../../scripts/build-app-views.mjs";
import { hostPage, sandboxPage } from "../../../examples/apps/host/serve.ts";
import { freePort } from "../free-port.ts";

export interface AppHostServer {
  /** The host page's origin, http://localhost:<port>. */
  origin: string;
  /** The sandbox's origin, http://127.0.0.1:<port>. */
  sandboxOrigin: string;
  close(): Promise<void>;
}

export async function startAppHost(mcp: EventHandler): Promise<AppHostServer> {
  const pages = await buildAppHost();
  const send = (page: { html: string; headers: Record<string, string> } | undefined): Response =>
    page ? new Response(page.html, { headers: page.headers }) : new Response("Not Found", { status: 404 });
  const app = new H3()
    .all("/mcp", mcp)
    .get("/host", () => send(hostPage(pages.host)))
    .get("/sandbox", (event) => send(sandboxPage(pages.sandbox, event.req.url)));
  const port = await freePort();
  const server = createServer(toNodeHandler(app) as RequestListener);
  await new Promise<void>((resolve) => server.listen(port, "127.0.0.1", resolve));
  return {
    origin: `http://localhost:${port}`,
    sandboxOrigin: `http://127.0.0.1:${port}`,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
