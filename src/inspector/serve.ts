/**
 * The inspector page's answer: the page module (built at package build time, loaded on the first
 * request so importing the entry stays cheap) with the handler's configuration put in, or a plain
 * 404 when the access rule refuses the request.
 */
import { mayServe, type AccessView } from "./access.ts";
import { sandboxHostFor, sandboxOriginFor, type ResolvedInspectorOptions } from "./options.ts";
import { appSandboxPage } from "./sandbox-page.ts";

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
  /** The MCP App sandbox proxy's page, with its configuration slot (src/inspector/sandbox-page.ts). */
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

/** The sandbox proxy's page as the host page at `hostOrigin` frames it (src/inspector/sandbox-page.ts). */
function sandboxAnswer(page: InspectorPage, hostOrigin: string, head: boolean): Response {
  const sandbox = appSandboxPage(page.sandboxHtml, hostOrigin);
  return new Response(head ? null : sandbox.html, { status: 200, headers: sandbox.headers });
}

function notFound(): Response {
  return new Response("Not Found", { status: 404, headers: { "content-type": "text/plain; charset=utf-8" } });
}

/** Serves the page to `request`, or refuses it. `load` imports the built page module. */
export async function answerInspector(
  options: ResolvedInspectorOptions,
  request: InspectorRequest,
  load: () => Promise<InspectorPage>,
): Promise<Response> {
  if (!mayServe(options.enabled, request)) return notFound();
  if (request.method !== "GET" && request.method !== "HEAD") {
    return new Response("Method Not Allowed", { status: 405, headers: { allow: "GET, HEAD" } });
  }
  const url = new URL(request.url);
  const head = request.method === "HEAD";
  if (url.searchParams.has(SANDBOX_QUERY)) {
    // Served only where views are framed from, and only to the page that frames them.
    const hostOrigin = sandboxHostFor(options, url);
    return hostOrigin ? sandboxAnswer(await load(), hostOrigin, head) : notFound();
  }
  // The sandbox's host serves nothing else: no page may share the views' origin.
  if (options.deployed?.host === url.host) return notFound();
  const page = await load();
  const sandboxOrigin = sandboxOriginFor(options, url);
  const config = { endpoint: options.endpoint, auth: options.auth, sandboxOrigin };
  const html = page.html.replace(CONFIG_SLOT, () => inertJson(config));
  return new Response(head ? null : html, {
    status: 200,
    headers: {
      "content-type": "text/html; charset=utf-8",
      "content-security-policy": policyOf(page, options.embeddable, sandboxOrigin),
      "cache-control": "no-store",
      "x-content-type-options": "nosniff",
      "referrer-policy": "no-referrer",
    },
  });
}
