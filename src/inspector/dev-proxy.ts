/**
 * The dev server's word for a request it forwards (issue 33). Under `nuxi dev` and `nitro dev` a request reaches the
 * app through the dev server's proxy: the app sees X-Forwarded-* headers and no peer address (the proxy talks to it
 * over a local socket), so the loopback rule refuses everyone. The Nitro module, in dev only, checks the loopback
 * rule on the dev server itself, whose socket is the visitor's, and says that it held in {@link DEV_PROXY_HEADER},
 * with a random token written into the dev build alone. A client cannot forge that word: the dev server drops the
 * header from every request before it checks, and no one else knows the token (a production build has none, so
 * there the header is ignored).
 */

/** The header the dev server sets, to the token, on a request that passed the loopback rule where it arrived. */
export const DEV_PROXY_HEADER = "x-mcp-h3-dev-proxy";

/** The global (`Symbol.for`) the dev build's Nitro plugin sets to the token (src/nitro-dev-proxy.ts). */
export const DEV_PROXY_TOKEN_KEY = "mcp-h3.dev-proxy-token";

/** True when `value` is the dev build's token: the dev server checked this request on its own socket. */
export function vouchedByDevProxy(value: string | null): boolean {
  const token = (globalThis as Record<symbol, unknown>)[Symbol.for(DEV_PROXY_TOKEN_KEY)];
  if (typeof token !== "string" || token.length < 32 || value === null || value.length !== token.length) return false;
  // Compared in constant time: the answer must not tell how much of a guess was right.
  let differ = 0;
  for (let index = 0; index < token.length; index++) differ |= token.charCodeAt(index) ^ value.charCodeAt(index);
  return differ === 0;
}
