/**
 * The inspector page's answer: the page module (built at package build time, loaded on the first
 * request so importing the entry stays cheap) with the handler's configuration put in, or a plain
 * 404 when the access rule refuses the request.
 */
import type { McpInspectorOptions } from "../types/inspector.ts";
import { mayServe, type AccessView } from "./access.ts";
import { parseViewCsp, viewCspHeader } from "./view-csp.ts";

export interface InspectorRequest extends AccessView {
  method: string;
  /** The request's URL (absolute; its query selects the sandbox page). */
  url: string;
}

/** What the built page module holds (see scripts/build-inspector.mjs). */
export interface InspectorPage {
  html: string;
  /** CSP sources (`'sha256-…'`) of the page's one inline script and one inline style. */
  scriptHash: string;
  styleHash: string;
  /** The MCP App sandbox proxy's page (its inline script runs under the view's CSP, which allows inline scripts). */
  sandboxHtml: string;
}

/** The query parameter that asks for the sandbox proxy instead of the page. */
export const SANDBOX_QUERY = "mcp-app-sandbox";

const CONFIG_SLOT = "__MCP_INSPECTOR_CONFIG__";

/** JSON safe inside a `<script type="application/json">`: no `<` can end the element early. */
function inertJson(value: unknown): string {
  return JSON.stringify(value).replace(/</g, "\\u003c");
}

/**
 * The page's CSP: only its own inline script and style run; it connects to any endpoint the user
 * names (the endpoint's CORS and Origin checks decide); no one may frame it.
 */
function policyOf(page: InspectorPage, embeddable: boolean, sandboxOrigin: string | undefined): string {
  return [
    "default-src 'none'",
    `script-src ${page.scriptHash}`,
    `style-src ${page.styleHash}`,
    "connect-src *",
    "img-src data: blob: http: https:",
    // MCP App views: only the sandbox proxy's origin may be framed.
    `frame-src ${sandboxOrigin ?? "'none'"}`,
    embeddable ? "frame-ancestors 'self'" : "frame-ancestors 'none'",
    "base-uri 'none'",
    "form-action 'none'",
  ].join("; ");
}

/**
 * The origin MCP App views are framed from: another origin than the page's that reaches this same
 * handler, as the MCP Apps spec requires of a web host. `appSandboxOrigin` when given; on loopback
 * the other name of this machine (localhost and 127.0.0.1 swapped, same port); otherwise none (no views).
 */
export function sandboxOriginOf(options: McpInspectorOptions, url: URL): string | undefined {
  if (options.appSandboxOrigin) return new URL(options.appSandboxOrigin).origin;
  const swapped = ({ localhost: "127.0.0.1", "127.0.0.1": "localhost" } as Record<string, string>)[url.hostname];
  return swapped ? `${url.protocol}//${swapped}${url.port ? `:${url.port}` : ""}` : undefined;
}

/** The sandbox proxy's page, under the CSP the view declared (`?csp=`, the JSON of its `_meta.ui.csp`). */
function sandboxAnswer(page: InspectorPage, url: URL, head: boolean): Response {
  return new Response(head ? null : page.sandboxHtml, {
    status: 200,
    headers: {
      "content-type": "text/html; charset=utf-8",
      "content-security-policy": viewCspHeader(parseViewCsp(url.searchParams.get("csp"))),
      "cache-control": "no-store",
      "x-content-type-options": "nosniff",
    },
  });
}

/** Serves the page to `request`, or refuses it. `load` imports the built page module. */
export async function answerInspector(
  options: McpInspectorOptions,
  request: InspectorRequest,
  load: () => Promise<InspectorPage>,
): Promise<Response> {
  if (!mayServe(options.enabled ?? "loopback", request)) {
    return new Response("Not Found", { status: 404, headers: { "content-type": "text/plain; charset=utf-8" } });
  }
  if (request.method !== "GET" && request.method !== "HEAD") {
    return new Response("Method Not Allowed", { status: 405, headers: { allow: "GET, HEAD" } });
  }
  const page = await load();
  const url = new URL(request.url);
  if (url.searchParams.has(SANDBOX_QUERY)) return sandboxAnswer(page, url, request.method === "HEAD");
  const sandboxOrigin = sandboxOriginOf(options, url);
  const config = { endpoint: options.endpoint ?? "/mcp", auth: options.auth === true, sandboxOrigin };
  const html = page.html.replace(CONFIG_SLOT, () => inertJson(config));
  return new Response(request.method === "HEAD" ? null : html, {
    status: 200,
    headers: {
      "content-type": "text/html; charset=utf-8",
      "content-security-policy": policyOf(page, options.embeddable === true, sandboxOrigin),
      "cache-control": "no-store",
      "x-content-type-options": "nosniff",
      "referrer-policy": "no-referrer",
    },
  });
}
