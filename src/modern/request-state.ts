/**
 * `requestState` of multi round-trip requests: the handler's own state plus an expiry, the
 * principal and a digest of the request it belongs to, signed with HMAC-SHA-256 (`crypto.subtle`).
 * Clients echo it verbatim; anything tampered, expired or foreign fails verification.
 * Wire form: `v1.<base64url(payload JSON)>.<base64url(mac)>`.
 */
import { decodeCanonicalBase64, encodeBase64 } from "../define/base64.ts";
import { canonicalJson } from "../protocol/canonical-json.ts";
import { parseBoundedJson } from "../protocol/json-depth.ts";
import type { JsonObject } from "../protocol/jsonrpc.ts";

export interface StatePayload {
  /** The handler's state (`mcp.state`). */
  state: unknown;
  /** Expiry, milliseconds since the epoch. */
  exp: number;
  /** The principal the state was issued to, or null without auth. */
  principal: string | null;
  /** Digest of the method and its salient params. */
  digest: string;
  /** How many `input_required` rounds this request has been through. */
  rounds: number;
  /** The client's answers of earlier rounds, keyed by input request key. */
  answers?: JsonObject;
}

const encoder = new TextEncoder();

/** Longest `requestState` accepted or issued, in characters (it travels in a body under `maxBodyBytes` anyway). */
export const MAX_REQUEST_STATE_LENGTH = 1_000_000;

