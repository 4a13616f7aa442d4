/**
 * How a server answers for the sandbox proxy page of an MCP Apps web host (the inspector's, or a host of your
 * own built on inspector/sandbox-proxy.ts). What makes it safe is all here, decided by the server, never by the
 * URL or by whoever frames the page:
 * - the page runs in an opaque origin (CSP `sandbox` without `allow-same-origin`), so neither the proxy nor a
 *   view it shows ever runs in the origin that serves it, which on loopback is the origin of `/mcp` too;
 * - only the host page's origin may frame it (`frame-ancestors`), and the proxy talks only to that origin
 *   (written into the page for it, not read from `document.referrer`);
 * - its policy is the widest a view may be granted; the proxy narrows each view to what that view declared
 *   (`viewCspHeader`, as a `<meta>` policy placed before the view's HTML, which can only tighten it).
 */

/** Where the server writes the proxy's configuration: the text of `<script type="application/json" id="mcp-app-sandbox-config">`. */
export const SANDBOX_CONFIG_SLOT = "__MCP_APP_SANDBOX_CONFIG__";

/** The flags a view's frame may have: never `allow-same-origin`, never top navigation. */
export const VIEW_SANDBOX_FLAGS = ["allow-scripts", "allow-forms", "allow-popups", "allow-modals"] as const;

/** What the proxy page is told by the server. */
export interface AppSandboxConfig {
  /** The only origin the proxy answers and posts to: the host page that frames it. */
  hostOrigin: string;
}

/** A sandbox proxy page ready to send: its HTML with the configuration put in, and its headers. */
export interface AppSandboxPage {
  html: string;
  headers: Record<string, string>;
}

/**
 * The proxy page's policy. Every source a view can declare is allowed here (http, https, ws, wss, `data:`,
 * inline script); the `<meta>` policy the proxy puts in front of each view narrows it to what that view declared.
 */
export function appSandboxPolicy(hostOrigin: string): string {
  const remote = "http: https:";
  return [
    "default-src 'none'",
    `script-src 'self' 'unsafe-inline' ${remote}`,
    `style-src 'self' 'unsafe-inline' ${remote}`,
    `img-src 'self' data: ${remote}`,
    `font-src 'self' data: ${remote}`,
    `media-src 'self' data: ${remote}`,
    `connect-src ${remote} ws: wss:`,
    `frame-src ${remote}`,
    `base-uri 'self' ${remote}`,
    "object-src 'none'",
    `frame-ancestors ${hostOrigin}`,
    `sandbox ${VIEW_SANDBOX_FLAGS.join(" ")}`,
  ].join("; ");
}

/**
 * The sandbox proxy page `html` (one built from inspector/sandbox.html, holding {@link SANDBOX_CONFIG_SLOT}) as
 * the page at `hostOrigin` frames it.
 *
 * @example
 * // h3 v2: the sandbox of a host page served on http://localhost:3000, framed from http://127.0.0.1:3000
 * app.get("/sandbox", () => {
 *   const page = appSandboxPage(sandboxHtml, "http://localhost:3000");
 *   return new Response(page.html, { headers: page.headers });
 * });
 */
export function appSandboxPage(html: string, hostOrigin: string): AppSandboxPage {
  const origin = new URL(hostOrigin).origin;
  if (!html.includes(SANDBOX_CONFIG_SLOT)) throw new TypeError("the sandbox page has no configuration slot");
  const config: AppSandboxConfig = { hostOrigin: origin };
  return {
    // An origin holds no `<`, so the JSON cannot end its element early.
    html: html.replace(SANDBOX_CONFIG_SLOT, () => JSON.stringify(config)),
    headers: {
      "content-type": "text/html; charset=utf-8",
      "content-security-policy": appSandboxPolicy(origin),
      "cache-control": "no-store",
      "x-content-type-options": "nosniff",
      "referrer-policy": "no-referrer",
    },
  };
}

/**
 * The same port on the machine's other loopback name (`localhost` ↔ `127.0.0.1`), or undefined for any other
 * host: on loopback, a host page and its sandbox need two origins that reach one server.
 *
 * @example
 * loopbackTwinOrigin("http://localhost:3000/inspector"); // "http://127.0.0.1:3000"
 */
export function loopbackTwinOrigin(url: string | URL): string | undefined {
  const parsed = new URL(url);
  const twin = ({ localhost: "127.0.0.1", "127.0.0.1": "localhost" } as Record<string, string>)[parsed.hostname];
  return twin ? `${parsed.protocol}//${twin}${parsed.port ? `:${parsed.port}` : ""}` : undefined;
}
