/**
 * Whether a request may load the inspector page: the `enabled` option, and for its default
 * ("loopback") a request that came from this machine without passing through a proxy.
 */
import type { McpInspectorAccess } from "../types/inspector.ts";
import { DEV_PROXY_HEADER, vouchedByDevProxy } from "./dev-proxy.ts";

/**
 * Headers a reverse proxy, load balancer or tunnel adds. Seen on a request from a loopback peer, they
 * say the real visitor is elsewhere (a proxy on the same machine makes every peer address loopback).
 */
const FORWARDING_HEADERS = [
  "forwarded",
  "x-forwarded-for",
  "x-forwarded-host",
  "x-forwarded-proto",
  "x-real-ip",
  "cf-connecting-ip",
  "true-client-ip",
  "fly-client-ip",
];

/** 127.0.0.0/8, ::1 and their IPv4-mapped forms (`::ffff:127.0.0.1`). */
export function isLoopbackAddress(address: string | undefined): boolean {
  if (!address) return false;
  const bare = address.toLowerCase().replace(/^\[|\]$/g, "");
  if (bare === "::1" || bare === "0:0:0:0:0:0:0:1") return true;
  const v4 = bare.startsWith("::ffff:") ? bare.slice("::ffff:".length) : bare;
  return /^127\.\d{1,3}\.\d{1,3}\.\d{1,3}$/.test(v4);
}

/** A `Host` header naming this machine: localhost, a 127.x address or [::1], with any port. */
export function isLoopbackHost(host: string | null): boolean {
  if (!host) return false;
  const name = host.startsWith("[") ? host.slice(0, host.indexOf("]") + 1) : host.replace(/:\d+$/, "");
  return name.toLowerCase() === "localhost" || isLoopbackAddress(name);
}

/** The request as the access check sees it. */
export interface AccessView {
  header(name: string): string | null;
  remoteAddress: string | undefined;
}

/** True when `enabled` lets this request load the page. */
export function mayServe(enabled: McpInspectorAccess, request: AccessView): boolean {
  if (enabled === true) return true;
  if (enabled !== "loopback") return false;
  // The Host check first, whoever forwarded the request: it stops a DNS-rebinding page under its own name.
  if (!isLoopbackHost(request.header("host"))) return false;
  // Under a dev server, the rule was checked where the request arrived (the forwarding headers are its proxy's).
  if (vouchedByDevProxy(request.header(DEV_PROXY_HEADER))) return true;
  if (!isLoopbackAddress(request.remoteAddress)) return false;
  return FORWARDING_HEADERS.every((name) => request.header(name) === null);
}
