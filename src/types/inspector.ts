/** The options of the inspector page (`mcp-h3/inspector`). */

/**
 * Who may load the inspector page:
 * - `"loopback"` (the default): only requests from this machine that no proxy forwarded (see
 *   {@link McpInspectorOptions.enabled}); everyone else gets a plain 404.
 * - `true`: everyone who reaches the route (put it behind your own auth, or use it on a private network).
 * - `false`: nobody (a 404), e.g. `enabled: process.env.NODE_ENV !== "production"`.
 */
export type McpInspectorAccess = "loopback" | boolean;

export interface McpInspectorOptions {
  /**
   * Who may load the page; default `"loopback"`. A request counts as loopback only when all hold:
   * its TCP peer is a loopback address (127.0.0.0/8, ::1, ::ffff:127.x), its `Host` names a loopback
   * host (localhost, 127.x, [::1]), and it carries no forwarding header (`Forwarded`, `X-Forwarded-*`,
   * `X-Real-IP`, `CF-Connecting-IP`, `True-Client-IP`, `Fly-Client-IP`): a reverse proxy or tunnel on
   * the same machine makes every visitor's peer address loopback, and these are what such proxies
   * add. Where the peer address is unknown (a Worker, a fetch handler given none) it is not loopback.
   * The page holds no secret and calls the endpoint as any browser client would: the endpoint's own
   * checks (Origin, auth) still apply to what it sends.
   */
  enabled?: McpInspectorAccess;
  /**
   * The MCP endpoint the page connects to first, a path on the page's origin or a full URL; the
   * user may change it in the page. Default `"/mcp"`.
   */
  endpoint?: string;
  /** Shows the bearer-token field open on load (it is always available). Default `false`. */
  auth?: boolean;
  /**
   * Lets pages of the same origin show the inspector in a frame (`frame-ancestors 'self'`), as the
   * playground's page does; by default no page may frame it (`frame-ancestors 'none'`).
   */
  embeddable?: boolean;
  /**
   * Where the page frames MCP App views from, when it is deployed: an origin other than the page's, with
   * another host name, that reaches this same handler (the MCP Apps spec wants a web host's views in a sandbox
   * on another origin). That host then serves the sandbox proxy and nothing else. Needs {@link pageOrigin}.
   * On loopback, without it, each of the machine's names frames the other (a page on `localhost:3000` frames
   * `127.0.0.1:3000`, and the reverse); elsewhere views are shown only when this is set. The sandbox runs in an
   * opaque origin either way, so a view never runs in the origin of `/mcp`. Checked when the inspector is
   * defined: an http(s) origin (scheme, host, port), e.g. `"https://sandbox.tools.example.com"`.
   */
  appSandboxOrigin?: string;
  /**
   * The origin users open the page at, with {@link appSandboxOrigin}: the only page the sandbox lets frame it,
   * and the only one that shows views. E.g. `"https://tools.example.com"`.
   */
  pageOrigin?: string;
}

/** What the fetch form of the inspector needs to know about the connection besides the request. */
export interface McpInspectorConnection {
  /** The TCP peer's address, when the host knows it (`deno serve`'s `info.remoteAddr.hostname`, Bun's `server.requestIP`). */
  remoteAddress?: string;
}

/**
 * An MCP App view's declared CSP (`_meta.ui.csp` of its `ui://` resource), as `viewCspHeader` reads it:
 * untrusted data, so every member is checked (only plain origins are kept).
 */
export interface ViewCsp {
  connectDomains?: unknown;
  resourceDomains?: unknown;
  frameDomains?: unknown;
  baseUriDomains?: unknown;
}
