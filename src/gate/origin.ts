/**
 * Origin and Host validation: the DNS-rebinding defence the specification requires (403 on a
 * foreign Origin). By default only loopback origins and hosts are allowed; a deployed server
 * names its own with `allowedOrigins` / `allowedHosts` or the matching environment variables.
 */
import { ErrorCode } from "../protocol/errors.ts";
import { errorReply, type Reply } from "../reply.ts";

const LOOPBACK_HOSTS = ["localhost", "127.0.0.1", "[::1]", "::1"];

/** The host name of a `Host` header value, without port, lower-cased. */
function hostNameOf(host: string): string {
  const value = host.trim().toLowerCase();
  if (value.startsWith("[")) {
    const end = value.indexOf("]");
    return end === -1 ? value : value.slice(0, end + 1);
  }
  const colon = value.indexOf(":");
  return colon === -1 ? value : value.slice(0, colon);
}

function isLoopback(hostName: string): boolean {
  return LOOPBACK_HOSTS.includes(hostName) || hostName.endsWith(".localhost");
}

function hostAllowed(host: string, allowed: readonly string[] | "*"): boolean {
  if (allowed === "*") return true;
  const name = hostNameOf(host);
  if (allowed.length === 0) return isLoopback(name);
  const lower = host.trim().toLowerCase();
  return allowed.some((entry) => entry === lower || entry === name);
}

function originAllowed(origin: string, allowed: readonly string[] | "*"): boolean {
  if (allowed === "*") return true;
  let url: URL;
  try {
    url = new URL(origin);
  } catch {
    return false;
  }
  const name = url.hostname.toLowerCase();
  if (allowed.length === 0) return isLoopback(name);
  const full = url.origin.toLowerCase();
  return allowed.some((entry) => entry === full || entry === name);
}

/**
 * Checks `Origin` (when present) and `Host`. Returns a 403 reply naming the rejected value and
 * the option that would allow it, or undefined when both pass.
 */
export function checkOriginAndHost(
  origin: string | null,
  host: string | null,
  allowedOrigins: readonly string[] | "*",
  allowedHosts: readonly string[] | "*",
): Reply | undefined {
  if (origin !== null && !originAllowed(origin, allowedOrigins)) {
    return errorReply(
      403,
      null,
      ErrorCode.ConnectionClosed,
      `Forbidden: Origin "${origin}" is not allowed. Add it to the allowedOrigins option (or MCP_ALLOWED_ORIGINS).`,
    );
  }
  if (host !== null && !hostAllowed(host, allowedHosts)) {
    return errorReply(
      403,
      null,
      ErrorCode.ConnectionClosed,
      `Forbidden: Host "${host}" is not allowed. Add it to the allowedHosts option (or MCP_ALLOWED_HOSTS).`,
    );
  }
  return undefined;
}
