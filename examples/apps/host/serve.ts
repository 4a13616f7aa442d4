/**
 * How a server answers for the minimal host's two pages (examples/apps/server.ts, the playground's /apps routes).
 * Both are meant for loopback: the host page on one of the machine's names, its sandbox on the other.
 * - The host page: no other site may frame it (it holds a connected MCP client and calls tools).
 * - The sandbox proxy: served only on a loopback name, framed only by the host page on the other name, in an
 *   opaque origin (`appSandboxPage` of mcp-h3/inspector), so a view never runs in the origin of /mcp.
 */
import { appSandboxPage, loopbackTwinOrigin, type AppSandboxPage } from "mcp-h3/inspector";

/** The host page with headers that refuse framing by any page. */
export function hostPage(html: string): AppSandboxPage {
  return {
    html,
    headers: {
      "content-type": "text/html; charset=utf-8",
      "content-security-policy": "frame-ancestors 'none'",
      "x-frame-options": "DENY",
      "cache-control": "no-store",
    },
  };
}

/** The sandbox proxy page for a request to `url`, or undefined when `url` is not on a loopback name (a 404). */
export function sandboxPage(html: string, url: string | URL): AppSandboxPage | undefined {
  const hostOrigin = loopbackTwinOrigin(url);
  return hostOrigin ? appSandboxPage(html, hostOrigin) : undefined;
}
