/**
 * `requestState` of multi round-trip requests: the handler's own state plus an expiry and the
 * principal, sealed with AES-256-GCM (aead.ts): the client carries it between rounds but can
 * neither read nor change it. Anything tampered, expired, foreign, for another request or in another
 * format fails to open, with one opaque answer.
 * Wire form: `v3.<base64url(iv ‖ ciphertext ‖ tag)>`, a fresh random 96-bit IV per token. The additional
 * data binds the version and the request the state belongs to (its method and salient params,
 * request-binding.ts): a state replayed on another request fails GCM's own check, so sealing and
 * opening cost one AES-GCM call each. `v2.` tokens (a digest of the request inside the payload)
 * still open until they expire (request-state-v2.ts); the signed-only `v1.` form is not opened.
 */
import { parseBoundedJson } from "../../protocol/json-depth.ts";
import type { JsonObject } from "../../protocol/jsonrpc.ts";
import type { Aead } from "./aead.ts";
// Node's engine or WebCrypto's, by the runtime (package.json `imports`; see aead.ts).
import { runtimeAead } from "#request-state-aead";
import { fromBase64Url, toBase64Url } from "./base64url.ts";
import { RequestStateKeys } from "./request-state-keys.ts";
import { V2_ADDITIONAL_DATA, V2_PREFIX, v2BelongsTo } from "./request-state-v2.ts";

export interface StatePayload {
  /** The handler's state (`mcp.state`). */
  state: unknown;
  /** Expiry, milliseconds since the epoch. */
  exp: number;
  /** The principal the state was issued to; none without auth. */
  principal?: string;
  /** How many `input_required` rounds this request has been through. */
  rounds: number;
  /** The client's answers of earlier rounds, keyed by input request key. */
  answers?: JsonObject;
  /**
   * The last progress sent in earlier rounds: the retry's run sends only what goes past it. Kept
   * whatever the retry's token: the 2.x client sends each round with a token of its own and hands
   * them all to one `onprogress`, so a new token does not make the steps already reported new.
   */
  progress?: number;
}

/** A well-formed token, not yet opened: its format and its bytes (IV, ciphertext, tag). */
export interface SealedState {
  readonly version: "v2" | "v3";
  readonly bytes: Uint8Array;
}

const encoder = new TextEncoder();

/** Longest `requestState` accepted or issued, in characters (it travels in a body under `maxBodyBytes` anyway). */
export const MAX_REQUEST_STATE_LENGTH = 1_000_000;

const VERSION = "v3";
const PREFIX = `${VERSION}.`;
const IV_BYTES = 12;
const TAG_BYTES = 16;
/** Longest payload JSON whose token stays within {@link MAX_REQUEST_STATE_LENGTH} (4 characters per 3 bytes). */
const MAX_PLAINTEXT_BYTES = Math.floor(((MAX_REQUEST_STATE_LENGTH - PREFIX.length) * 3) / 4) - IV_BYTES - TAG_BYTES;

/**
 * A v3 token's additional data, authenticated with the ciphertext: the version (a token of another
 * format can never open as this one) and the request's binding. The key is the one v2 used: their
 * additional data differ, so neither format can open as the other.
 */
function additionalDataOf(binding: string): Uint8Array {
  return encoder.encode(`${VERSION}\n${binding}`);
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
  #aead: Aead | undefined;

  /**
   * `secrets`: the shared secrets, read on first use (none: a random key per instance).
   * `maxDepth`: the handler's `maxJsonDepth`. `aead`: the AES-GCM engine, by default the runtime's,
   * chosen on first use (aead.ts); tests give one to check that the engines agree.
   */
  constructor(secrets: () => readonly Uint8Array[], ttlMs: number, maxDepth = 64, aead?: Aead) {
    this.ttlMs = ttlMs;
    this.maxDepth = maxDepth;
    this.#aead = aead;
    this.#keys = new RequestStateKeys(secrets, () => this.#engine());
  }

  #engine(): Aead {
    return (this.#aead ??= runtimeAead());
  }

  /**
   * Seals a payload for the request of `binding` (request-binding.ts). Rejects with an Error whose message starts `mcp-h3: mcp.state cannot be kept in a
   * requestState:` when the state is circular, holds a BigInt, nests deeper than `maxDepth` or would
   * make a state longer than {@link MAX_REQUEST_STATE_LENGTH}.
   */
  async seal(payload: StatePayload, binding: string): Promise<string> {
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
    const key = await this.#keys.sealing();
    const sealed = await this.#engine().seal(key, iv, plaintext, additionalDataOf(binding));
    const token = new Uint8Array(IV_BYTES + sealed.length);
    token.set(iv);
    token.set(sealed, IV_BYTES);
    return PREFIX + toBase64Url(token);
  }

  /**
   * A well-formed token of a format this server opens, else undefined: the checks that refuse
   * anything too long, of another format or not in canonical base64url before any crypto work.
   */
  unwrap(token: unknown): SealedState | undefined {
    if (typeof token !== "string" || token.length > MAX_REQUEST_STATE_LENGTH) return undefined;
    const version = token.startsWith(PREFIX) ? "v3" : token.startsWith(V2_PREFIX) ? "v2" : undefined;
    if (version === undefined) return undefined;
    // Both prefixes have the same length.
    const bytes = fromBase64Url(token.slice(PREFIX.length));
    return bytes && bytes.length > IV_BYTES + TAG_BYTES ? { version, bytes } : undefined;
  }

  /** The payload when the token opens with one of the keys, is unexpired, and was issued for this principal and request. */
  async open(token: unknown, principal: string | undefined, binding: string): Promise<StatePayload | undefined> {
    const sealed = this.unwrap(token);
    return sealed && this.openSealed(sealed, principal, binding);
  }

  /** {@link open} of what {@link unwrap} gave. */
  async openSealed(
    sealed: SealedState,
    principal: string | undefined,
    binding: string,
  ): Promise<StatePayload | undefined> {
    const { version, bytes } = sealed;
    const additionalData = version === "v3" ? additionalDataOf(binding) : V2_ADDITIONAL_DATA;
    const plaintext = await this.#decrypt(bytes.subarray(0, IV_BYTES), bytes.subarray(IV_BYTES), additionalData);
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
    if ((payload.principal ?? undefined) !== principal) return undefined;
    // A v3 state's request was checked by the decryption itself; a v2 state names it by a digest.
    if (version === "v2" && !(await v2BelongsTo(payload, binding))) return undefined;
    return payload;
  }

  /** The plaintext when some key opens the token; GCM checks the tag before giving anything back. */
  async #decrypt(iv: Uint8Array, sealed: Uint8Array, additionalData: Uint8Array): Promise<Uint8Array | undefined> {
    const keys = await this.#keys.all();
    const aead = this.#engine();
    for (const key of keys) {
      // Not this key (or not authentic): the next one, if any.
      const plaintext = await aead.open(key, iv, sealed, additionalData);
      if (plaintext) return plaintext;
    }
    return undefined;
  }
}
