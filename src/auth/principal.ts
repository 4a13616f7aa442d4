/** The principal of a token that names no subject: its SHA-256, so the token itself is never kept. */

const encoder = new TextEncoder();

/**
 * The SHA-256 of `token` as lower-case hex (Web Crypto, so it runs on every host).
 *
 * @example
 * await tokenDigest("abc"); // "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad"
 */
export async function tokenDigest(token: string): Promise<string> {
  const digest = new Uint8Array(await crypto.subtle.digest("SHA-256", encoder.encode(token)));
  let hex = "";
  for (const byte of digest) hex += byte.toString(16).padStart(2, "0");
  return hex;
}
