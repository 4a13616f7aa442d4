/**
 * The types of the auth helpers that stand beside the handler: RFC 9728 protected-resource
 * metadata (`defineProtectedResourceMetadata`), the handler object it returns, and the token bucket
 * (`createTokenBucket`) for the `rateLimit` option.
 */
import type { H3Event } from "h3";

/**
 * An H3 event handler (h3 v1 and v2, Nitro and Nuxt routes) that is also a fetch handler.
 *
 * @example
 * const metadata: WebEventHandler = defineProtectedResourceMetadata({ authorizationServers: ["https://auth.example.com"] });
 * app.get("/.well-known/oauth-protected-resource/**", metadata); // h3; or metadata.fetch(request) elsewhere
 */
export interface WebEventHandler {
  (event: H3Event): Response;
  /** h3 v1 marks handlers with this flag; set so that no implicit conversion happens. */
  readonly __is_handler__: true;
  /** Serves a Web `Request` without h3 (Workers, Deno, Bun, or a fetch-based router). */
  fetch(request: Request): Response;
}

/**
 * Options of `defineProtectedResourceMetadata`.
 *
 * @example
 * const options: ProtectedResourceMetadataOptions = {
 *   authorizationServers: ["https://auth.example.com"],
 *   resource: "https://mcp.example.com/mcp",
 *   scopesSupported: ["notes:read"],
 * };
 */
export interface ProtectedResourceMetadataOptions {
  /** Issuer URLs of the authorization servers that grant tokens for this server (at least one; MCP requires it). */
  authorizationServers: string[];
  /**
   * The protected resource's identifier, i.e. the MCP endpoint's canonical URL (`https://mcp.example.com/mcp`);
   * it must equal the audience your tokens are issued for. Without it, the request's origin joined with
   * `resourcePath` is used, which trusts the request's Host: set `resource` in production.
   */
  resource?: string;
  /** Path of the MCP endpoint, joined to the request's origin when `resource` is not set (default `/mcp`). */
  resourcePath?: string;
  /** `scopes_supported`: the scopes a client may ask for (MCP: leave out `offline_access`). */
  scopesSupported?: string[];
  /** `resource_documentation`: a page for developers. */
  resourceDocumentation?: string;
  /** `resource_name`: a name to show to people. */
  resourceName?: string;
  /** `Cache-Control: max-age` of the document, in seconds (default 3600). */
  maxAgeSeconds?: number;
}

/** The metadata document this handler serves (RFC 9728 §2). */
export interface ProtectedResourceMetadata {
  resource: string;
  authorization_servers: string[];
  bearer_methods_supported: ["header"];
  scopes_supported?: string[];
  resource_documentation?: string;
  resource_name?: string;
}

/**
 * Options of `createTokenBucket`.
 *
 * @example
 * // 20 requests at once, then 5 a second, for up to 10,000 keys.
 * const options: TokenBucketOptions = { capacity: 20, refillPerSecond: 5, maxKeys: 10_000 };
 */
export interface TokenBucketOptions {
  /** Most tokens a bucket holds: the burst a key may send at once. A new key starts full. */
  capacity: number;
  /** Tokens added to each bucket per second, up to `capacity`: the sustained rate. */
  refillPerSecond: number;
  /**
   * Most keys tracked at once; past it the least recently used bucket is dropped (that key starts full
   * again when it returns). Keep it above the number of keys active within `capacity / refillPerSecond`
   * seconds, or a flood of new keys can refill the buckets of the busy ones.
   */
  maxKeys: number;
  /** The clock in milliseconds (default `Date.now`); pass a fake one in tests. Read on each `take`, never before. */
  now?: () => number;
}

/** The answer of {@link TokenBucket.take}. */
export type TokenBucketResult = { ok: true } | { ok: false; retryAfterSeconds: number };

/** A keyed token-bucket limiter; see `createTokenBucket`. */
export interface TokenBucket {
  /**
   * Takes `cost` tokens (default 1) from `key`'s bucket: `{ ok: true }` when it had them, else
   * `{ ok: false, retryAfterSeconds }` (a whole number ≥ 1, for a `Retry-After` header) and nothing is taken.
   */
  take(key: string, cost?: number): TokenBucketResult;
  /** Forgets `key`'s bucket (it starts full next time). */
  reset(key: string): void;
  /** How many keys are tracked now (at most `maxKeys`). */
  readonly size: number;
}
