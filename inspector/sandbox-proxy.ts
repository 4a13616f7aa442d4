/**
 * The sandbox proxy of an MCP Apps web host (browser code): the page the inspector (and the minimal host
 * of examples/apps/host) frames on ANOTHER origin, as the MCP Apps spec requires of a web host. It announces itself
 * with `ui/notifications/sandbox-proxy-ready`, loads the view's HTML from `ui/notifications/sandbox-resource-ready`
 * into an inner frame (`srcdoc`), and relays every other message both ways, checking where each comes from.
 *
 * It trusts only what the server wrote into it (src/inspector/sandbox-page.ts): the host's origin, the one page it
 * answers and posts to. The server also serves it in an opaque origin and lets only that host frame it. What the
 * host sends is narrowed here: the view's frame never gets `allow-same-origin` (nor any flag outside
 * `VIEW_SANDBOX_FLAGS`), and the view runs under the CSP its `_meta.ui.csp` declared, as a `<meta>` policy placed
 * before its HTML (a page's policies only add up: the view cannot loosen it).
 */
import { VIEW_SANDBOX_FLAGS, type AppSandboxConfig } from "../src/inspector/sandbox-page.ts";
import { viewCspHeader } from "../src/inspector/view-csp.ts";
import type { ViewCsp } from "../src/types/inspector.ts";

interface Message {
  method?: string;
  params?: { html?: unknown; sandbox?: unknown; csp?: unknown };
}

/** The configuration the server wrote into this page, or undefined when there is none. */
function readConfig(): AppSandboxConfig | undefined {
  try {
    const config = JSON.parse(document.getElementById("mcp-app-sandbox-config")?.textContent ?? "") as unknown;
    const hostOrigin = (config as Partial<AppSandboxConfig> | null)?.hostOrigin;
    return typeof hostOrigin === "string" ? { hostOrigin } : undefined;
  } catch {
    return undefined;
  }
}

/** The host's flags that a view may have; the rest (allow-same-origin first) are dropped. */
export function viewSandboxFlags(requested: unknown): string {
  const allowed = new Set<string>(VIEW_SANDBOX_FLAGS);
  const words = typeof requested === "string" ? requested.split(/\s+/).filter((word) => allowed.has(word)) : [];
  return [...new Set(["allow-scripts", ...words])].join(" ");
}

/** `&`, `"`, `<` and `>` as entities, for an attribute value. */
function escapeAttribute(text: string): string {
  return text.replace(/[&"<>]/g, (character) => `&#${character.charCodeAt(0)};`);
}

/** The view's document: its declared CSP first, then its HTML. */
export function viewDocument(html: string, csp: unknown): string {
  const declared = csp !== null && typeof csp === "object" && !Array.isArray(csp) ? (csp as ViewCsp) : null;
  const policy = escapeAttribute(viewCspHeader(declared));
  return `<meta http-equiv="Content-Security-Policy" content="${policy}">${html}`;
}

/** Runs the proxy in this page: refuses to run unless framed, and configured by the server. */
export function startSandboxProxy(): void {
  const config = readConfig();
  if (window.self === window.top || !config) {
    throw new Error("the sandbox proxy runs only in a frame of the host page its server names");
  }
  const { hostOrigin } = config;

  const inner = document.createElement("iframe");
  inner.title = "MCP App view";
  inner.style.cssText = "width: 100%; height: 100%; border: 0;";
  // The view gets an opaque origin, not this page's: no allow-same-origin, whatever the host asks.
  inner.setAttribute("sandbox", viewSandboxFlags(""));
  document.body.append(inner);

  window.addEventListener("message", (event: MessageEvent<Message>) => {
    if (event.source === window.parent) {
      if (event.origin !== hostOrigin) return;
      const { method, params } = event.data ?? {};
      if (method === "ui/notifications/sandbox-resource-ready") {
        inner.setAttribute("sandbox", viewSandboxFlags(params?.sandbox));
        if (typeof params?.html === "string") inner.srcdoc = viewDocument(params.html, params.csp);
        return;
      }
      // Nothing else of the sandbox's own is relayed (the spec reserves ui/notifications/sandbox-*).
      if (typeof method === "string" && method.startsWith("ui/notifications/sandbox-")) return;
      // "*": the view's frame has an opaque origin, which no target names.
      inner.contentWindow?.postMessage(event.data, "*");
    } else if (event.source === inner.contentWindow && inner.contentWindow) {
      window.parent.postMessage(event.data, hostOrigin);
    }
  });

  window.parent.postMessage({ jsonrpc: "2.0", method: "ui/notifications/sandbox-proxy-ready", params: {} }, hostOrigin);
}
