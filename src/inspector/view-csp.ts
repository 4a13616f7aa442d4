/**
 * The Content-Security-Policy a web host puts on the sandbox that shows an MCP App view, built from the
 * view's `_meta.ui.csp` the way the MCP Apps spec describes: the declared origins and nothing else, the
 * spec's restrictive default for what is not declared, never `'unsafe-eval'`. An entry that is not a
 * plain origin (a quote, a `;`, a space: an attempt to add a keyword or a directive) is dropped.
 */
import { isCspOrigin } from "../protocol/csp-source.ts";
import type { ViewCsp } from "../types/inspector.ts";

/** The entries that are origins (the check `defineMcpApp` makes of them); the rest is dropped. */
function origins(value: unknown): string[] {
  return Array.isArray(value) ? value.filter(isCspOrigin) : [];
}

/**
 * The CSP of a view, from its declared origins: the sandbox proxy puts it in front of the view's HTML.
 *
 * @example
 * viewCspHeader({ connectDomains: ["https://api.example.com"] });
 * // "default-src 'none'; script-src 'self' 'unsafe-inline'; … connect-src https://api.example.com; …"
 */
export function viewCspHeader(csp: ViewCsp | null | undefined): string {
  const resource = origins(csp?.resourceDomains);
  const connect = origins(csp?.connectDomains);
  const frame = origins(csp?.frameDomains);
  const baseUri = origins(csp?.baseUriDomains);
  const list = (first: string[], rest: string[]): string => [...first, ...rest].join(" ");
  return [
    "default-src 'none'",
    `script-src ${list(["'self'", "'unsafe-inline'"], resource)}`,
    `style-src ${list(["'self'", "'unsafe-inline'"], resource)}`,
    `img-src ${list(["'self'", "data:"], resource)}`,
    `font-src ${list(["'self'", "data:"], resource)}`,
    `media-src ${list(["'self'", "data:"], resource)}`,
    `connect-src ${connect.length > 0 ? connect.join(" ") : "'none'"}`,
    `frame-src ${frame.length > 0 ? frame.join(" ") : "'none'"}`,
    `base-uri ${baseUri.length > 0 ? baseUri.join(" ") : "'self'"}`,
    "object-src 'none'",
  ].join("; ");
}
