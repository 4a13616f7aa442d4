/**
 * The `rateLimit` hook: asked once per request, after the auth gate (so it knows the principal) and
 * before anything else; a refusal is answered 429 with `Retry-After`. Pair it with
 * `createTokenBucket`, keyed by the principal, or by the client's address when auth is off.
 */
import type { H3Event } from "h3";
import { jsonReply, type Reply } from "../http/reply.ts";
import { failure } from "../protocol/jsonrpc.ts";
import { CONNECTION_CLOSED, RATE_LIMITED } from "../protocol/errors.ts";
import type { RateLimitDecision } from "../types/auth.ts";

/** The `rateLimit` option: may this request go on? */
export type RateLimitHook = (
  event: H3Event,
  principal: string | undefined,
) => RateLimitDecision | Promise<RateLimitDecision>;

/** The longest wait a 429 advises: a hook's larger (or nonsensical) figure is capped. */
const MAX_RETRY_AFTER_SECONDS = 3600;

/**
 * 429 with `Retry-After` (whole seconds, at least 1), and a JSON-RPC error body (id null): by
 * default `-32000` with `retryAfterSeconds`; `standard` (the `experimental.rateLimitErrors`
 * option), SEP-3304's draft `-32023` "RateLimited" with `retryAfterMs`, which a client reads
 * without the HTTP header (stdio, a proxy that drops it).
 */
export function rateLimitedReply(retryAfterSeconds: number, standard = false): Reply {
  const seconds = Number.isFinite(retryAfterSeconds)
    ? Math.min(MAX_RETRY_AFTER_SECONDS, Math.max(1, Math.ceil(retryAfterSeconds)))
    : 1;
  const message = `Too many requests: try again in ${seconds} s`;
  const error = standard
    ? failure(null, RATE_LIMITED, message, { retryAfterMs: seconds * 1000 })
    : failure(null, CONNECTION_CLOSED, message, { retryAfterSeconds: seconds });
  return jsonReply(429, error, { "retry-after": String(seconds) });
}

/**
 * The 429 answering a refused request, or undefined when it may go on. A hook that throws lets the
 * request through (reported to `onFailure`): a broken limiter must not take the server down with it.
 */
export async function checkRateLimit(
  hook: RateLimitHook,
  event: H3Event,
  principal: string | undefined,
  how: { onFailure: (error: unknown) => void; standard: boolean },
): Promise<Reply | undefined> {
  let decision: RateLimitDecision;
  try {
    decision = await hook(event, principal);
  } catch (error) {
    how.onFailure(error);
    return undefined;
  }
  return decision?.ok === false ? rateLimitedReply(decision.retryAfterSeconds, how.standard) : undefined;
}
