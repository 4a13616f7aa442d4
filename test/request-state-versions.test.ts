/**
 * The `requestState` formats. A `v3.` state binds the request it belongs to (the method, and its
 * name and arguments) as AES-GCM additional data: a round costs one WebCrypto call (the seal, then
 * the open) and no digest, and the state fails to open with the one opaque answer on another
 * method, with other arguments, for another principal, tampered or expired. A `v2.` state of the
 * previous version (the request's SHA-256 digest inside the payload), sealed here with Node's own
 * crypto as that version did, still opens with its digest checked, until it expires. Raw modern
 * requests on h3 v2 and h3 v1. On Node the call is Node's own cipher, not WebCrypto's (aead.ts).
 */
import { createCipheriv, createHash, hkdfSync, randomBytes } from "node:crypto";
import { afterEach, describe, expect, it, vi } from "vitest";
import { z } from "zod";
import { defineMcpHandler, definePrompt, defineTool, type McpHandlerOptions } from "../src/index.ts";
import { bearer, staticAuth } from "./helpers/auth.ts";
import { HOSTS, startHost, type HostName, type RunningHost } from "./helpers/hosts.ts";
import { textOf } from "./helpers/results.ts";
import { POST_HEADERS, expectError, single, toAnswer, type Answer } from "./helpers/rpc.ts";

const SECRET = "the requestState secret of the versions test";
const ARGS = { order: "o-17" };
const CONFIRM = { confirm: { action: "accept", content: { ok: true } } };
const CONFIRM_FORM = z.object({ ok: z.boolean() });

/** A tool and a prompt of the same name and arguments, each asking for one confirmation. */
function server(options: Partial<McpHandlerOptions>, effects: string[]) {
  return defineMcpHandler({
    name: "versions",
    version: "1.0.0",
    requestState: { secret: SECRET },
    ...options,
    tools: [
      defineTool({
        name: "approve",
        description: "Asks for a confirmation",
        input: z.object({ order: z.string() }),
        handler: async (event, { order }) => {
          effects.push(`tool:${order}`);
          const answer = await event.context.mcp!.elicit("confirm", "Confirm?", CONFIRM_FORM);
          effects.push(`tool:done:${order}`);
          return `${answer.action} ${order}`;
        },
      }),
    ],
    prompts: [
      definePrompt({
        name: "approve",
        arguments: [{ name: "order", required: true }],
        handler: async (event, { order }) => {
          effects.push(`prompt:${order}`);
          await event.context.mcp!.elicit("confirm", "Confirm?", CONFIRM_FORM);
          effects.push(`prompt:done:${order}`);
          return `prompt ${order}`;
        },
      }),
    ],
  });
}

let nextId = 1;
/** A modern `tools/call` (or `prompts/get`) of `approve`, with a bearer token when given. */
function call(
  url: string,
  extra: Record<string, unknown> = {},
  { method = "tools/call", args = ARGS, token }: { method?: string; args?: object; token?: string } = {},
): Promise<Answer> {
  const meta = {
    "io.modelcontextprotocol/protocolVersion": "2026-07-28",
    "io.modelcontextprotocol/clientCapabilities": { elicitation: {} },
  };
  const message = {
    jsonrpc: "2.0",
    id: nextId++,
    method,
    params: { name: "approve", arguments: args, _meta: meta, ...extra },
  };
  const headers = {
    ...POST_HEADERS,
    ...(token ? bearer(token) : {}),
    "mcp-protocol-version": "2026-07-28",
    "mcp-method": method,
    "mcp-name": "approve",
  };
  return fetch(url, { method: "POST", headers, body: JSON.stringify(message) }).then(toAnswer);
}

async function firstRound(url: string, options?: Parameters<typeof call>[2]): Promise<string> {
  const answer = await call(url, {}, options);
  const result = single(answer).result!;
  expect(result.resultType, answer.text).toBe("input_required");
  return result.requestState as string;
}

function expectInvalid(answer: Answer): void {
  const error = expectError(answer, 200, -32602, "Invalid or expired requestState");
  expect(error.data).toEqual({ reason: "invalid_request_state" });
}

/**
 * A state in the `v2.` format, sealed as the previous version sealed it: AES-256-GCM under the key
 * HKDF-SHA-256 derives from the secret, the bare version as additional data, the request's digest
 * (SHA-256 of the method, a newline and the canonical JSON of its name and arguments) in the payload.
 */
function sealV2(payload: Record<string, unknown>): string {
  const key = Buffer.from(hkdfSync("sha256", SECRET, "mcp-h3 requestState", "mcp-h3 requestState v2 AES-256-GCM", 32));
  const iv = randomBytes(12);
  const cipher = createCipheriv("aes-256-gcm", key, iv);
  cipher.setAAD(Buffer.from("v2"));
  const sealed = Buffer.concat([cipher.update(JSON.stringify(payload)), cipher.final(), cipher.getAuthTag()]);
  return `v2.${Buffer.concat([iv, sealed]).toString("base64url")}`;
}

