/**
 * Where the requestState keys come from: the option (one secret or a rotation list), else
 * MCP_REQUEST_STATE_SECRET read on first use, else a random key per instance with one warning
 * per process. The first key seals; any key opens. Keys are derived once per secret (HKDF, a
 * bounded cache), never per request; a malformed or oversize token costs no crypto work.
 */
import { afterEach, describe, expect, it, vi } from "vitest";
import { requestStateSecrets } from "../../src/engine/request-state-secrets.ts";
import { runtimeAead } from "../../src/modern/mrtr/aead-node.ts";
import { cachedSecretCount } from "../../src/modern/mrtr/request-state-keys.ts";
import { MAX_REQUEST_STATE_LENGTH, RequestStateCodec } from "../../src/modern/mrtr/request-state.ts";

const OLD = "the old shared secret of at least 32 bytes";
const NEW = "the new shared secret of at least 32 bytes";
const payload = () => ({ state: { step: 1 }, exp: Date.now() + 60_000, rounds: 1 });

afterEach(() => {
  vi.unstubAllEnvs();
  vi.restoreAllMocks();
});

describe("requestState secrets", () => {
  it("seals with the first secret of a list and opens with any", async () => {
    const old = new RequestStateCodec(requestStateSecrets(OLD), 60_000);
    const rotated = new RequestStateCodec(requestStateSecrets([NEW, OLD]), 60_000);
    const signedOld = await old.seal(payload() as never, "d");
    const signedNew = await rotated.seal(payload() as never, "d");
    expect(await rotated.open(signedOld, undefined, "d")).toMatchObject({ state: { step: 1 } });
    expect(await rotated.open(signedNew, undefined, "d")).toMatchObject({ state: { step: 1 } });
    // An instance that knows only the old secret cannot read what the new one sealed.
    expect(await old.open(signedNew, undefined, "d")).toBeUndefined();
  });

  it("refuses a secret shorter than 32 bytes when the handler is built", () => {
    expect(() => requestStateSecrets("short")).toThrow(/requestState.secret must be at least 32 bytes/);
    expect(() => requestStateSecrets([NEW, "short"])).toThrow(/at least 32 bytes/);
  });

  it("reads MCP_REQUEST_STATE_SECRET on first use, not before, comma-separated for rotation", async () => {
    const secrets = requestStateSecrets(undefined);
    vi.stubEnv("MCP_REQUEST_STATE_SECRET", ` ${NEW} , ${OLD} `);
    const fromEnv = new RequestStateCodec(secrets, 60_000);
    const old = new RequestStateCodec(requestStateSecrets(OLD), 60_000);
    expect(await fromEnv.open(await old.seal(payload() as never, "d"), undefined, "d")).toBeDefined();
    const byNew = new RequestStateCodec(requestStateSecrets(NEW), 60_000);
    expect(await byNew.open(await fromEnv.seal(payload() as never, "d"), undefined, "d")).toBeDefined();
  });

  it("a short secret in the environment fails the request that first needs it, with a clear message", () => {
    vi.stubEnv("MCP_REQUEST_STATE_SECRET", "short");
    const secrets = requestStateSecrets(undefined);
    expect(() => secrets()).toThrow(/each secret of MCP_REQUEST_STATE_SECRET must be at least 32 bytes/);
  });

  it("without any secret, warns once per process what breaks with more than one instance", async () => {
    vi.resetModules();
    const keys = await import("../../src/modern/mrtr/request-state-keys.ts");
    const warn = vi.spyOn(console, "warn").mockImplementation(() => {});
    await new keys.RequestStateKeys(() => [], runtimeAead).all();
    await new keys.RequestStateKeys(() => [], runtimeAead).all();
    await new keys.RequestStateKeys(() => [new TextEncoder().encode(NEW)], runtimeAead).all();
    expect(warn).toHaveBeenCalledTimes(1);
    expect(String(warn.mock.calls[0]![0])).toMatch(/another one fails with "Invalid or expired requestState"/);
  });

  it("derives a secret's key once, whatever the number of codecs and requests, and keeps at most 32 secrets", async () => {
    // Node's engine keeps the derived bits (deriveBits), WebCrypto's a CryptoKey (deriveKey).
    const derive = vi.spyOn(crypto.subtle, runtimeAead().name === "node" ? "deriveBits" : "deriveKey");
    const secret = `a secret of this test only, ${crypto.randomUUID()}`;
    for (let i = 0; i < 3; i++) {
      const codec = new RequestStateCodec(requestStateSecrets(secret), 60_000);
      for (let j = 0; j < 5; j++)
        expect(await codec.open(await codec.seal(payload() as never, "d"), undefined, "d")).toBeDefined();
    }
    expect(derive).toHaveBeenCalledTimes(1);
    for (let i = 0; i < 40; i++) {
      await new RequestStateCodec(requestStateSecrets(`secret number ${i} of many, ${crypto.randomUUID()}`), 1).seal(
        payload() as never,
        "d",
      );
    }
    expect(derive).toHaveBeenCalledTimes(41);
    expect(cachedSecretCount()).toBeLessThanOrEqual(32);
  });

  it("refuses a malformed, oversize or old-format token before any crypto work", async () => {
    const codec = new RequestStateCodec(requestStateSecrets([NEW, OLD]), 60_000);
    const good = await codec.seal(payload() as never, "d");
    // Node's crypto opens on Node (aead.ts); WebCrypto is counted too, in case.
    const builtin = process.getBuiltinModule("crypto");
    const spies = [vi.spyOn(builtin, "createDecipheriv"), vi.spyOn(crypto.subtle, "decrypt")];
    const decrypt = { calls: () => spies[0]!.mock.calls.length + spies[1]!.mock.calls.length };
    const body = good.slice(3);
    const refused = [
      42,
      null,
      { good },
      `v3.${"A".repeat(MAX_REQUEST_STATE_LENGTH)}`,
      `v2.${"A".repeat(MAX_REQUEST_STATE_LENGTH)}`,
      `v1.${body}`,
      `V3.${body}`,
      `v4.${body}`,
      `${body}`,
      `v3.${body}.x`,
      `v3.${body}=`,
      `v3.${body.replace(/.$/, "+")}`,
      `v2.${body}.x`,
      "v3.",
      "v2.",
      `v3.${"A".repeat(38)}`, // 28 bytes: an IV and a tag, nothing sealed
      `v2.${"A".repeat(38)}`,
      "",
    ];
    for (const token of refused) expect(await codec.open(token, undefined, "d")).toBeUndefined();
    expect(decrypt.calls()).toBe(0);
    // A well-formed forgery costs one attempt per key, no more.
    const forged = Buffer.from(crypto.getRandomValues(new Uint8Array(64))).toString("base64url");
    expect(await codec.open(`v3.${forged}`, undefined, "d")).toBeUndefined();
    expect(decrypt.calls()).toBe(2);
    expect(await codec.open(`v2.${forged}`, undefined, "d")).toBeUndefined();
    expect(decrypt.calls()).toBe(4);
    expect(await codec.open(good, undefined, "d")).toBeDefined();
  });

  it("the key is derived for this purpose: the secret itself, used as an AES-GCM key, opens nothing", async () => {
    const secret = new TextEncoder().encode(NEW).subarray(0, 32);
    const codec = new RequestStateCodec(requestStateSecrets(secret), 60_000);
    const raw = await crypto.subtle.importKey("raw", secret, "AES-GCM", false, ["encrypt"]);
    const plaintext = new TextEncoder().encode(JSON.stringify({ ...payload(), digest: "d" }));
    for (const [version, additional] of [
      ["v3", "v3\nd"],
      ["v2", "v2"],
    ] as const) {
      const iv = crypto.getRandomValues(new Uint8Array(12));
      const additionalData = new TextEncoder().encode(additional);
      const sealed = new Uint8Array(
        await crypto.subtle.encrypt({ name: "AES-GCM", iv, additionalData }, raw, plaintext),
      );
      const token = `${version}.${Buffer.concat([iv, sealed]).toString("base64url")}`;
      expect(await codec.open(token, undefined, "d"), version).toBeUndefined();
    }
    expect(await codec.open(await codec.seal(payload() as never, "d"), undefined, "d")).toBeDefined();
  });
});
