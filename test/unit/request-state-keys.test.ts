/**
 * Where the requestState keys come from: the option (one secret or a rotation list), else
 * MCP_REQUEST_STATE_SECRET read on first use, else a random key per instance with one warning
 * per process. The first key signs; any key verifies.
 */
import { afterEach, describe, expect, it, vi } from "vitest";
import { requestStateSecrets } from "../../src/engine/request-state-secrets.ts";
import { RequestStateCodec } from "../../src/modern/request-state.ts";

const OLD = "the old shared secret of at least 32 bytes";
const NEW = "the new shared secret of at least 32 bytes";
const payload = () => ({ state: { step: 1 }, exp: Date.now() + 60_000, rounds: 1, principal: null, digest: "d" });

afterEach(() => {
  vi.unstubAllEnvs();
  vi.restoreAllMocks();
});

describe("requestState secrets", () => {
  it("signs with the first secret of a list and verifies with any", async () => {
    const old = new RequestStateCodec(requestStateSecrets(OLD), 60_000);
    const rotated = new RequestStateCodec(requestStateSecrets([NEW, OLD]), 60_000);
    const signedOld = await old.sign(payload() as never);
    const signedNew = await rotated.sign(payload() as never);
    expect(await rotated.verify(signedOld, null, "d")).toMatchObject({ state: { step: 1 } });
    expect(await rotated.verify(signedNew, null, "d")).toMatchObject({ state: { step: 1 } });
    // An instance that knows only the old secret cannot read what the new one signed.
    expect(await old.verify(signedNew, null, "d")).toBeUndefined();
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
    expect(await fromEnv.verify(await old.sign(payload() as never), null, "d")).toBeDefined();
    const byNew = new RequestStateCodec(requestStateSecrets(NEW), 60_000);
    expect(await byNew.verify(await fromEnv.sign(payload() as never), null, "d")).toBeDefined();
  });

  it("a short secret in the environment fails the request that first needs it, with a clear message", () => {
    vi.stubEnv("MCP_REQUEST_STATE_SECRET", "short");
    const secrets = requestStateSecrets(undefined);
    expect(() => secrets()).toThrow(/each secret of MCP_REQUEST_STATE_SECRET must be at least 32 bytes/);
  });

  it("without any secret, warns once per process what breaks with more than one instance", async () => {
    vi.resetModules();
    const keys = await import("../../src/modern/request-state-keys.ts");
    const warn = vi.spyOn(console, "warn").mockImplementation(() => {});
    await new keys.RequestStateKeys(() => []).all();
    await new keys.RequestStateKeys(() => []).all();
    await new keys.RequestStateKeys(() => [new TextEncoder().encode(NEW)]).all();
    expect(warn).toHaveBeenCalledTimes(1);
    expect(String(warn.mock.calls[0]![0])).toMatch(/another one fails with "Invalid or expired requestState"/);
  });
});
