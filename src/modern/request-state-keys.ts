/**
 * The HMAC keys of `requestState`: the first signs, every one verifies, so a secret can be rotated
 * (add the new one first, drop the old one once states signed with it have expired). Without a
 * secret each instance draws a random key of its own, and says once what that breaks.
 */

/** What an instance without a shared secret cannot do, said once per process. */
const NO_SHARED_SECRET_WARNING =
  "mcp-h3: no requestState secret is set (requestState.secret or MCP_REQUEST_STATE_SECRET), so this instance " +
  "signs multi round-trip state with a random key of its own. With more than one instance or isolate, a retry " +
  'that reaches another one fails with "Invalid or expired requestState": give every instance the same secret.';

let warnedAboutRandomKey = false;

function importKey(secret: Uint8Array): Promise<CryptoKey> {
  return crypto.subtle.importKey("raw", secret as Uint8Array<ArrayBuffer>, { name: "HMAC", hash: "SHA-256" }, false, [
    "sign",
    "verify",
  ]);
}

export class RequestStateKeys {
  readonly #secrets: () => readonly Uint8Array[];
  #keys: Promise<CryptoKey[]> | undefined;

  /** `secrets` is read on first use, inside a request (nothing is read or drawn at construction). */
  constructor(secrets: () => readonly Uint8Array[]) {
    this.#secrets = secrets;
  }

  /** Every key, the signing one first; imported on first use, then kept. */
  all(): Promise<CryptoKey[]> {
    return (this.#keys ??= this.#import());
  }

  async signing(): Promise<CryptoKey> {
    return (await this.all())[0]!;
  }

  #import(): Promise<CryptoKey[]> {
    const secrets = this.#secrets();
    if (secrets.length > 0) return Promise.all(secrets.map(importKey));
    if (!warnedAboutRandomKey) {
      warnedAboutRandomKey = true;
      console.warn(NO_SHARED_SECRET_WARNING);
    }
    return importKey(crypto.getRandomValues(new Uint8Array(32))).then((key) => [key]);
  }
}
