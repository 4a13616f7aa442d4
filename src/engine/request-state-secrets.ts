/**
 * Where the `requestState` secrets come from: the `requestState.secret` option (one secret, or a
 * list for rotation, the sealing one first), else `MCP_REQUEST_STATE_SECRET` (comma-separated, read
 * on the first multi round-trip request), else none (a random key per instance).
 */
import { readEnvironment } from "./environment.ts";

/** The shortest secret accepted: fewer than 32 bytes of keying material is weaker than the 256-bit key derived from it. */
const MIN_SECRET_BYTES = 32;

export type RequestStateSecret = string | Uint8Array;

function toBytes(secret: RequestStateSecret, where: string): Uint8Array {
  // A copy: the key is imported later, and the caller's bytes may change meanwhile.
  const bytes = typeof secret === "string" ? new TextEncoder().encode(secret) : new Uint8Array(secret);
  if (bytes.byteLength < MIN_SECRET_BYTES) {
    throw new RangeError(`mcp-h3: ${where} must be at least ${MIN_SECRET_BYTES} bytes`);
  }
  return bytes;
}

/**
 * The secrets' provider. An option given is checked now (a short secret is a mistake to report at
 * start-up); the environment is read only when the provider is first called, inside a request.
 */
export function requestStateSecrets(
  option: RequestStateSecret | readonly RequestStateSecret[] | undefined,
): () => readonly Uint8Array[] {
  if (option !== undefined) {
    const list = Array.isArray(option) ? option : [option as RequestStateSecret];
    const secrets = list.map((secret) => toBytes(secret, "requestState.secret"));
    return () => secrets;
  }
  return () => {
    const value = readEnvironment("MCP_REQUEST_STATE_SECRET");
    if (value === undefined || value.trim() === "") return [];
    return value
      .split(",")
      .map((entry) => entry.trim())
      .filter((entry) => entry !== "")
      .map((entry) => toBytes(entry, "each secret of MCP_REQUEST_STATE_SECRET"));
  };
}
