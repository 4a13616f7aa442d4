/**
 * Nothing random, timed or read from the environment while the library loads or a handler is built:
 * a Worker refuses random values and timers in its global scope, and Deno without --allow-env throws
 * on an environment read. Here those calls throw during import and construction; the values are then
 * drawn on first use, inside a request, and kept. An environment that throws inside a request counts
 * as unset.
 */
import { afterEach, describe, expect, it, vi } from "vitest";

type Index = typeof import("../../src/index.ts");

const INITIALIZE = {
  jsonrpc: "2.0",
  id: 1,
  method: "initialize",
  params: { protocolVersion: "2025-11-25", capabilities: {}, clientInfo: { name: "raw", version: "1" } },
};

const restores: (() => void)[] = [];
afterEach(() => {
  while (restores.length > 0) restores.pop()!();
});

/** Replaces `target[name]` (where it is defined: on the object or a prototype) with a function that throws, until the test ends. */
function forbid(target: object, name: string, calls: string[]): void {
  let owner = target;
  while (!Object.hasOwn(owner, name)) owner = Object.getPrototypeOf(owner);
  const descriptor = Object.getOwnPropertyDescriptor(owner, name)!;
  Object.defineProperty(owner, name, {
    ...descriptor,
    value: () => {
      calls.push(name);
      throw new Error(`${name} is not allowed in global scope`);
    },
  });
  restores.push(() => Object.defineProperty(owner, name, descriptor));
}

/** `process.env` that throws on every read, as Deno's does without --allow-env. Returns the undo. */
function refuseEnvironment(reads: string[]): () => void {
  const env = Object.getOwnPropertyDescriptor(process, "env")!;
  const refusing = new Proxy(
    {},
    {
      get(_target, key) {
        // The test runner reads its own variables meanwhile; every other read throws.
        if (typeof key !== "string" || /^(NODE_|VITEST|TINYPOOL|FORCE_COLOR|NO_COLOR|CI$)/.test(key))
          return env.value[key];
        reads.push(String(key));
        throw new Error(`Requires env access to "${String(key)}", run again with the --allow-env flag`);
      },
    },
  );
  Object.defineProperty(process, "env", { ...env, value: refusing });
  const undo = () => Object.defineProperty(process, "env", env);
  restores.push(undo);
  return undo;
}

function post(body: unknown, headers: Record<string, string> = {}): Request {
  return new Request("http://localhost/mcp", {
    method: "POST",
    headers: { "content-type": "application/json", accept: "application/json, text/event-stream", ...headers },
    body: JSON.stringify(body),
  });
}

describe("startup side effects", () => {
  it("importing and building handlers draws no random value, starts no timer and reads no environment", async () => {
    const calls: string[] = [];
    const envReads: string[] = [];
    forbid(crypto, "randomUUID", calls);
    forbid(crypto, "getRandomValues", calls);
    forbid(Math, "random", calls);
    forbid(globalThis, "setTimeout", calls);
    forbid(globalThis, "setInterval", calls);
    const allowEnvironment = refuseEnvironment(envReads);
    vi.resetModules();
    const { defineMcpFetchHandler, defineMcpHandler, defineTool }: Index = await import("../../src/index.ts");
    const tools = [defineTool({ name: "noop", description: "Does nothing", handler: () => "ok" })];
    const fetchHandler = defineMcpFetchHandler({ name: "startup", version: "1.0.0", tools });
    const eventHandler = defineMcpHandler({ name: "startup", version: "1.0.0", tools, sessions: { ttlMs: 60_000 } });
    expect(calls).toEqual([]);
    expect(envReads).toEqual([]);
    while (restores.length > 0) restores.pop()!();
    void allowEnvironment;

    // The first request draws what it needs: a session id, this process's stream instance.
    const uuid = vi.spyOn(crypto, "randomUUID");
    const answer = await fetchHandler.fetch(post(INITIALIZE));
    expect(answer.status).toBe(200);
    expect(answer.headers.get("mcp-session-id")).toEqual(expect.any(String));
    expect(uuid).toHaveBeenCalled();
    uuid.mockRestore();
    await fetchHandler.close();
    await eventHandler.close?.();
  });

  it("the random request-state key is drawn on first use and kept", async () => {
    const { RequestStateCodec } = await import("../../src/modern/mrtr/request-state.ts");
    const calls: string[] = [];
    forbid(crypto, "getRandomValues", calls);
    forbid(crypto.subtle, "generateKey", calls);
    const codec = new RequestStateCodec(() => [], 60_000);
    expect(calls).toEqual([]);
    restores.pop()!();
    restores.pop()!();
    // A key is 32 random bytes for Node's crypto (aead.ts), a generated CryptoKey for WebCrypto; an IV is 12.
    const random = vi.spyOn(crypto, "getRandomValues");
    const generate = vi.spyOn(crypto.subtle, "generateKey");
    const draws = (): number =>
      random.mock.calls.filter(([array]) => (array as Uint8Array).length === 32).length + generate.mock.calls.length;
    const payload = { state: { step: 1 }, exp: Date.now() + 60_000, rounds: 1 };
    const first = await codec.seal(payload, "d");
    const second = await codec.seal(payload, "d");
    expect(draws()).toBe(1);
    random.mockRestore();
    generate.mockRestore();
    // One key, a fresh IV per token: the same state seals differently, and both open.
    expect(second).not.toBe(first);
    expect((await codec.open(first, undefined, "d"))?.state).toEqual({ step: 1 });
    expect((await codec.open(second, undefined, "d"))?.state).toEqual({ step: 1 });
  });

  it("an environment that throws when a request reads it counts as unset: loopback only", async () => {
    const { defineMcpFetchHandler }: Index = await import("../../src/index.ts");
    const handler = defineMcpFetchHandler({ name: "no-env", version: "1.0.0" });
    const reads: string[] = [];
    refuseEnvironment(reads);
    const foreign = await handler.fetch(post(INITIALIZE, { origin: "https://app.example.com" }));
    expect(reads).toEqual(expect.arrayContaining(["MCP_ALLOWED_ORIGINS"]));
    expect(foreign.status).toBe(403);
    const local = await handler.fetch(post(INITIALIZE, { origin: "http://localhost:3000" }));
    expect(local.status).toBe(200);
    await handler.close();
  });
});