function toBase64Url(bytes: Uint8Array): string {
  return encodeBase64(bytes).replace(/\+/g, "-").replace(/\//g, "_").replace(/=+$/, "");
}

/** Decodes unpadded base64url; only the one canonical spelling of the bytes is accepted (see decodeCanonicalBase64). */
function fromBase64Url(text: string): Uint8Array | undefined {
  if (!/^[A-Za-z0-9_-]*$/.test(text)) return undefined;
  const padded = text.replace(/-/g, "+").replace(/_/g, "/") + "===".slice((text.length + 3) % 4);
  return padded.length % 4 === 0 ? decodeCanonicalBase64(padded) : undefined;
}

/** Digest of what identifies a request across its rounds: the method and its salient params. */
export async function requestDigest(method: string, params: JsonObject): Promise<string> {
  const salient =
    method === "resources/read" ? { uri: params.uri } : { name: params.name, arguments: params.arguments ?? {} };
  const hash = await crypto.subtle.digest("SHA-256", encoder.encode(`${method}\n${canonicalJson(salient)}`));
  return toBase64Url(new Uint8Array(hash));
}

/**
 * Why `state` cannot go into a request state, or undefined when it can: it must be JSON that comes back
 * equal, so no cycle, no BigInt, at most `maxDepth` levels deep and not larger than a state may be.
 * Walked with an explicit stack; the ancestors of the value in hand are kept to tell a cycle from a
 * value used twice, and the count of values bounds the walk of a value that shares parts many times.
 */
function unsignable(state: unknown, maxDepth: number): string | undefined {
  const values: unknown[] = [state];
  const depths: number[] = [0];
  const ancestors: object[] = [];
  let count = 0;
  while (values.length > 0) {
    const value = values.pop();
    const depth = depths.pop()!;
    if (++count > MAX_REQUEST_STATE_LENGTH) return `it is larger than ${MAX_REQUEST_STATE_LENGTH} characters`;
    if (typeof value === "bigint") return "it contains a BigInt";
    if (typeof value !== "object" || value === null) continue;
    if (depth >= maxDepth) return `it is nested deeper than ${maxDepth} levels`;
    ancestors.length = depth;
    if (ancestors.includes(value)) return "it is circular";
    ancestors.push(value);
    for (const child of Array.isArray(value) ? value : Object.values(value)) {
      values.push(child);
      depths.push(depth + 1);
    }
  }
  return undefined;
}

function cannotSign(reason: string, cause?: unknown): Error {
  return new Error(`mcp-h3: mcp.state cannot be kept in a requestState: ${reason}`, { cause });
}

/** Signs and verifies request states with one key. */
export class RequestStateCodec {
  readonly ttlMs: number;
  /** Deepest `mcp.state` that can be signed; a payload is parsed back with one level more. */
  readonly maxDepth: number;
  /** The secret's bytes, or undefined for a random key drawn on first use. */
  #secret: Uint8Array | undefined;
  #key: Promise<CryptoKey> | undefined;

  /** `secret`: at least 32 bytes; a random key per process when absent. `maxDepth`: the handler's `maxJsonDepth`. */
  constructor(secret: string | Uint8Array | undefined, ttlMs: number, maxDepth = 64) {
    this.ttlMs = ttlMs;
    this.maxDepth = maxDepth;
    // A copy: the key is imported later, and the caller's bytes may change meanwhile.
    this.#secret = typeof secret === "string" ? encoder.encode(secret) : secret && new Uint8Array(secret);
    if (this.#secret !== undefined && this.#secret.byteLength < 32) {
      throw new RangeError("mcp-h3: requestState.secret must be at least 32 bytes");
    }
  }

  /**
   * The HMAC key, imported on first use, inside a request, then kept. The random key is drawn then
   * too: a Worker may not draw random values while its module loads or the handler is built.
   */
  #signingKey(): Promise<CryptoKey> {
    return (this.#key ??= crypto.subtle.importKey(
      "raw",
      (this.#secret ?? crypto.getRandomValues(new Uint8Array(32))) as Uint8Array<ArrayBuffer>,
      { name: "HMAC", hash: "SHA-256" },
      false,
      ["sign", "verify"],
    ));
  }

  /**
   * Signs a payload. Rejects with an Error whose message starts `mcp-h3: mcp.state cannot be kept in a
   * requestState:` when the state is circular, holds a BigInt, nests deeper than `maxDepth` or would
   * make a state longer than {@link MAX_REQUEST_STATE_LENGTH}.
   */
  async sign(payload: StatePayload): Promise<string> {
    const reason = unsignable(payload.state, this.maxDepth);
    if (reason !== undefined) throw cannotSign(reason);
    let json: string;
    try {
      json = JSON.stringify(payload);
    } catch (error) {
      // A getter or toJSON that throws, or returns what cannot be written.
      throw cannotSign(`it cannot be written as JSON (${(error as Error).message})`, error);
    }
    const body = toBase64Url(encoder.encode(json));
    if (body.length > MAX_REQUEST_STATE_LENGTH) {
      throw cannotSign(`it is larger than ${MAX_REQUEST_STATE_LENGTH} characters`);
    }
    const mac = await crypto.subtle.sign("HMAC", await this.#signingKey(), encoder.encode(`v1.${body}`));
    return `v1.${body}.${toBase64Url(new Uint8Array(mac))}`;
  }

  /** The payload when the state is authentic, unexpired, and issued for this principal and request. */
  async verify(token: unknown, principal: string | null, digest: string): Promise<StatePayload | undefined> {
    if (typeof token !== "string" || token.length > MAX_REQUEST_STATE_LENGTH + 64) return undefined;
    const parts = token.split(".");
    if (parts.length !== 3 || parts[0] !== "v1") return undefined;
    const mac = fromBase64Url(parts[2]!);
    const body = fromBase64Url(parts[1]!);
    if (!mac || !body) return undefined;
    // crypto.subtle.verify compares in constant time.
    const authentic = await crypto.subtle.verify(
      "HMAC",
      await this.#signingKey(),
      mac as Uint8Array<ArrayBuffer>,
      encoder.encode(`v1.${parts[1]}`),
    );
    if (!authentic) return undefined;
    let payload: StatePayload;
    try {
      // Signed by this server, yet still bounded: a leaked key must not be a way to crash it.
      const parsed = parseBoundedJson(new TextDecoder().decode(body), this.maxDepth + 1);
      if (parsed === undefined) return undefined;
      payload = parsed.value as StatePayload;
    } catch {
      return undefined;
    }
    if (typeof payload?.exp !== "number" || payload.exp < Date.now() || typeof payload.rounds !== "number") {
      return undefined;
    }
    if (payload.principal !== principal || payload.digest !== digest) return undefined;
    return payload;
  }
}
