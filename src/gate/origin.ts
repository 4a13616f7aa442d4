/**
 * Origin and Host validation: the DNS-rebinding defence the specification requires (403 on a
 * foreign Origin). By default only loopback origins and hosts are allowed; a deployed server
 * names its own with `allowedOrigins` / `allowedHosts` or the matching environment variables.
 */
import { CONNECTION_CLOSED } from "../protocol/errors.ts";
import { errorReply, type Reply } from "../http/reply.ts";

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

/** The 403 that names the rejected value and how to allow it. */
function forbidden(header: string, value: string, option: string, variable: string): Reply {
  return errorReply(
    403,
    null,
    CONNECTION_CLOSED,
    `Forbidden: ${header} "${value}" is not allowed. Add it to the ${option} option (or ${variable}).`,
  );
}

/** Most distinct values remembered; a server sees a handful of hosts and origins. */
const REMEMBERED = 64;

function remember(verdicts: Map<string, boolean>, value: string, allowed: boolean): boolean {
  if (verdicts.size >= REMEMBERED) verdicts.clear();
  verdicts.set(value, allowed);
  return allowed;
}

/** The allow-lists; the resolved options hold them as getters that read the environment on first use. */
export interface AllowLists {
  readonly allowedOrigins: readonly string[] | "*";
  readonly allowedHosts: readonly string[] | "*";
}

/**
 * Checks `Origin` (when present) and `Host` against the allow-lists. Verdicts are remembered per
 * value: every request carries the same few, and parsing them again each time showed in profiles.
 */
export class OriginGate {
  #lists: AllowLists;
  #origins = new Map<string, boolean>();
  #hosts = new Map<string, boolean>();

  /** `lists` is read only when a value has no remembered verdict, so inside a request, never at construction. */
  constructor(lists: AllowLists) {
    this.#lists = lists;
  }

  /** A 403 reply naming the rejected value and the option that would allow it, or undefined when both pass. */
  check(origin: string | null, host: string | null): Reply | undefined {
    if (origin !== null) {
      const allowed =
        this.#origins.get(origin) ?? remember(this.#origins, origin, originAllowed(origin, this.#lists.allowedOrigins));
      if (!allowed) return forbidden("Origin", origin, "allowedOrigins", "MCP_ALLOWED_ORIGINS");
    }
    if (host !== null) {
      const allowed = this.#hosts.get(host) ?? remember(this.#hosts, host, hostAllowed(host, this.#lists.allowedHosts));
      if (!allowed) return forbidden("Host", host, "allowedHosts", "MCP_ALLOWED_HOSTS");
    }
    return undefined;
  }
}
