/**
 * The two AES-256-GCM engines of `requestState` (src/modern/mrtr/aead.ts): Node's own crypto, which
 * Node hands out through `process.getBuiltinModule`, and WebCrypto, for runtimes without it. They
 * derive the same key bits and write the same bytes (IV, ciphertext, tag), checked here against
 * Node's crypto used directly; so a state sealed by either opens with the other, `v3.` and `v2.`
 * alike, and both refuse a tampered state, another request, another principal and another key, with
 * rotation working across them. Node's engine costs one cipher per seal and one per key tried, and
 * no WebCrypto call.
 */
import { createCipheriv, createHash, hkdfSync, randomBytes } from "node:crypto";
import { afterEach, describe, expect, it, vi } from "vitest";
import { requestStateSecrets } from "../../src/engine/request-state-secrets.ts";
import { webCryptoAead, type Aead } from "../../src/modern/mrtr/aead.ts";
import { runtimeAead } from "../../src/modern/mrtr/aead-node.ts";
import { RequestStateCodec, type StatePayload } from "../../src/modern/mrtr/request-state.ts";

const OLD = "the old secret of the AES-GCM engines test, 32 bytes or more";
const NEW = "the new secret of the AES-GCM engines test, 32 bytes or more";
const SALT = new TextEncoder().encode("mcp-h3 requestState");
const INFO = new TextEncoder().encode("mcp-h3 requestState v2 AES-256-GCM");
const BINDING = 'tools/call\n{"arguments":{"order":"o-17"},"name":"approve"}';

/** Node's crypto module as the library reaches it (the object a spy has to patch). */
const builtinCrypto = process.getBuiltinModule("crypto");
const node = runtimeAead();
const ENGINES: [string, Aead][] = [
  ["node", node],
  ["webcrypto", webCryptoAead],
];
const PAIRS = ENGINES.flatMap(([sealer, sealing]) =>
  ENGINES.map(([opener, opening]) => [sealer, opener, sealing, opening] as const),
);

function codec(aead: Aead, secrets: string | string[] = NEW, ttlMs = 60_000): RequestStateCodec {
  return new RequestStateCodec(requestStateSecrets(secrets), ttlMs, 64, aead);
}

function payload(overrides: Partial<StatePayload> = {}): StatePayload {
  return { state: { order: "o-17", step: 2 }, exp: Date.now() + 60_000, principal: "alice", rounds: 1, ...overrides };
}

/** A v2 state as the version that issued them sealed it: the bare version as additional data, the request's digest inside. */
function sealV2(secret: string, binding: string): string {
  const key = Buffer.from(hkdfSync("sha256", secret, SALT, INFO, 32));
  const iv = randomBytes(12);
  const cipher = createCipheriv("aes-256-gcm", key, iv);
  cipher.setAAD(Buffer.from("v2"));
  const digest = createHash("sha256").update(binding).digest("base64url");
  const plaintext = JSON.stringify({ state: { v: 2 }, exp: Date.now() + 60_000, principal: null, digest, rounds: 1 });
  const sealed = Buffer.concat([cipher.update(plaintext), cipher.final(), cipher.getAuthTag()]);
  return `v2.${Buffer.concat([iv, sealed]).toString("base64url")}`;
}

afterEach(() => {
  vi.restoreAllMocks();
});

