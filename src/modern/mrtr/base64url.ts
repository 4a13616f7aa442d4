/** Unpadded base64url, the alphabet of `requestState` tokens (RFC 4648 §5). */
import { decodeCanonicalBase64, encodeBase64 } from "../../define/base64.ts";

export function toBase64Url(bytes: Uint8Array): string {
  return encodeBase64(bytes).replace(/\+/g, "-").replace(/\//g, "_").replace(/=+$/, "");
}

/** Decodes unpadded base64url; only the one canonical spelling of the bytes is accepted (see decodeCanonicalBase64). */
export function fromBase64Url(text: string): Uint8Array | undefined {
  if (!/^[A-Za-z0-9_-]*$/.test(text)) return undefined;
  const padded = text.replace(/-/g, "+").replace(/_/g, "/") + "===".slice((text.length + 3) % 4);
  return padded.length % 4 === 0 ? decodeCanonicalBase64(padded) : undefined;
}
