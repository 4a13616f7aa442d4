/** Bearer-token authorization: what the `auth` option takes, and the identity a token stands for. */
import type { H3Event } from "h3";

/**
 * Who a bearer token stands for, as `auth.validate` returns it; handlers read a copy of it as
 * `event.context.mcp.auth`, their request's own (changing it changes nothing for any other request,
 * nor what this one is allowed).
 *
 * Checked as untrusted input: a value that is not a plain object, or a field of the wrong type
 * (below), or anything `structuredClone` cannot copy, answers 503 and counts a `callback_failure`.
 *
 * @example
 * const identity: AuthIdentity = { subject: "alice", scopes: ["notes:read"], expiresAt: payload.exp };
 */
export interface AuthIdentity {
  /** The user, a string; becomes `event.context.mcp.principal` when present and not empty. */
  subject?: string;
  /** The scopes the token grants: an array of strings (absent: none). */
  scopes: string[];
  /** A string when present. */
  clientId?: string;
  /**
   * Seconds since the epoch (a JWT's `exp`), a finite number; past it the token counts as expired
   * (401), and streams it opened are closed. Absent: the token does not expire.
   */
  expiresAt?: number;
  /** Anything else the validator wants handlers to see: an object of data `structuredClone` can copy. */
  extra?: Record<string, unknown>;
  /** The raw bearer token, only when {@link AuthOptions.exposeToken} is true. */
  token?: string;
}

/**
 * The `auth` option of `defineMcpHandler`: every request of both eras must carry
 * `Authorization: Bearer <token>` that `validate` accepts.
 *
 * @example
 * import { defineMcpHandler, type AuthOptions } from "mcp-h3";
 *
 * const auth: AuthOptions = {
 *   validate: (token) => (token === "secret" ? { subject: "alice", scopes: ["read"] } : undefined),
 *   resourceMetadataUrl: "https://api.example.com/.well-known/oauth-protected-resource/mcp",
 *   scopes: ["read"],
 * };
 * export default defineMcpHandler({ name: "notes", version: "1.0.0", auth });
 */
export interface AuthOptions {
  /**
   * Checks a bearer token: the identity it stands for, or `undefined` when it is invalid or unknown
   * (401). May be async. Throwing, taking longer than `validateTimeoutMs`, or returning something
   * that is not an {@link AuthIdentity} (a non-object, a `NaN` or string `expiresAt`, scopes that
   * are not strings, a non-string `subject`…) answers 503 and counts a `callback_failure`.
   * A synchronous answer costs no timer. The returned object is checked and copied once and the
   * checked copy reused while the same object comes back: return a new object for a changed
   * identity rather than changing the one you returned. Nothing is ever written into it.
   * It runs on every request, streams excepted: an open stream lasts until the `expiresAt` of the
   * token that opened it, so a revoked token keeps its open streams until then (prefer short-lived
   * tokens when revocation must be quick).
   */
  validate(token: string, event: H3Event): AuthIdentity | undefined | Promise<AuthIdentity | undefined>;
  /** URL of the RFC 9728 protected-resource metadata, put in every challenge as `resource_metadata="…"`. */
  resourceMetadataUrl?: string;
  /** Scopes every request needs (403 `insufficient_scope` without them). */
  scopes?: string[];
  /** The `realm` of the challenges. */
  realm?: string;
  /** How long `validate` may take before the request gets 503 (default 5000 ms). */
  validateTimeoutMs?: number;
  /** Put the raw token on `event.context.mcp.auth.token` (default false). */
  exposeToken?: boolean;
  /**
   * Let `event.context.mcp.notifySession` reach sessions of other principals (default false: only
   * the caller's own sessions).
   */
  crossPrincipalNotify?: boolean;
}

/**
 * What the `rateLimit` option answers for one request: go on, or wait `retryAfterSeconds` (the
 * request gets 429 with `Retry-After`). `createTokenBucket(...).take(key)` answers exactly this.
 */
export type RateLimitDecision = { ok: true } | { ok: false; retryAfterSeconds: number };