describe("requestState's AES-GCM engines", () => {
  it("on Node, Node's own crypto seals and opens", () => {
    expect(node.name).toBe("node");
  });

  it("both derive the key HKDF-SHA-256 gives and write Node's AES-256-GCM bytes: the ciphertext, then the tag", async () => {
    const secret = new TextEncoder().encode(NEW);
    const reference = Buffer.from(hkdfSync("sha256", secret, SALT, INFO, 32));
    const iv = randomBytes(12);
    const plaintext = new TextEncoder().encode(JSON.stringify(payload()));
    const additionalData = new TextEncoder().encode(`v3\n${BINDING}`);
    const cipher = createCipheriv("aes-256-gcm", reference, iv);
    cipher.setAAD(additionalData);
    const expected = Buffer.concat([cipher.update(plaintext), cipher.final(), cipher.getAuthTag()]);
    expect(Buffer.from((await node.deriveKey(secret, SALT, INFO)) as Uint8Array)).toEqual(reference);
    for (const [name, aead] of ENGINES) {
      const key = await aead.deriveKey(secret, SALT, INFO);
      const sealed = await aead.seal(key, iv, plaintext, additionalData);
      expect(Buffer.from(sealed), name).toEqual(expected);
      expect(await aead.open(key, iv, expected, additionalData), name).toEqual(plaintext);
      // One bit of the tag, of the ciphertext, of the additional data: nothing comes back.
      for (const at of [expected.length - 1, 0]) {
        const tampered = Uint8Array.from(expected);
        tampered[at]! ^= 0x01;
        expect(await aead.open(key, iv, tampered, additionalData), `${name} ${at}`).toBeUndefined();
      }
      expect(await aead.open(key, iv, expected, new TextEncoder().encode(`v3\n${BINDING} `)), name).toBeUndefined();
      expect(await aead.open(key, iv, expected.subarray(0, 15), additionalData), name).toBeUndefined();
    }
  });

  it.each(PAIRS)("a v3 state sealed by %s opens with %s, for its request and principal only", async (...pair) => {
    const [, , sealing, opening] = pair;
    const token = await codec(sealing).seal(payload(), BINDING);
    expect(token).toMatch(/^v3\.[A-Za-z0-9_-]+$/);
    const opener = codec(opening);
    expect(await opener.open(token, "alice", BINDING)).toMatchObject({ state: { order: "o-17", step: 2 }, rounds: 1 });
    expect(await opener.open(token, "alice", BINDING.replace("o-17", "o-18"))).toBeUndefined();
    expect(await opener.open(token, "bob", BINDING)).toBeUndefined();
    expect(await opener.open(token, undefined, BINDING)).toBeUndefined();
    const bytes = Buffer.from(token.slice(3), "base64url");
    for (const at of [0, 12, bytes.length - 1]) {
      const tampered = Buffer.from(bytes);
      tampered[at]! ^= 0x01;
      expect(await opener.open(`v3.${tampered.toString("base64url")}`, "alice", BINDING), `byte ${at}`).toBeUndefined();
    }
    // The v3 bytes under the v2 prefix: the additional data differs.
    expect(await opener.open(`v2.${token.slice(3)}`, "alice", BINDING)).toBeUndefined();
    // Another secret opens nothing.
    expect(await codec(opening, OLD).open(token, "alice", BINDING)).toBeUndefined();
    const expired = await codec(sealing).seal(payload({ exp: Date.now() - 1 }), BINDING);
    expect(await opener.open(expired, "alice", BINDING)).toBeUndefined();
  });

  it.each(ENGINES)("a v2 state still opens with %s, for the request of its digest only", async (_name, aead) => {
    const opener = codec(aead);
    expect(await opener.open(sealV2(NEW, BINDING), undefined, BINDING)).toMatchObject({ state: { v: 2 } });
    expect(await opener.open(sealV2(NEW, BINDING), undefined, `${BINDING} `)).toBeUndefined();
    expect(await opener.open(sealV2(NEW, BINDING), "alice", BINDING)).toBeUndefined();
    expect(await opener.open(sealV2(OLD, BINDING), undefined, BINDING)).toBeUndefined();
    const forged = Buffer.from(sealV2(NEW, BINDING).slice(3), "base64url");
    forged[20]! ^= 0x01;
    expect(await opener.open(`v2.${forged.toString("base64url")}`, undefined, BINDING)).toBeUndefined();
  });

  it.each(PAIRS)(
    "rotation across engines: sealed by %s with the old secret, opened by %s with [new, old]",
    async (...pair) => {
      const [, , sealing, opening] = pair;
      const oldToken = await codec(sealing, OLD).seal(payload(), BINDING);
      const rotated = codec(opening, [NEW, OLD]);
      expect(await rotated.open(oldToken, "alice", BINDING)).toBeDefined();
      const newToken = await rotated.seal(payload(), BINDING);
      expect(await codec(sealing, NEW).open(newToken, "alice", BINDING)).toBeDefined();
      // An instance that knows only the old secret cannot read what the rotated one sealed.
      expect(await codec(sealing, OLD).open(newToken, "alice", BINDING)).toBeUndefined();
    },
  );

  it("Node's engine: one cipher per seal, one decipher per key tried, no WebCrypto call per state", async () => {
    const rotated = codec(node, [NEW, OLD]);
    const old = await codec(node, OLD).seal(payload(), BINDING);
    await rotated.seal(payload(), BINDING); // the keys are derived once, before counting
    const spies = [
      vi.spyOn(builtinCrypto, "createCipheriv"),
      vi.spyOn(builtinCrypto, "createDecipheriv"),
      vi.spyOn(crypto.subtle, "encrypt"),
      vi.spyOn(crypto.subtle, "decrypt"),
      vi.spyOn(crypto.subtle, "deriveBits"),
    ];
    const counts = (): number[] => spies.map((spy) => spy.mock.calls.length);
    const token = await rotated.seal(payload(), BINDING);
    expect(counts()).toEqual([1, 0, 0, 0, 0]);
    expect(await rotated.open(token, "alice", BINDING)).toBeDefined();
    expect(counts()).toEqual([1, 1, 0, 0, 0]);
    // A state of the second key: the first is tried, then the second.
    expect(await rotated.open(old, "alice", BINDING)).toBeDefined();
    expect(counts()).toEqual([1, 3, 0, 0, 0]);
  });

  it("without Node's crypto, or with one lacking AES-256-GCM, WebCrypto seals", async () => {
    const getBuiltinModule = process.getBuiltinModule;
    const runtimes: [string, unknown][] = [
      ["no getBuiltinModule", undefined],
      ["no crypto module", () => undefined],
      [
        "no AES-GCM",
        () => ({
          ...builtinCrypto,
          createCipheriv: () => {
            throw new Error("not implemented");
          },
        }),
      ],
    ];
    try {
      for (const [runtime, replacement] of runtimes) {
        Object.assign(process, { getBuiltinModule: replacement });
        vi.resetModules();
        const fresh = await import("../../src/modern/mrtr/aead-node.ts");
        expect(fresh.runtimeAead().name, runtime).toBe("webcrypto");
      }
      Object.assign(process, { getBuiltinModule });
      vi.resetModules();
      expect((await import("../../src/modern/mrtr/aead-node.ts")).runtimeAead().name).toBe("node");
    } finally {
      Object.assign(process, { getBuiltinModule });
    }
  });
});
