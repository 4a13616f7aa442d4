/**
 * Opening the `v2.` request states issued before `v3.`. They are sealed with the same key as `v3.`
 * ones, but bind only their version as additional data and name their request by a SHA-256 digest
 * inside the payload, checked once the token has opened: a second WebCrypto call that `v3.` saves.
 * None are issued any more; every one still in flight has expired `requestState.ttlMs` after the
 * upgrade, after which this file can go.
 */
import { toBase64Url } from "./base64url.ts";

export const V2_PREFIX = "v2.";

/** A v2 token's additional data: its version alone. */
export const V2_ADDITIONAL_DATA: Uint8Array = new TextEncoder().encode("v2");

/** The digest a v2 payload carries: SHA-256 of the request's binding (request-binding.ts), base64url. */
export async function v2Digest(binding: string): Promise<string> {
  const hash = await crypto.subtle.digest("SHA-256", new TextEncoder().encode(binding));
  return toBase64Url(new Uint8Array(hash));
}

/** Whether an opened v2 payload was issued for the request of `binding`. */
export async function v2BelongsTo(payload: object, binding: string): Promise<boolean> {
  const { digest } = payload as { digest?: unknown };
  return typeof digest === "string" && digest === (await v2Digest(binding));
}
