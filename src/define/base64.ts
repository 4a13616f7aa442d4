/** Base64 for bytes with Web APIs only (`btoa`), no `Buffer`: resource blobs and binary content. */

/** Bytes per `String.fromCharCode` call: well under engines' argument-count limits. */
const CHUNK = 0x8000;

/**
 * Encodes bytes as standard base64 (with padding).
 *
 * @example
 * encodeBase64(new TextEncoder().encode("hi")); // "aGk="
 */
export function encodeBase64(bytes: Uint8Array): string {
  let binary = "";
  for (let start = 0; start < bytes.length; start += CHUNK) {
    binary += String.fromCharCode.apply(null, bytes.subarray(start, start + CHUNK) as unknown as number[]);
  }
  return btoa(binary);
}
