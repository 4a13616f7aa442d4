/**
 * The AES-256-GCM engine of `requestState` where Node's crypto is not to be had (Workers, browsers):
 * WebCrypto alone (see aead.ts), loaded through the package's `#request-state-aead` import.
 */
import { webCryptoAead, type Aead } from "./aead.ts";

/** The engine of this runtime: WebCrypto. */
export function runtimeAead(): Aead {
  return webCryptoAead;
}
