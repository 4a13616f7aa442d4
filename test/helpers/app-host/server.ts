/**
 * Serves the minimal MCP Apps host of examples/apps/host on one local port, under two origins (the MCP
 * Apps spec wants the host and its sandbox on different ones): http://localhost:<port>/host for the host
 * page and /mcp for the MCP endpoint (same origin, so the host's client needs no CORS), and
 * http://127.0.0.1:<port>/sandbox for the sandbox proxy, whose CSP header is built from the view's
 * `_meta.ui.csp` (`?csp=`) by the example's `viewCspHeader`.
 */
import { createServer, type RequestListener } from "node:http";
import { H3, getQuery, toNodeHandler, type EventHandler } from "h3";
import { buildAppHost } from "../../../scripts/build-app-views.mjs";
import { parseViewCsp, viewCspHeader } from "../../../examples/apps/host/csp.ts";
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
  const page = (body: string, headers: Record<string, string> = {}): Response =>
    new Response(body, { headers: { "content-type": "text/html; charset=utf-8", ...headers } });
  const app = new H3()
    .all("/mcp", mcp)
    .get("/host", () => page(pages.host))
    .get("/sandbox", (event) =>
      page(pages.sandbox, { "content-security-policy": viewCspHeader(parseViewCsp(getQuery(event).csp)) }),
    );
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
