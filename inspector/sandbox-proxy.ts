/**
 * The sandbox proxy of an MCP Apps web host (browser code): the page the inspector (and the minimal host
 * of examples/apps/host) frames on ANOTHER origin, as the MCP Apps spec requires of a web host. It announces itself with
 * `ui/notifications/sandbox-proxy-ready`, loads the view's HTML from `ui/notifications/sandbox-resource-ready`
 * into an inner frame (`srcdoc`, so the view inherits this page's CSP, which the server built from the
 * view's `_meta.ui.csp` with `viewCspHeader`, src/inspector/view-csp.ts), and relays every other message both ways, checking where each comes from.
 */
interface Message {
  method?: string;
  params?: { html?: unknown; sandbox?: unknown };
}

/** Runs the proxy in this page: refuses to run unless framed by a page of another origin. */
export function startSandboxProxy(): void {
  const hostOrigin = document.referrer ? new URL(document.referrer).origin : "";
  if (window.self === window.top || !hostOrigin || hostOrigin === location.origin) {
    throw new Error("the sandbox proxy runs only in a frame of a host on another origin");
  }

  const inner = document.createElement("iframe");
  inner.title = "MCP App view";
  inner.style.cssText = "width: 100%; height: 100%; border: 0;";
  // Scripts only, unless the host asks otherwise: the view gets an opaque origin, not this page's.
  inner.setAttribute("sandbox", "allow-scripts");
  document.body.append(inner);

  window.addEventListener("message", (event: MessageEvent<Message>) => {
    if (event.source === window.parent) {
      if (event.origin !== hostOrigin) return;
      const { method, params } = event.data ?? {};
      if (method === "ui/notifications/sandbox-resource-ready") {
        if (typeof params?.sandbox === "string") inner.setAttribute("sandbox", params.sandbox);
        if (typeof params?.html === "string") inner.srcdoc = params.html;
        return;
      }
      // Nothing else of the sandbox's own is relayed (the spec reserves ui/notifications/sandbox-*).
      if (typeof method === "string" && method.startsWith("ui/notifications/sandbox-")) return;
      // "*": the view's frame has an opaque origin (its sandbox has no allow-same-origin), which no target names.
      inner.contentWindow?.postMessage(event.data, "*");
    } else if (event.source === inner.contentWindow && inner.contentWindow) {
      window.parent.postMessage(event.data, hostOrigin);
    }
  });

  window.parent.postMessage({ jsonrpc: "2.0", method: "ui/notifications/sandbox-proxy-ready", params: {} }, hostOrigin);
}
