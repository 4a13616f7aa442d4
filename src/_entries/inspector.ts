/**
 * mcp-h3/inspector: a page that tries an MCP endpoint from the browser — the official 2.x client
 * running in the page, in the legacy, modern or auto negotiation mode — served by a handler you
 * mount next to the endpoint. Imported, not carried: a server that does not import it does not
 * bundle it, and the page itself (its HTML, script and style, built at package build time into
 * `dist/inspector-page.mjs`) is loaded only when first asked for.
 *
 * MCP App views are shown in a sandbox proxy the same handler serves on another origin (`?mcp-app-sandbox`): on
 * loopback the machine's other name, when deployed `appSandboxOrigin`, framed only by `pageOrigin`'s page.
 *
 * Who may load it: by default only a request from this machine that no proxy forwarded
 * (`enabled: "loopback"`, see {@link McpInspectorOptions.enabled}); `enabled: true` serves everyone
 * who reaches the route, `false` no one. Refused requests get a plain 404.
 *
 * @example
 * // h3 v2
 * import { H3 } from "h3";
 * import { defineMcpInspector } from "mcp-h3/inspector";
 * const app = new H3().all("/mcp", mcp).get("/inspector", defineMcpInspector({ endpoint: "/mcp" }));
 *
 * // Deployed behind your own auth, views framed from a second host name of the same app
 * defineMcpInspector({
 *   enabled: true,
 *   pageOrigin: "https://tools.example.com",
 *   appSandboxOrigin: "https://sandbox.tools.example.com",
 * });
 *
 * // Nitro / Nuxt: server/routes/inspector.get.ts
 * export default defineMcpInspector({ enabled: process.env.NODE_ENV !== "production" || "loopback" });
 *
 * // A Worker (no peer address: loopback never holds, so it is served only when enabled)
 * const inspector = defineMcpInspector({ enabled: env.INSPECTOR === "on" });
 * if (new URL(request.url).pathname === "/inspector") return inspector.fetch(request);
 */
import type { H3Event } from "h3";
import type { McpInspectorConnection, McpInspectorOptions } from "../types/inspector.ts";
import { resolveInspectorOptions } from "../inspector/options.ts";
import { answerInspector, type InspectorPage, type InspectorRequest } from "../inspector/serve.ts";

export type { McpInspectorAccess, McpInspectorConnection, McpInspectorOptions, ViewCsp } from "../types/inspector.ts";
export { isLoopbackAddress, isLoopbackHost } from "../inspector/access.ts";
/** The sandbox proxy page of an MCP Apps web host, for hosts of your own (the inspector serves its own with it). */
export {
  appSandboxPage,
  appSandboxPolicy,
  loopbackTwinOrigin,
  type AppSandboxPage,
} from "../inspector/sandbox-page.ts";
/** The CSP a view runs under, from its `_meta.ui.csp` (the sandbox proxy applies it to each view). */
export { viewCspHeader } from "../inspector/view-csp.ts";

/** The inspector as an h3 handler (v1 and v2), also callable as a fetch handler. */
export interface McpInspectorHandler {
  (event: H3Event): Promise<Response>;
  /** h3 v1 marks handlers with this flag; set so that no implicit conversion happens. */
  readonly __is_handler__: true;
  /** Serves a Web `Request`; pass the peer address when the host knows it (else it is not loopback). */
  fetch(request: Request, connection?: McpInspectorConnection): Promise<Response>;
}

/** The built page, imported once (the `#inspector-page` import of package.json). */
let pageModule: Promise<InspectorPage> | undefined;
function loadPage(): Promise<InspectorPage> {
  pageModule ??= import("#inspector-page").then((module: { default: InspectorPage }) => module.default);
  return pageModule;
}

/**
 * The part of Node's request the access check reads. Written out rather than imported from
 * Node's http module: apart from the adapters, the library uses Web APIs only (architecture §1).
 */
interface NodeRequestView {
  method?: string;
  url?: string;
  headers: Record<string, string | string[] | undefined>;
  socket?: { remoteAddress?: string; encrypted?: boolean };
}

/** What srvx (h3 v2 on Node) and h3 v1 expose of the Node request. */
type SrvxRequest = Request & { ip?: string; runtime?: { node?: { req?: NodeRequestView } } };
interface V1Event {
  node: { req: NodeRequestView };
}

function fromRequest(request: Request, remoteAddress: string | undefined): InspectorRequest {
  // A Web Request carries no Host header (fetch forbids setting it): its URL's host stands for it.
  const header = (name: string): string | null =>
    request.headers.get(name) ?? (name === "host" ? new URL(request.url).host : null);
  return { method: request.method, header, remoteAddress, url: request.url };
}

function fromEvent(event: H3Event): InspectorRequest {
  // Typed against h3 v2, the event may be an h3 v1 one (whose `req` is Node's request): checked below.
  const request = (event as unknown as { req?: SrvxRequest }).req;
  if (typeof request?.text === "function") {
    return fromRequest(request, request.ip ?? request.runtime?.node?.req?.socket?.remoteAddress);
  }
  const req = (event as unknown as V1Event).node.req;
  const host = typeof req.headers.host === "string" ? req.headers.host : "localhost";
  return {
    url: `${req.socket?.encrypted ? "https" : "http"}://${host}${req.url ?? "/"}`,
    method: (req.method ?? "GET").toUpperCase(),
    header: (name) => {
      const value = req.headers[name];
      if (value === undefined) return null;
      return Array.isArray(value) ? value.join(", ") : value;
    },
    remoteAddress: req.socket?.remoteAddress,
  };
}

/**
 * Defines the inspector page's handler: mount it on a GET route of an h3 v1 or v2 app, export it
 * as a Nitro / Nuxt route, or call its `fetch` from a Worker. See the module's JSDoc for examples.
 */
export function defineMcpInspector(given: McpInspectorOptions = {}): McpInspectorHandler {
  const options = resolveInspectorOptions(given);
  const handler = (event: H3Event): Promise<Response> => answerInspector(options, fromEvent(event), loadPage);
  return Object.assign(handler, {
    __is_handler__: true as const,
    fetch: (request: Request, connection: McpInspectorConnection = {}) =>
      answerInspector(options, fromRequest(request, connection.remoteAddress), loadPage),
  });
}
