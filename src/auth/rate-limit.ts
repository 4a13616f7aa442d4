/**
 * The `rateLimit` hook: asked once per request, after the auth gate (so it knows the principal) and
 * before anything else; a refusal is answered 429 with `Retry-After`. Pair it with
 * `createTokenBucket`, keyed by the principal, or by the client's address when auth is off.
 */
import type { H3Event } from "h3";
import { jsonReply, type Reply } from "../http/reply.ts";
import { failure } from "../protocol/jsonrpc.ts";
import { CONNECTION_CLOSED } from "../protocol/errors.ts";
import type { RateLimitDecision } from "../types/auth.ts";

/** The `rateLimit` option: may this request go on? */
export type RateLimitHook = (
  event: H3Event,
  principal: string | undefined,
) => RateLimitDecision | Promise<RateLimitDecision>;

/** The longest wait a 429 advises: a hook's larger (or nonsensical) figure is capped. */
const MAX_RETRY_AFTER_SECONDS = 3600;

/** 429 with `Retry-After` (whole seconds, at least 1), and a JSON-RPC error body (id null). */
export function rateLimitedReply(retryAfterSeconds: number): Reply {
  const seconds = Number.isFinite(retryAfterSeconds)
    ? Math.min(MAX_RETRY_AFTER_SECONDS, Math.max(1, Math.ceil(retryAfterSeconds)))
    : 1;
  return jsonReply(
    429,
    failure(null, CONNECTION_CLOSED, `Too many requests: try again in ${seconds} s`, { retryAfterSeconds: seconds }),
    { "retry-after": String(seconds) },
  );
}

/**
 * The 429 answering a refused request, or undefined when it may go on. A hook that throws lets the
 * request through (reported to `onFailure`): a broken limiter must not take the server down with it.
 */
export async function checkRateLimit(
  hook: RateLimitHook,
  event: H3Event,
  principal: string | undefined,
  onFailure: (error: unknown) => void,
): Promise<Reply | undefined> {
  let decision: RateLimitDecision;
  try {
    decision = await hook(event, principal);
  } catch (error) {
    onFailure(error);
    return undefined;
  }
  return decision?.ok === false ? rateLimitedReply(decision.retryAfterSeconds) : undefined;
}
