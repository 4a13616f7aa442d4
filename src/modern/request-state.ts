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
import { RequestStateKeys } from "./request-state-keys.ts";

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

/** Signs request states with the first key and verifies them with any (see request-state-keys.ts). */
export class RequestStateCodec {
  readonly ttlMs: number;
  /** Deepest `mcp.state` that can be signed; a payload is parsed back with one level more. */
  readonly maxDepth: number;
  readonly #keys: RequestStateKeys;

  /**
   * `secrets`: the shared secrets, read on first use (none: a random key per instance).
   * `maxDepth`: the handler's `maxJsonDepth`.
   */
  constructor(secrets: () => readonly Uint8Array[], ttlMs: number, maxDepth = 64) {
    this.ttlMs = ttlMs;
    this.maxDepth = maxDepth;
    this.#keys = new RequestStateKeys(secrets);
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
    const mac = await crypto.subtle.sign("HMAC", await this.#keys.signing(), encoder.encode(`v1.${body}`));
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
    if (!(await this.#authentic(mac, encoder.encode(`v1.${parts[1]}`)))) return undefined;
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

  /** Whether any key made `mac` for `signed`; crypto.subtle.verify compares in constant time. */
  async #authentic(mac: Uint8Array, signed: Uint8Array): Promise<boolean> {
    for (const key of await this.#keys.all()) {
      if (await crypto.subtle.verify("HMAC", key, mac as Uint8Array<ArrayBuffer>, signed as Uint8Array<ArrayBuffer>)) {
        return true;
      }
    }
    return false;
  }
}
