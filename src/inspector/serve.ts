/**
 * The inspector page's answer: the page module (built at package build time, loaded on the first
 * request so importing the entry stays cheap) with the handler's configuration put in, or a plain
 * 404 when the access rule refuses the request.
 */
import type { McpInspectorOptions } from "../types/inspector.ts";
import { mayServe, type AccessView } from "./access.ts";

export interface InspectorRequest extends AccessView {
  method: string;
}

/** What the built page module holds (see scripts/build-inspector.mjs). */
export interface InspectorPage {
  html: string;
  /** CSP sources (`'sha256-…'`) of the page's one inline script and one inline style. */
  scriptHash: string;
  styleHash: string;
}

const CONFIG_SLOT = "__MCP_INSPECTOR_CONFIG__";

/** JSON safe inside a `<script type="application/json">`: no `<` can end the element early. */
function inertJson(value: unknown): string {
  return JSON.stringify(value).replace(/</g, "\\u003c");
}

/**
 * The page's CSP: only its own inline script and style run; it connects to any endpoint the user
 * names (the endpoint's CORS and Origin checks decide); no one may frame it.
 */
function policyOf(page: InspectorPage, embeddable: boolean): string {
  return [
    "default-src 'none'",
    `script-src ${page.scriptHash}`,
    `style-src ${page.styleHash}`,
    "connect-src *",
    "img-src data: blob: http: https:",
    embeddable ? "frame-ancestors 'self'" : "frame-ancestors 'none'",
    "base-uri 'none'",
    "form-action 'none'",
  ].join("; ");
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
  const config = { endpoint: options.endpoint ?? "/mcp", auth: options.auth === true };
  const html = page.html.replace(CONFIG_SLOT, () => inertJson(config));
  return new Response(request.method === "HEAD" ? null : html, {
    status: 200,
    headers: {
      "content-type": "text/html; charset=utf-8",
      "content-security-policy": policyOf(page, options.embeddable === true),
      "cache-control": "no-store",
      "x-content-type-options": "nosniff",
      "referrer-policy": "no-referrer",
    },
  });
}
