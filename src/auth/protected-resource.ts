/**
 * RFC 9728 protected-resource metadata: the public JSON document through which an MCP client finds the
 * authorization server(s) of this MCP server, at `/.well-known/oauth-protected-resource[/<mcp path>]`.
 */
import { nonNegativeOption } from "../protocol/positive-option.ts";
import type {
  ProtectedResourceMetadata,
  ProtectedResourceMetadataOptions,
  WebEventHandler,
} from "../types/auth-helpers.ts";
import { defineWebEventHandler, type RequestLine } from "./web-event-handler.ts";

/** The well-known path prefix RFC 9728 registers. */
export const PROTECTED_RESOURCE_WELL_KNOWN = "/.well-known/oauth-protected-resource";

const ALLOWED_METHODS = "GET, HEAD, OPTIONS";

function absoluteUrl(value: string, what: string): string {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    throw new TypeError(`${what} must be an absolute URL, got ${JSON.stringify(value)}`);
  }
  if (url.hash !== "" || value.includes("#")) throw new TypeError(`${what} must not have a fragment`);
  return value;
}

function checkedOptions(options: ProtectedResourceMetadataOptions): void {
  const servers = options.authorizationServers;
  if (!Array.isArray(servers) || servers.length === 0) {
    throw new TypeError("authorizationServers must list at least one authorization server");
  }
  for (const server of servers) absoluteUrl(server, "each of authorizationServers");
  if (options.resource !== undefined) absoluteUrl(options.resource, "resource");
  if (options.resourcePath !== undefined && !options.resourcePath.startsWith("/")) {
    throw new TypeError(`resourcePath must start with "/", got ${JSON.stringify(options.resourcePath)}`);
  }
  if (options.resourceDocumentation !== undefined) absoluteUrl(options.resourceDocumentation, "resourceDocumentation");
  nonNegativeOption("mcp-h3: defineProtectedResourceMetadata: maxAgeSeconds", options.maxAgeSeconds, {
    fallback: 3600,
  });
}

/** The document for `resource`, as `JSON.stringify` would write it, in RFC 9728's member order. */
function metadataJson(options: ProtectedResourceMetadataOptions, resource: string): string {
  const document: ProtectedResourceMetadata = {
    resource,
    authorization_servers: [...options.authorizationServers],
    bearer_methods_supported: ["header"],
  };
  if (options.scopesSupported) document.scopes_supported = [...options.scopesSupported];
  if (options.resourceDocumentation) document.resource_documentation = options.resourceDocumentation;
  if (options.resourceName) document.resource_name = options.resourceName;
  return JSON.stringify(document);
}

/**
 * Serves RFC 9728 protected-resource metadata as an H3 event handler (h3 v1 and v2, Nitro and Nuxt routes) and
 * as `.fetch(request)`. GET and HEAD get the JSON document and OPTIONS a CORS preflight answer, both with
 * `Access-Control-Allow-Origin: *` (the document is public, and browser-based MCP clients read it); any other
 * method gets 405. Mount it at `/.well-known/oauth-protected-resource` plus the MCP endpoint's path (clients try
 * that first), or at the bare well-known path; put the same URL in the `auth` option's `resourceMetadataUrl`.
 *
 * @example
 * // server/routes/.well-known/oauth-protected-resource/mcp.ts (Nitro / Nuxt)
 * import { defineProtectedResourceMetadata } from "mcp-h3";
 * export default defineProtectedResourceMetadata({
 *   resource: "https://mcp.example.com/mcp",
 *   authorizationServers: ["https://auth.example.com"],
 *   scopesSupported: ["files:read", "files:write"],
 * });
 */
export function defineProtectedResourceMetadata(options: ProtectedResourceMetadataOptions): WebEventHandler {
  checkedOptions(options);
  const path = options.resourcePath ?? "/mcp";
  // With a configured resource the document never changes: written once here, not per request.
  const fixed = options.resource === undefined ? undefined : metadataJson(options, options.resource);
  const headers = {
    "access-control-allow-origin": "*",
    "content-type": "application/json",
    "cache-control": `public, max-age=${options.maxAgeSeconds ?? 3600}`,
  };
  return defineWebEventHandler(({ method, url }: RequestLine): Response => {
    if (method === "OPTIONS") return preflight();
    if (method !== "GET" && method !== "HEAD") {
      return new Response(null, {
        status: 405,
        headers: { allow: ALLOWED_METHODS, "access-control-allow-origin": "*" },
      });
    }
    let body = fixed;
    if (body === undefined) {
      if (url === undefined) return new Response("Bad Request: no usable Host", { status: 400 });
      body = metadataJson(options, url.origin + path);
    }
    return new Response(method === "HEAD" ? null : body, { status: 200, headers });
  });
}

/** A CORS preflight answer: any origin, the read methods, any request header (browser clients add MCP's own). */
function preflight(): Response {
  return new Response(null, {
    status: 204,
    headers: {
      "access-control-allow-origin": "*",
      "access-control-allow-methods": ALLOWED_METHODS,
      "access-control-allow-headers": "*",
      "access-control-max-age": "86400",
    },
  });
}

/**
 * The path-inserted well-known URL of `resource`'s metadata (RFC 9728 §3.1): `https://mcp.example.com/mcp` gives
 * `https://mcp.example.com/.well-known/oauth-protected-resource/mcp`. Use it for the `auth` option's
 * `resourceMetadataUrl` and for the route the metadata handler is mounted at.
 *
 * @example
 * import { protectedResourceMetadataUrl } from "mcp-h3";
 * protectedResourceMetadataUrl("https://mcp.example.com/mcp");
 * // → "https://mcp.example.com/.well-known/oauth-protected-resource/mcp"
 */
export function protectedResourceMetadataUrl(resource: string): string {
  const url = new URL(absoluteUrl(resource, "resource"));
  const path = url.pathname === "/" ? "" : url.pathname.replace(/\/$/, "");
  return `${url.origin}${PROTECTED_RESOURCE_WELL_KNOWN}${path}${url.search}`;
}
