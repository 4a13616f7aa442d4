/**
 * `requestState` of multi round-trip requests: the handler's own state plus an expiry, the
 * principal and a digest of the request it belongs to, sealed with AES-256-GCM (`crypto.subtle`):
 * the client carries it between rounds but can neither read nor change it. Anything tampered,
 * expired, foreign or in another format fails to open, with one opaque answer.
 * Wire form: `v2.<base64url(iv ‖ ciphertext ‖ tag)>`, a fresh random 96-bit IV per token, the
 * version prefix bound as additional data. The signed-only `v1.` form of earlier versions (readable
 * by the client) is not opened.
 */
import { decodeCanonicalBase64, encodeBase64 } from "../../define/base64.ts";
import { canonicalJson } from "../../protocol/canonical-json.ts";
import { parseBoundedJson } from "../../protocol/json-depth.ts";
import type { JsonObject } from "../../protocol/jsonrpc.ts";
import { describeMethod } from "../../protocol/methods.ts";
import { RequestStateKeys } from "./request-state-keys.ts";

export interface StatePayload {
  /** The handler's state (`mcp.state`). */
  state: unknown;
  /** Expiry, milliseconds since the epoch. */
  exp: number;
  /** The principal the state was issued to; none without auth. */
  principal?: string;
  /** Digest of the method and its salient params. */
  digest: string;
  /** How many `input_required` rounds this request has been through. */
  rounds: number;
  /** The client's answers of earlier rounds, keyed by input request key. */
  answers?: JsonObject;
}

/** The bytes of a well-formed token (IV, ciphertext, tag), not yet opened. */
export type SealedState = Uint8Array & { readonly __sealedState: true };

const encoder = new TextEncoder();

/** Longest `requestState` accepted or issued, in characters (it travels in a body under `maxBodyBytes` anyway). */
export const MAX_REQUEST_STATE_LENGTH = 1_000_000;

const VERSION = "v2";
const PREFIX = `${VERSION}.`;
/** Authenticated with the ciphertext: a token of another format can never open as this one. */
const ADDITIONAL_DATA = encoder.encode(VERSION);
const IV_BYTES = 12;
const TAG_BYTES = 16;
/** Longest payload JSON whose token stays within {@link MAX_REQUEST_STATE_LENGTH} (4 characters per 3 bytes). */
const MAX_PLAINTEXT_BYTES = Math.floor(((MAX_REQUEST_STATE_LENGTH - PREFIX.length) * 3) / 4) - IV_BYTES - TAG_BYTES;

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
    describeMethod(method)?.inputRounds === "uri"
      ? { uri: params.uri }
      : { name: params.name, arguments: params.arguments ?? {} };
  const hash = await crypto.subtle.digest("SHA-256", encoder.encode(`${method}\n${canonicalJson(salient)}`));
  return toBase64Url(new Uint8Array(hash));
}

/**
 * Why `state` cannot go into a request state, or undefined when it can: it must be JSON that comes back
 * equal, so no cycle, no BigInt, at most `maxDepth` levels deep and not larger than a state may be.
 * Walked with an explicit stack; the ancestors of the value in hand are kept to tell a cycle from a
 * value used twice, and the count of values bounds the walk of a value that shares parts many times.
 */
