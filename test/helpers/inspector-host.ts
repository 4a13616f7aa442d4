/**
 * An app serving an MCP endpoint at /mcp and the inspector page at /inspector, on h3 v2 or h3 v1,
 * on a random loopback port; the page module is built first (dist/inspector-page.mjs, as `npm run build` does).
 */
import { createServer, type RequestListener, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { H3, toNodeHandler } from "h3";
import { createApp, toNodeListener } from "h3-v1";
import { writeInspectorPage } from "../../scripts/build-inspector.mjs";
import type { McpEventHandler } from "../../src/handler-types.ts";
import type { McpInspectorHandler } from "../../src/_entries/inspector.ts";
import type { HostName } from "./hosts.ts";

export interface InspectorHost {
  /** e.g. http://localhost:40123 (a loopback Host, as a browser on this machine sends). */
  origin: string;
  port: number;
  close(): Promise<void>;
}

let pageBuilt: Promise<unknown> | undefined;
/** Builds the page module once per test file. */
export function ensureInspectorPage(): Promise<unknown> {
  pageBuilt ??= writeInspectorPage();
  return pageBuilt;
}

export async function startInspectorHost(
  host: HostName,
  mcp: McpEventHandler | undefined,
  inspector: McpInspectorHandler,
): Promise<InspectorHost> {
  await ensureInspectorPage();
  let server: Server;
  if (host === "h3-v2") {
    const app = new H3().get("/inspector", inspector);
    if (mcp) app.all("/mcp", mcp);
    server = createServer(toNodeHandler(app) as RequestListener);
  } else {
    const app = createApp();
    app.use("/inspector", inspector as never);
    if (mcp) app.use("/mcp", mcp as never);
    server = createServer(toNodeListener(app));
  }
  const port = await new Promise<number>((resolve) =>
    server.listen(0, "127.0.0.1", () => resolve((server.address() as AddressInfo).port)),
  );
  return {
    origin: `http://localhost:${port}`,
    port,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
