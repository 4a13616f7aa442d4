/**
 * The answers of the auth gate: 401 and 403 with their `WWW-Authenticate` challenge (RFC 6750 §3,
 * RFC 9728 §5.1), and 503 when the validator fails. Each body is a JSON-RPC error with id null.
 */
import { CONNECTION_CLOSED, INTERNAL_ERROR } from "../protocol/errors.ts";
import { failure } from "../protocol/jsonrpc.ts";
import { errorReply, jsonReply, type Reply } from "../http/reply.ts";
import type { Refusal } from "../http/refusal.ts";

/** What every challenge of a handler carries, when configured. */
export interface ChallengeParts {
  realm: string | undefined;
  resourceMetadataUrl: string | undefined;
  /** The handler-level scopes: named in a 401's `scope`. */
  scopes: readonly string[];
}

/** A quoted-string of RFC 9110 §5.6.4: `"` and `\` escaped, control characters dropped. */
function quoted(value: string): string {
  let out = '"';
  for (const char of value) {
    const code = char.charCodeAt(0);
    if (code < 0x20 || code === 0x7f) continue;
    out += char === '"' || char === "\\" ? `\\${char}` : char;
  }
  return `${out}"`;
}

/** `Bearer realm="…", error="…", resource_metadata="…", scope="…"`, with only the parts given. */
export function challengeHeader(
  parts: ChallengeParts,
  error: "invalid_token" | "insufficient_scope" | undefined,
  scopes: readonly string[],
): string {
  const params: string[] = [];
  if (parts.realm !== undefined) params.push(`realm=${quoted(parts.realm)}`);
  if (error !== undefined) params.push(`error=${quoted(error)}`);
  if (parts.resourceMetadataUrl !== undefined) params.push(`resource_metadata=${quoted(parts.resourceMetadataUrl)}`);
  if (scopes.length > 0) params.push(`scope=${quoted(scopes.join(" "))}`);
  return params.length === 0 ? "Bearer" : `Bearer ${params.join(", ")}`;
}

/** 401: no token, or one that `validate` rejected or that has expired (`invalid_token`). */
export function unauthorizedReply(parts: ChallengeParts, reason: "missing" | "invalid" | "expired"): Reply {
  const message =
    reason === "missing"
      ? "Unauthorized: this server needs an Authorization: Bearer token"
      : reason === "expired"
        ? "Unauthorized: the bearer token has expired"
        : "Unauthorized: the bearer token is invalid";
  const header = challengeHeader(parts, reason === "missing" ? undefined : "invalid_token", parts.scopes);
  return jsonReply(401, failure(null, CONNECTION_CLOSED, message), { "www-authenticate": header });
}

/** 403: a valid token without every scope the operation needs; `needed` names all of them. Answered with id null. */
export function insufficientScope(parts: ChallengeParts, needed: readonly string[]): Refusal {
  return {
    status: 403,
    code: CONNECTION_CLOSED,
    message: `Forbidden: this needs the scopes ${needed.join(" ")}`,
    data: { requiredScopes: [...needed] },
    headers: { "www-authenticate": challengeHeader(parts, "insufficient_scope", needed) },
  };
}

/** 503: the validator threw or took too long; the request is not admitted. */
export function validatorFailedReply(timedOut: boolean): Reply {
  return errorReply(
    503,
    null,
    INTERNAL_ERROR,
    timedOut
      ? "Service Unavailable: the token could not be checked in time; try again later"
      : "Service Unavailable: the token could not be checked; try again later",
  );
}
