/**
 * The AES-256-GCM keys of `requestState`: the first seals, every one opens, so a secret can be
 * rotated (add the new one first, drop the old one once states sealed with it have expired).
 * A key is derived from its secret with HKDF-SHA-256 under a label naming this one use, so a secret
 * never serves two algorithms (nor two purposes). Without a secret each instance draws a random key
 * of its own, and says once what that breaks.
 */
import { encodeBase64 } from "../../define/base64.ts";
import type { Aead, AeadKey } from "./aead.ts";

/** What an instance without a shared secret cannot do, said once per process. */
const NO_SHARED_SECRET_WARNING =
  "mcp-h3: no requestState secret is set (requestState.secret or MCP_REQUEST_STATE_SECRET), so this instance " +
  "seals multi round-trip state with a random key of its own. With more than one instance or isolate, a retry " +
  'that reaches another one fails with "Invalid or expired requestState": give every instance the same secret.';

/**
 * HKDF's salt and info: what the derived key is for. A new algorithm takes a new label. The `v3.`
 * format kept `v2.`'s key (and this label, which names the format that introduced it): the two are
 * told apart by their AES-GCM additional data, so neither can open as the other.
 */
const HKDF_SALT = new TextEncoder().encode("mcp-h3 requestState");
const HKDF_INFO = new TextEncoder().encode("mcp-h3 requestState v2 AES-256-GCM");

/**
 * Derived keys by engine and secret, shared by every handler of the process: a handler built again
 * with the same secret (an isolate that builds it per request, tests) derives nothing again.
 * Bounded; the oldest entry goes first.
 */
const MAX_CACHED_SECRETS = 32;
const derivedKeys = new Map<string, Promise<AeadKey>>();

let warnedAboutRandomKey = false;

/** The key of `secret` for `aead`, derived once per process (while it stays among the last {@link MAX_CACHED_SECRETS}). */
function keyOf(aead: Aead, secret: Uint8Array): Promise<AeadKey> {
  const id = `${aead.name}:${encodeBase64(secret)}`;
  let key = derivedKeys.get(id);
  if (key === undefined) {
    if (derivedKeys.size >= MAX_CACHED_SECRETS) derivedKeys.delete(derivedKeys.keys().next().value!);
    key = aead.deriveKey(secret, HKDF_SALT, HKDF_INFO);
    derivedKeys.set(id, key);
    // A failed derivation is not kept: the next request tries again.
    key.catch(() => derivedKeys.delete(id));
  }
  return key;
}

/** The number of secrets whose keys the process keeps derived (for tests). */
export function cachedSecretCount(): number {
  return derivedKeys.size;
}

export class RequestStateKeys {
  readonly #secrets: () => readonly Uint8Array[];
  readonly #aead: () => Aead;
  #keys: Promise<AeadKey[]> | undefined;

  /**
   * `secrets` is read on first use, inside a request (nothing is read or drawn at construction);
   * `aead` gives the engine the keys are for (aead.ts), the same each time.
   */
  constructor(secrets: () => readonly Uint8Array[], aead: () => Aead) {
    this.#secrets = secrets;
    this.#aead = aead;
  }

  /** Every key, the sealing one first; derived on first use, then kept (never per request). */
  all(): Promise<AeadKey[]> {
    if (this.#keys === undefined) {
      const keys = this.#derive();
      this.#keys = keys;
      // A failed derivation is not kept either.
      keys.catch(() => {
        if (this.#keys === keys) this.#keys = undefined;
      });
    }
    return this.#keys;
  }

  async sealing(): Promise<AeadKey> {
    return (await this.all())[0]!;
  }

  #derive(): Promise<AeadKey[]> {
    const aead = this.#aead();
    const secrets = this.#secrets();
    if (secrets.length > 0) return Promise.all(secrets.map((secret) => keyOf(aead, secret)));
    if (!warnedAboutRandomKey) {
      warnedAboutRandomKey = true;
      console.warn(NO_SHARED_SECRET_WARNING);
    }
    return aead.randomKey().then((key) => [key]);
  }
}