/** The v2 digest of a `tools/call` of `approve` with `args` (one key: JSON.stringify is canonical). */
function v2DigestOf(args: Record<string, string>): string {
  const canonical = `{"arguments":${JSON.stringify(args)},"name":"approve"}`;
  return createHash("sha256").update(`tools/call\n${canonical}`).digest("base64url");
}

function v2Payload(overrides: Record<string, unknown> = {}): Record<string, unknown> {
  return { state: null, exp: Date.now() + 60_000, principal: null, digest: v2DigestOf(ARGS), rounds: 1, ...overrides };
}

describe.each(HOSTS)("requestState formats on %s", (host: HostName) => {
  const running: RunningHost[] = [];
  afterEach(async () => {
    vi.restoreAllMocks();
    for (const item of running.splice(0)) await item.close();
  });
  async function start(options: Partial<McpHandlerOptions> = {}, effects: string[] = []): Promise<string> {
    const started = await startHost(host, server(options, effects));
    running.push(started);
    return started.url;
  }

  it("v3: each round costs one AES-GCM call of Node's crypto (seal, then open), no WebCrypto call and no digest", async () => {
    const url = await start();
    await firstRound(url); // the key is derived once, before counting
    const builtin = process.getBuiltinModule("crypto");
    const spies = [
      vi.spyOn(builtin, "createCipheriv"),
      vi.spyOn(builtin, "createDecipheriv"),
      ...(["encrypt", "decrypt", "digest"] as const).map((name) => vi.spyOn(crypto.subtle, name)),
    ];
    const counts = (): number[] => spies.map((spy) => spy.mock.calls.length);
    const state = await firstRound(url);
    expect(state).toMatch(/^v3\.[A-Za-z0-9_-]+$/);
    expect(counts()).toEqual([1, 0, 0, 0, 0]);
    const retry = single(await call(url, { requestState: state, inputResponses: CONFIRM }));
    expect(textOf(retry.result!)).toBe("accept o-17");
    expect(counts()).toEqual([1, 1, 0, 0, 0]);
  });

  it("v3: refused on another method, with other arguments, tampered or expired; the handler does not run", async () => {
    const effects: string[] = [];
    const url = await start({}, effects);
    const state = await firstRound(url);
    const retry = { requestState: state, inputResponses: CONFIRM };
    // The same name and arguments, under another method.
    expectInvalid(await call(url, retry, { method: "prompts/get" }));
    expectInvalid(await call(url, retry, { args: { order: "o-18" } }));
    const bytes = Buffer.from(state.slice(3), "base64url");
    bytes[bytes.length - 20] ^= 0x01;
    expectInvalid(await call(url, { ...retry, requestState: `v3.${bytes.toString("base64url")}` }));
    // The v3 bytes under the v2 prefix: the additional data differs.
    expectInvalid(await call(url, { ...retry, requestState: `v2.${state.slice(3)}` }));
    expect(effects).toEqual(["tool:o-17"]);
    // The genuine retry still opens, and only then does the handler finish.
    expect(textOf(single(await call(url, retry)).result!)).toBe("accept o-17");

    const shortLived = await start({ requestState: { secret: SECRET, ttlMs: 1 } }, effects);
    const expiring = await firstRound(shortLived);
    await new Promise((resolve) => setTimeout(resolve, 20));
    expectInvalid(await call(shortLived, { requestState: expiring, inputResponses: CONFIRM }));
    expect(effects.filter((effect) => effect.startsWith("tool:done"))).toEqual(["tool:done:o-17"]);
  });

  it("v3: refused to another principal", async () => {
    const url = await start({ auth: staticAuth() });
    const state = await firstRound(url, { token: "alice-token" });
    const retry = { requestState: state, inputResponses: CONFIRM };
    expectInvalid(await call(url, retry, { token: "bob-token" }));
    expect(textOf(single(await call(url, retry, { token: "alice-token" })).result!)).toBe("accept o-17");
  });

  it("v2: a state of the previous format still opens, with its digest checked", async () => {
    const effects: string[] = [];
    const url = await start({}, effects);
    const answer = (requestState: string, args: object = ARGS) =>
      call(url, { requestState, inputResponses: CONFIRM }, { args });
    expect(textOf(single(await answer(sealV2(v2Payload()))).result!)).toBe("accept o-17");
    // The digest still binds it to its request: other arguments, or a digest of another request.
    expectInvalid(await answer(sealV2(v2Payload()), { order: "o-18" }));
    expectInvalid(await answer(sealV2(v2Payload({ digest: v2DigestOf({ order: "o-18" }) }))));
    expectInvalid(await answer(sealV2(v2Payload({ digest: undefined }))));
    // Expired, issued to a principal, or sealed with another secret.
    expectInvalid(await answer(sealV2(v2Payload({ exp: Date.now() - 1 }))));
    expectInvalid(await answer(sealV2(v2Payload({ principal: "alice" }))));
    const forged = Buffer.from(sealV2(v2Payload()).slice(3), "base64url");
    forged[20] ^= 0x01;
    expectInvalid(await answer(`v2.${forged.toString("base64url")}`));
    expect(effects).toEqual(["tool:o-17", "tool:done:o-17"]);
  });
});
