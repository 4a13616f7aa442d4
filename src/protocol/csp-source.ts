/**
 * What a Content-Security-Policy source expression naming an origin may be, for the origins an MCP
 * App view declares (`_meta.ui.csp`) and a host copies into the CSP of the frame that shows it. The
 * entry is pasted into a header, so anything beyond the origin would change the policy: `;` starts
 * another directive, `,` another policy, a space another source, a quote a keyword
 * (`'unsafe-eval'`). Checked by hand, one pass over the characters: no regular expression to
 * backtrack on whatever a view's metadata holds.
 */

/** The schemes a view may reach: pages, scripts and styles over HTTP(S), sockets over WS(S). */
const SCHEMES = ["https://", "http://", "wss://", "ws://"] as const;

/** Longest entry looked at: a host name is at most 253 characters, with a scheme and a port well under this. */
const MAX_LENGTH = 300;

/** A letter, a digit or `-`: what a label of a host name is made of (CSP's host-char). */
function isHostChar(code: number): boolean {
  return (
    (code >= 0x61 && code <= 0x7a) || // a-z
    (code >= 0x41 && code <= 0x5a) || // A-Z
    (code >= 0x30 && code <= 0x39) || // 0-9
    code === 0x2d // -
  );
}

function isDigit(code: number): boolean {
  return code >= 0x30 && code <= 0x39;
}

/**
 * Whether `value` is an origin as a CSP source expression writes it: scheme `http`, `https`, `ws` or
 * `wss`; `://`; a host name of letters, digits and `-` in dot-separated labels (none empty, none
 * longer than 63 or starting or ending with `-`), which may start with one `*.` label for any
 * subdomain; then optionally `:` and a port from 1 to 65535, or `:*` for any port. Nothing else: no
 * path, query, user, IPv6 literal, keyword, bare `*`, or other scheme. Letters may be of either case
 * (CSP compares them without case). Linear in the length of `value`, which is bounded.
 *
 * @example
 * isCspOrigin("https://*.example.com:8443"); // true
 * isCspOrigin("https://a.example.com;script-src"); // false: `;` would start another directive
 */
export function isCspOrigin(value: unknown): value is string {
  if (typeof value !== "string" || value.length > MAX_LENGTH) return false;
  const lower = value.slice(0, 8).toLowerCase();
  const scheme = SCHEMES.find((prefix) => lower.startsWith(prefix));
  if (scheme === undefined) return false;
  let at = scheme.length;
  if (value.startsWith("*.", at)) at += 2;
  const hostStart = at;
  let labelStart = at;
  // The host: labels up to the port's ":" or the end.
  for (; ; at++) {
    const code = at < value.length ? value.charCodeAt(at) : -1;
    if (code !== -1 && code !== 0x2e && code !== 0x3a) {
      if (!isHostChar(code)) return false;
      continue;
    }
    // A label ends here ("." or the end of the host).
    const length = at - labelStart;
    if (length === 0 || length > 63) return false;
    if (value.charCodeAt(labelStart) === 0x2d || value.charCodeAt(at - 1) === 0x2d) return false;
    if (code !== 0x2e) break;
    labelStart = at + 1;
  }
  if (at - hostStart > 253) return false;
  if (at === value.length) return true;
  // The port: ":*", or 1 to 5 digits naming 1 to 65535.
  const port = value.slice(at + 1);
  if (port === "*") return true;
  if (port.length === 0 || port.length > 5) return false;
  for (let index = 0; index < port.length; index++) if (!isDigit(port.charCodeAt(index))) return false;
  const number = Number(port);
  return number >= 1 && number <= 65_535;
}