function unsealable(state: unknown, maxDepth: number): string | undefined {
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

function cannotSeal(reason: string, cause?: unknown): Error {
  return new Error(`mcp-h3: mcp.state cannot be kept in a requestState: ${reason}`, { cause });
}

/** Seals request states with the first key and opens them with any (see request-state-keys.ts). */
export class RequestStateCodec {
  readonly ttlMs: number;
  /** Deepest `mcp.state` that can be sealed; a payload is parsed back with one level more. */
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
   * Seals a payload. Rejects with an Error whose message starts `mcp-h3: mcp.state cannot be kept in a
   * requestState:` when the state is circular, holds a BigInt, nests deeper than `maxDepth` or would
   * make a state longer than {@link MAX_REQUEST_STATE_LENGTH}.
   */
  async seal(payload: StatePayload): Promise<string> {
    const reason = unsealable(payload.state, this.maxDepth);
    if (reason !== undefined) throw cannotSeal(reason);
    let json: string;
    try {
      json = JSON.stringify(payload);
    } catch (error) {
      // A getter or toJSON that throws, or returns what cannot be written.
      throw cannotSeal(`it cannot be written as JSON (${(error as Error).message})`, error);
    }
    const plaintext = encoder.encode(json);
    if (plaintext.length > MAX_PLAINTEXT_BYTES) {
      throw cannotSeal(`it is larger than ${MAX_REQUEST_STATE_LENGTH} characters`);
    }
    const iv = crypto.getRandomValues(new Uint8Array(IV_BYTES));
    const algorithm = { name: "AES-GCM", iv, additionalData: ADDITIONAL_DATA, tagLength: TAG_BYTES * 8 };
    const sealed = new Uint8Array(await crypto.subtle.encrypt(algorithm, await this.#keys.sealing(), plaintext));
    const token = new Uint8Array(IV_BYTES + sealed.length);
    token.set(iv);
    token.set(sealed, IV_BYTES);
    return PREFIX + toBase64Url(token);
  }

  /**
   * The sealed bytes of a well-formed token of this format, else undefined: the checks that refuse
   * anything too long, of another format or not in canonical base64url before any crypto work.
   */
  unwrap(token: unknown): SealedState | undefined {
    if (typeof token !== "string" || token.length > MAX_REQUEST_STATE_LENGTH || !token.startsWith(PREFIX)) {
      return undefined;
    }
    const bytes = fromBase64Url(token.slice(PREFIX.length));
    return bytes && bytes.length > IV_BYTES + TAG_BYTES ? (bytes as SealedState) : undefined;
  }

  /** The payload when the token opens with one of the keys, is unexpired, and was issued for this principal and request. */
  async open(token: unknown, principal: string | undefined, digest: string): Promise<StatePayload | undefined> {
    const sealed = this.unwrap(token);
    return sealed && this.openSealed(sealed, principal, digest);
  }

  /** {@link open} of what {@link unwrap} gave. */
  async openSealed(
    bytes: SealedState,
    principal: string | undefined,
    digest: string,
  ): Promise<StatePayload | undefined> {
    const plaintext = await this.#decrypt(bytes.subarray(0, IV_BYTES), bytes.subarray(IV_BYTES));
    if (!plaintext) return undefined;
    let payload: StatePayload;
    try {
      // Sealed by this server, yet still bounded: a leaked key must not be a way to crash it.
      const parsed = parseBoundedJson(new TextDecoder().decode(plaintext), this.maxDepth + 1);
      if (parsed === undefined) return undefined;
      payload = parsed.value as StatePayload;
    } catch {
      return undefined;
    }
    if (typeof payload?.exp !== "number" || payload.exp < Date.now() || typeof payload.rounds !== "number") {
      return undefined;
    }
    // States sealed by earlier versions wrote `null` for "no principal".
    if ((payload.principal ?? undefined) !== principal || payload.digest !== digest) return undefined;
    return payload;
  }

  /** The plaintext when some key opens the token; GCM checks the tag before giving anything back. */
  async #decrypt(iv: Uint8Array, sealed: Uint8Array): Promise<ArrayBuffer | undefined> {
    const algorithm = {
      name: "AES-GCM",
      iv: iv as Uint8Array<ArrayBuffer>,
      additionalData: ADDITIONAL_DATA,
      tagLength: TAG_BYTES * 8,
    };
    for (const key of await this.#keys.all()) {
      try {
        return await crypto.subtle.decrypt(algorithm, key, sealed as Uint8Array<ArrayBuffer>);
      } catch {
        // Not this key (or not authentic): the next one, if any.
      }
    }
    return undefined;
  }
}
