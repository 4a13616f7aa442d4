/**
 * Serves the test host of an MCP App on one local port, under two origins (the MCP Apps spec wants the
 * host and its sandbox on different ones): http://localhost:<port> for the host page, its script and
 * the MCP endpoint (same origin, so the host's client needs no CORS), and http://127.0.0.1:<port> for
 * the sandbox proxy, whose CSP header is built from the view's `_meta.ui.csp` (`?csp=`).
 */
import { createServer, type RequestListener } from "node:http";
import { fileURLToPath } from "node:url";
import { build } from "esbuild";
import { H3, getQuery, toNodeHandler, type EventHandler } from "h3";
import { freePort } from "../free-port.ts";
import { viewCspHeader, type ViewCsp } from "./csp.ts";

export interface AppHostServer {
  /** The host page's origin, http://localhost:<port>. */
  origin: string;
  /** The sandbox's origin, http://127.0.0.1:<port>. */
  sandboxOrigin: string;
  close(): Promise<void>;
}

const HOST_PAGE = `<!doctype html>
<html lang="en">
  <head><meta charset="utf-8" /><title>mcp-h3 test host</title><link rel="icon" href="data:," /></head>
  <body>
    <ol id="log"></ol>
    <script type="module" src="/host.js"></script>
  </body>
</html>`;

const SANDBOX_PAGE = `<!doctype html>
<html lang="en">
  <head><meta charset="utf-8" /><title>sandbox</title><link rel="icon" href="data:," /></head>
  <body style="margin: 0; height: 100vh"><script src="/sandbox.js"></script></body>
</html>`;

/** Bundles the host's browser code (host.ts with the app-bridge and the MCP client; sandbox.ts). */
async function bundle(file: string): Promise<string> {
  const result = await build({
    entryPoints: [fileURLToPath(new URL(file, import.meta.url))],
    bundle: true,
    write: false,
    format: "esm",
    platform: "browser",
    target: "es2022",
    logLevel: "silent",
  });
  return result.outputFiles[0]!.text;
}

function parseCsp(value: unknown): ViewCsp | null {
  try {
    const parsed: unknown = JSON.parse(typeof value === "string" ? value : "null");
    return parsed !== null && typeof parsed === "object" ? (parsed as ViewCsp) : null;
  } catch {
    return null;
  }
}

export async function startAppHost(mcp: EventHandler): Promise<AppHostServer> {
  const [hostScript, sandboxScript] = await Promise.all([bundle("./host.ts"), bundle("./sandbox.ts")]);
  const page = (body: string, headers: Record<string, string> = {}): Response =>
    new Response(body, { headers: { "content-type": "text/html; charset=utf-8", ...headers } });
  const script = (body: string): Response =>
    new Response(body, { headers: { "content-type": "text/javascript; charset=utf-8" } });
  const app = new H3()
    .all("/mcp", mcp)
    .get("/", () => page(HOST_PAGE))
    .get("/host.js", () => script(hostScript))
    .get("/sandbox.html", (event) =>
      page(SANDBOX_PAGE, { "content-security-policy": viewCspHeader(parseCsp(getQuery(event).csp)) }),
    )
    .get("/sandbox.js", () => script(sandboxScript));
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
