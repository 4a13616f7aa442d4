/**
 * AES-256-GCM for `requestState`, in two engines that write the same bytes: a 96-bit IV given by the
 * caller, the ciphertext with its 16-byte tag appended (WebCrypto's layout), so a token sealed by one
 * opens with the other. Keys come from HKDF-SHA-256 (WebCrypto) in both.
 *
 * Why two: WebCrypto runs every encrypt and decrypt as a job on Node's thread pool and settles a
 * promise from there, measured at ~83 µs a call under load at concurrency 32 (272 µs alone), while
 * Node's own synchronous cipher takes a few µs; a multi round-trip call seals once and opens once.
 * So where the runtime hands out Node's crypto without an import (`process.getBuiltinModule`:
 * Node ≥ 20.16, Bun, Deno, Workers with nodejs_compat) that engine seals and opens; elsewhere
 * (Workers without nodejs_compat, browsers) WebCrypto does. No static `node:` import: the core
 * bundles for a Worker without nodejs_compat.
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

const TAG_BYTES = 16;
const KEY_BITS = 256;

/** What this file uses of Node's `crypto` module (typed here: the core does not see Node's types). */
interface NodeGcm {
  setAAD(data: Uint8Array): unknown;
  update(data: Uint8Array): Uint8Array;
  final(): Uint8Array;
}
interface NodeCrypto {
  createCipheriv(
    algorithm: "aes-256-gcm",
    key: Uint8Array,
    iv: Uint8Array,
    options: { authTagLength: number },
  ): NodeGcm & { getAuthTag(): Uint8Array };
  createDecipheriv(
    algorithm: "aes-256-gcm",
    key: Uint8Array,
    iv: Uint8Array,
    options: { authTagLength: number },
  ): NodeGcm & { setAuthTag(tag: Uint8Array): unknown };
}

function hkdfMaterial(secret: Uint8Array): Promise<CryptoKey> {
  return crypto.subtle.importKey("raw", secret as Uint8Array<ArrayBuffer>, "HKDF", false, ["deriveBits", "deriveKey"]);
}

function hkdf(salt: Uint8Array, info: Uint8Array): HkdfParams {
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

function concat(parts: Uint8Array[]): Uint8Array {
  const bytes = new Uint8Array(parts.reduce((length, part) => length + part.length, 0));
  let offset = 0;
  for (const part of parts) {
    bytes.set(part, offset);
    offset += part.length;
  }
  return bytes;
}

/** Node's crypto: the same key bits as raw bytes (derived once), sealed and opened synchronously. */
export function nodeAead(node: NodeCrypto): Aead {
  const options = { authTagLength: TAG_BYTES };
  return {
    name: "node",
    async deriveKey(secret, salt, info) {
      return new Uint8Array(await crypto.subtle.deriveBits(hkdf(salt, info), await hkdfMaterial(secret), KEY_BITS));
    },
    async randomKey() {
      return crypto.getRandomValues(new Uint8Array(KEY_BITS / 8));
    },
    async seal(key, iv, plaintext, additionalData) {
      const cipher = node.createCipheriv("aes-256-gcm", key as Uint8Array, iv, options);
      cipher.setAAD(additionalData);
      return concat([cipher.update(plaintext), cipher.final(), cipher.getAuthTag()]);
    },
    async open(key, iv, sealed, additionalData) {
      if (sealed.length < TAG_BYTES) return undefined;
      const decipher = node.createDecipheriv("aes-256-gcm", key as Uint8Array, iv, options);
      decipher.setAAD(additionalData);
      decipher.setAuthTag(sealed.subarray(sealed.length - TAG_BYTES));
      const head = decipher.update(sealed.subarray(0, sealed.length - TAG_BYTES));
      try {
        // GCM checks the tag here: nothing is given back before it passed.
        return concat([head, decipher.final()]);
      } catch {
        return undefined;
      }
    },
  };
}

/**
 * Node's crypto when the runtime hands it out and it has AES-256-GCM, else undefined. Asked by the
 * bare name: a `node:` specifier, even in a string, is what a Worker bundle without nodejs_compat
 * must not contain. A compatibility layer may have the module but not this cipher: one cipher made
 * with a zero key tells, once.
 */
function nodeCrypto(): NodeCrypto | undefined {
  const process = (globalThis as { process?: { getBuiltinModule?: (id: string) => unknown } }).process;
  try {
    const node = process?.getBuiltinModule?.("crypto") as NodeCrypto | undefined;
    if (typeof node?.createCipheriv !== "function" || typeof node.createDecipheriv !== "function") return undefined;
    const probe = node.createCipheriv("aes-256-gcm", new Uint8Array(32), new Uint8Array(12), {
      authTagLength: TAG_BYTES,
    });
    probe.final();
    return probe.getAuthTag().length === TAG_BYTES ? node : undefined;
  } catch {
    return undefined;
  }
}

let chosen: Aead | undefined;

/** The engine of this runtime, chosen on first use (never at import): Node's crypto where it can, else WebCrypto. */
export function runtimeAead(): Aead {
  if (chosen === undefined) {
    const node = nodeCrypto();
    chosen = node ? nodeAead(node) : webCryptoAead;
  }
  return chosen;
}
