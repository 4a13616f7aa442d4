/**
 * AES-256-GCM for `requestState`, in two engines that write the same bytes: a 96-bit IV given by the
 * caller, the ciphertext with its 16-byte tag appended (WebCrypto's layout), so a token sealed by one
 * opens with the other. Keys come from HKDF-SHA-256 (WebCrypto) in both. This file holds the contract
 * and the WebCrypto engine, which every runtime has; Node's engine is `aead-node.ts`.
 *
 * Which engine a runtime uses is the package's `#request-state-aead` import (package.json
 * `imports`): Node, Bun and Deno (the `node` condition) load `aead-node.ts`, which uses Node's own
 * cipher where the runtime hands it out; Workers and browsers load `aead-web.ts`, WebCrypto alone,
 * so a Worker bundle carries no Node engine at all.
 */

/** A key of one engine, made by its own `deriveKey` or `randomKey`: raw bytes for Node's, a CryptoKey for WebCrypto. */
export type AeadKey = Uint8Array | CryptoKey;

/** AES-256-GCM with a 16-byte tag appended to the ciphertext. */
export interface Aead {
  readonly name: "node" | "webcrypto";
  /** The key HKDF-SHA-256 derives from `secret` under `salt` and `info`. */
  deriveKey(secret: Uint8Array, salt: Uint8Array, info: Uint8Array): Promise<AeadKey>;
  /** A random key, for an instance without a shared secret. */
  randomKey(): Promise<AeadKey>;
  /** `plaintext` encrypted, then its tag. */
  seal(key: AeadKey, iv: Uint8Array, plaintext: Uint8Array, additionalData: Uint8Array): Promise<Uint8Array>;
  /** The plaintext, or undefined when `sealed` is not authentic under this key, IV and additional data. */
  open(key: AeadKey, iv: Uint8Array, sealed: Uint8Array, additionalData: Uint8Array): Promise<Uint8Array | undefined>;
}

/** Bytes of the GCM tag appended to the ciphertext. */
export const TAG_BYTES = 16;
/** Bits of an AES-256 key. */
export const KEY_BITS = 256;

/** `secret` as HKDF key material (WebCrypto, in both engines). */
export function hkdfMaterial(secret: Uint8Array): Promise<CryptoKey> {
  return crypto.subtle.importKey("raw", secret as Uint8Array<ArrayBuffer>, "HKDF", false, ["deriveBits", "deriveKey"]);
}

/** HKDF-SHA-256 under `salt` and `info`. */
export function hkdf(salt: Uint8Array, info: Uint8Array): HkdfParams {
  return {
    name: "HKDF",
    hash: "SHA-256",
    salt: salt as Uint8Array<ArrayBuffer>,
    info: info as Uint8Array<ArrayBuffer>,
  };
}

function gcm(iv: Uint8Array, additionalData: Uint8Array): AesGcmParams {
  return {
    name: "AES-GCM",
    iv: iv as Uint8Array<ArrayBuffer>,
    additionalData: additionalData as Uint8Array<ArrayBuffer>,
    tagLength: TAG_BYTES * 8,
  };
}

/** WebCrypto: non-extractable keys; each call a promise. */
export const webCryptoAead: Aead = {
  name: "webcrypto",
  async deriveKey(secret, salt, info) {
    const material = await hkdfMaterial(secret);
    const algorithm = { name: "AES-GCM", length: KEY_BITS };
    return crypto.subtle.deriveKey(hkdf(salt, info), material, algorithm, false, ["encrypt", "decrypt"]);
  },
  async randomKey() {
    return crypto.subtle.generateKey({ name: "AES-GCM", length: KEY_BITS }, false, ["encrypt", "decrypt"]);
  },
  async seal(key, iv, plaintext, additionalData) {
    const sealed = await crypto.subtle.encrypt(
      gcm(iv, additionalData),
      key as CryptoKey,
      plaintext as Uint8Array<ArrayBuffer>,
    );
    return new Uint8Array(sealed);
  },
  async open(key, iv, sealed, additionalData) {
    try {
      const plaintext = await crypto.subtle.decrypt(
        gcm(iv, additionalData),
        key as CryptoKey,
        sealed as Uint8Array<ArrayBuffer>,
      );
      return new Uint8Array(plaintext);
    } catch {
      return undefined;
    }
  },
};
