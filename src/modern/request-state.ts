/**
 * `requestState` of multi round-trip requests: the handler's own state plus an expiry, the
 * principal and a digest of the request it belongs to, signed with HMAC-SHA-256 (`crypto.subtle`).
 * Clients echo it verbatim; anything tampered, expired or foreign fails verification.
 * Wire form: `v1.<base64url(payload JSON)>.<base64url(mac)>`.
 */
import { decodeBase64, encodeBase64 } from "../define/base64.ts";
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

function toBase64Url(bytes: Uint8Array): string {
  return encodeBase64(bytes).replace(/\+/g, "-").replace(/\//g, "_").replace(/=+$/, "");
}

function fromBase64Url(text: string): Uint8Array | undefined {
  if (!/^[A-Za-z0-9_-]*$/.test(text)) return undefined;
  try {
    return decodeBase64(text.replace(/-/g, "+").replace(/_/g, "/") + "===".slice((text.length + 3) % 4));
  } catch {
    return undefined;
  }
}

/** JSON with object keys sorted, so equal values digest equally. */
function canonicalJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(",")}]`;
  if (value !== null && typeof value === "object") {
    const entries = Object.keys(value as JsonObject)
      .sort()
      .map((key) => `${JSON.stringify(key)}:${canonicalJson((value as JsonObject)[key])}`);
    return `{${entries.join(",")}}`;
  }
  return JSON.stringify(value) ?? "null";
}

/** Digest of what identifies a request across its rounds: the method and its salient params. */
export async function requestDigest(method: string, params: JsonObject): Promise<string> {
  const salient =
    method === "resources/read" ? { uri: params.uri } : { name: params.name, arguments: params.arguments ?? {} };
  const hash = await crypto.subtle.digest("SHA-256", encoder.encode(`${method}\n${canonicalJson(salient)}`));
  return toBase64Url(new Uint8Array(hash));
}

/** Signs and verifies request states with one key. */
export class RequestStateCodec {
  readonly ttlMs: number;
  #key: Promise<CryptoKey>;

  /** `secret`: at least 32 bytes; a random key per process when absent. */
  constructor(secret: string | Uint8Array | undefined, ttlMs: number) {
    this.ttlMs = ttlMs;
    const raw =
      secret === undefined
        ? crypto.getRandomValues(new Uint8Array(32))
        : typeof secret === "string"
          ? encoder.encode(secret)
          : secret;
    if (raw.byteLength < 32) throw new RangeError("mcp-h3: requestState.secret must be at least 32 bytes");
    this.#key = crypto.subtle.importKey(
      "raw",
      raw as Uint8Array<ArrayBuffer>,
      { name: "HMAC", hash: "SHA-256" },
      false,
      ["sign", "verify"],
    );
  }

  async sign(payload: StatePayload): Promise<string> {
    const body = toBase64Url(encoder.encode(JSON.stringify(payload)));
    const mac = await crypto.subtle.sign("HMAC", await this.#key, encoder.encode(`v1.${body}`));
    return `v1.${body}.${toBase64Url(new Uint8Array(mac))}`;
  }

  /** The payload when the state is authentic, unexpired, and issued for this principal and request. */
  async verify(token: unknown, principal: string | null, digest: string): Promise<StatePayload | undefined> {
    if (typeof token !== "string" || token.length > 1_000_000) return undefined;
    const parts = token.split(".");
    if (parts.length !== 3 || parts[0] !== "v1") return undefined;
    const mac = fromBase64Url(parts[2]!);
    const body = fromBase64Url(parts[1]!);
    if (!mac || !body) return undefined;
    // crypto.subtle.verify compares in constant time.
    const authentic = await crypto.subtle.verify(
      "HMAC",
      await this.#key,
      mac as Uint8Array<ArrayBuffer>,
      encoder.encode(`v1.${parts[1]}`),
    );
    if (!authentic) return undefined;
    let payload: StatePayload;
    try {
      payload = JSON.parse(new TextDecoder().decode(body)) as StatePayload;
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
