/**
 * Node's AES-256-GCM engine for `requestState` (see aead.ts), loaded through the package's
 * `#request-state-aead` import under the `node` condition (Node, Bun, Deno).
 *
 * Why it exists: WebCrypto runs every encrypt and decrypt as a job on Node's thread pool and settles
 * a promise from there, measured at ~83 µs a call under load at concurrency 32 (272 µs alone), while
 * Node's own synchronous cipher takes a few µs; a multi round-trip call seals once and opens once
 * (`mrtr_vs_tools_call` 0.08–0.11 with WebCrypto, 0.20–0.24 with this, docs/reference/benchmarks.md).
 * Node's crypto is asked of the runtime (`process.getBuiltinModule`), not imported: a bundler that
 * picks this file for a runtime without it still gets a module that loads, and falls back to WebCrypto.
 */
import { KEY_BITS, TAG_BYTES, hkdf, hkdfMaterial, webCryptoAead, type Aead } from "./aead.ts";

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
