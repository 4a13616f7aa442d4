/** SHA-256 digests of skill files, as SEP-2640 writes them: `sha256:` and 64 lowercase hex digits. */

/**
 * The digest of `bytes`, by WebCrypto (Node, Workers, Deno and Bun all have it).
 *
 * @example
 * await sha256Digest(new TextEncoder().encode("")); // "sha256:e3b0c442…b855"
 */
export async function sha256Digest(bytes: Uint8Array): Promise<string> {
  const hash = new Uint8Array(await crypto.subtle.digest("SHA-256", bytes as Uint8Array<ArrayBuffer>));
  let hex = "";
  for (const byte of hash) hex += byte.toString(16).padStart(2, "0");
  return `sha256:${hex}`;
}
