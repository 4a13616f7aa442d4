/**
 * `requestState` is sealed, not only signed: a client holds the handler's `mcp.state` (here an
 * approval code) between the rounds of a multi round-trip call and must not be able to read it.
 * Whatever the client receives — the raw body, the token, each part of it decoded as base64 or
 * base64url — never contains the code, yet the retry still opens it. A flipped byte, a truncated
 * or reordered token, one sealed with another key or in the earlier signed-only `v1` format are
 * refused with the one opaque error; a rotated list opens what the old secret sealed. Raw modern
 * requests and the 2.x client in modern mode, on h3 v2 and h3 v1.
 */
import { createHmac } from "node:crypto";
import { afterEach, describe, expect, it, vi } from "vitest";
import { z } from "zod";
import { defineMcpHandler, defineTool, type McpHandlerOptions } from "../src/index.ts";
import { requestBinding } from "../src/modern/mrtr/request-binding.ts";
import { v2Digest } from "../src/modern/mrtr/request-state-v2.ts";
import { HOSTS, startHost, type HostName, type RunningHost } from "./helpers/hosts.ts";
import { MODERN_MODES, connectModern } from "./helpers/modern-clients.ts";
import { textOf } from "./helpers/results.ts";
import { expectError, postRaw, single, type Answer } from "./helpers/rpc.ts";

const APPROVAL_CODE = "APPROVAL-7Q2X-93KD-SECRET";
const SECRET_OLD = "the old requestState secret, 32 bytes or more";
const SECRET_NEW = "the new requestState secret, 32 bytes or more";
const INVALID = "Invalid or expired requestState";
const ARGS = { order: "o-17" };

/** Keeps the approval code in `mcp.state`, asks once, then says whether the state came back whole. */
function server(requestState: McpHandlerOptions["requestState"], effects: string[]) {
  return defineMcpHandler({
    name: "sealed",
    version: "1.0.0",
    requestState,
    tools: [
      defineTool({
        name: "approve",
        description: "Asks for a confirmation of a pending approval",
        input: z.object({ order: z.string() }),
        handler: async (event, { order }) => {
          const mcp = event.context.mcp!;
          const kept = mcp.state as { approval?: string } | undefined;
          mcp.state = { approval: kept?.approval ?? APPROVAL_CODE, order };
          effects.push(`round:${kept?.approval === undefined ? "first" : "retry"}`);
          const answer = await mcp.elicit("confirm", "Confirm?", z.object({ ok: z.boolean() }));
          const whole = kept?.approval === APPROVAL_CODE ? "state intact" : "state lost";
          effects.push(`done:${whole}`);
          return `${answer.action}, ${whole}`;
        },
      }),
    ],
  });
}

const META = {
  "io.modelcontextprotocol/protocolVersion": "2026-07-28",
  "io.modelcontextprotocol/clientCapabilities": { elicitation: {} },
};
const CONFIRM = { confirm: { action: "accept", content: { ok: true } } };

let nextId = 1;
function call(url: string, extra: Record<string, unknown> = {}): Promise<Answer> {
  const message = {
    jsonrpc: "2.0",
    id: nextId++,
    method: "tools/call",
    params: { name: "approve", arguments: ARGS, _meta: META, ...extra },
  };
  return postRaw(url, JSON.stringify(message), {
    "mcp-protocol-version": "2026-07-28",
    "mcp-method": "tools/call",
    "mcp-name": "approve",
  });
}

/** Every reading of `text` a client could try: as is, and each dot-separated part (and the whole) as base64 and base64url. */
function readings(text: string): string[] {
  const out = [text];
  for (const part of [text, ...text.split("."), ...text.split(/[^A-Za-z0-9+/=_-]+/)]) {
    if (part === "") continue;
    for (const encoding of ["base64", "base64url"] as const) {
      const bytes = Buffer.from(part, encoding);
      out.push(bytes.toString("utf8"), bytes.toString("latin1"));
    }
  }
  return out;
}

/** Whether the approval code can be read out of what a client received. */
function reveals(text: string): boolean {
  return readings(text).some((reading) => reading.includes(APPROVAL_CODE) || reading.includes("APPROVAL-"));
}

/** The first round: the raw body and its requestState. */
async function firstRound(url: string): Promise<{ body: string; state: string }> {
  const answer = await call(url);
  const result = single(answer).result!;
  expect(result.resultType, answer.text).toBe("input_required");
  expect(typeof result.requestState).toBe("string");
  return { body: answer.text, state: result.requestState as string };
}

function expectInvalid(answer: Answer): void {
  const error = expectError(answer, 200, -32602, INVALID);
  expect(error.data).toEqual({ reason: "invalid_request_state" });
}

/** The token's sealed bytes (everything after the version prefix), and a token made of other bytes. */
function sealedBytes(state: string): { prefix: string; bytes: Buffer } {
  const dot = state.indexOf(".");
  return { prefix: state.slice(0, dot), bytes: Buffer.from(state.slice(dot + 1), "base64url") };
}
const reseal = (prefix: string, bytes: Uint8Array): string => `${prefix}.${Buffer.from(bytes).toString("base64url")}`;

describe.each(HOSTS)("requestState is sealed on %s", (host: HostName) => {
  const running: RunningHost[] = [];
  afterEach(async () => {
    for (const item of running.splice(0)) await item.close();
  });
  async function start(requestState: McpHandlerOptions["requestState"], effects: string[] = []) {
    const started = await startHost(host, server(requestState, effects));
    running.push(started);
    return started.url;
  }

  it("raw: nothing the client receives reveals mcp.state, and the retry still opens it", async () => {
    const url = await start({ secret: SECRET_OLD });
    const { body, state } = await firstRound(url);
    // The test reads what it checks: the code is in the handler's state, and the reading finds it when present.
    expect(reveals(Buffer.from(JSON.stringify({ approval: APPROVAL_CODE })).toString("base64url"))).toBe(true);
    expect(reveals(body)).toBe(false);
    expect(reveals(state)).toBe(false);
    // The same state sealed twice looks different each time (a fresh IV per token).
    expect((await firstRound(url)).state).not.toBe(state);
    const retry = single(await call(url, { requestState: state, inputResponses: CONFIRM }));
    expect(textOf(retry.result!)).toBe("accept, state intact");
  });

  it("raw: a flipped byte, a truncated, reordered or other-key token is refused with the opaque error", async () => {
    const effects: string[] = [];
    const url = await start({ secret: SECRET_OLD }, effects);
    const otherKey = await start({ secret: SECRET_NEW });
    const { state } = await firstRound(url);
    const { prefix, bytes } = sealedBytes(state);
    const flipped = (at: number): string => {
      const copy = Buffer.from(bytes);
      copy[at] = copy[at]! ^ 0x01;
      return reseal(prefix, copy);
    };
    const tampered = [
      flipped(0), // in the IV
      flipped(Math.floor(bytes.length / 2)), // in the ciphertext
      flipped(bytes.length - 1), // in the tag
      reseal(prefix, bytes.subarray(0, bytes.length - 1)), // truncated by a byte
      reseal(prefix, bytes.subarray(0, 20)), // truncated to less than an IV and a tag
      state.slice(0, -4),
      reseal(prefix, Buffer.concat([bytes.subarray(12), bytes.subarray(0, 12)])), // IV moved to the end
      reseal(prefix, Buffer.concat([bytes.subarray(0, 12), bytes.subarray(28), bytes.subarray(12, 28)])), // blocks swapped
      `${state}.${state}`,
      (await firstRound(otherKey)).state, // sealed with another secret
    ];
    for (const requestState of tampered) {
      expect(requestState).not.toBe(state);
      expectInvalid(await call(url, { requestState, inputResponses: CONFIRM }));
    }
    expect(effects.filter((effect) => effect.startsWith("done"))).toEqual([]);
    const retry = single(await call(url, { requestState: state, inputResponses: CONFIRM }));
    expect(textOf(retry.result!)).toBe("accept, state intact");
  });

  it("raw: a state in the earlier signed-only v1 format, signed with the same secret, is refused", async () => {
    const effects: string[] = [];
    const url = await start({ secret: SECRET_OLD }, effects);
    const digest = await v2Digest(requestBinding("tools/call", { name: "approve", arguments: ARGS }));
    const payload = {
      state: { approval: APPROVAL_CODE, order: ARGS.order },
      exp: Date.now() + 60_000,
      principal: null,
      digest,
      rounds: 1,
    };
    const body = Buffer.from(JSON.stringify(payload)).toString("base64url");
    const mac = createHmac("sha256", SECRET_OLD).update(`v1.${body}`).digest("base64url");
    expectInvalid(await call(url, { requestState: `v1.${body}.${mac}`, inputResponses: CONFIRM }));
    expect(effects).toEqual([]);
  });

  it("raw: a malformed, oversize or old-format token is refused before any hashing or decryption", async () => {
    const effects: string[] = [];
    const url = await start({ secret: SECRET_OLD }, effects);
    const { state } = await firstRound(url);
    const sealed = state.slice(3);
    const subtle = ["digest", "decrypt", "encrypt", "deriveKey", "importKey"] as const;
    const spies = subtle.map((name) => vi.spyOn(crypto.subtle, name));
    try {
      const refused = [
        `v3.${"A".repeat(1_000_000)}`, // longer than any state issued
        `v2.${"A".repeat(1_000_000)}`,
        `v1.${sealed}`,
        `v3.${sealed}=`,
        `v3.${sealed}!`,
        `v2.${sealed}!`,
        `v3.${sealed.slice(0, 38)}`, // an IV and a tag, nothing sealed
        `v2.${sealed.slice(0, 38)}`,
        "v3.",
        "v2.",
      ];
      for (const requestState of refused) expectInvalid(await call(url, { requestState, inputResponses: CONFIRM }));
      for (const spy of spies) expect(spy, spy.getMockName()).not.toHaveBeenCalled();
    } finally {
      for (const spy of spies) spy.mockRestore();
    }
    expect(effects).toEqual(["round:first"]);
  });

  it("raw: rotation — sealed with the old secret, opened after a new first secret is added", async () => {
    const old = await start({ secret: SECRET_OLD });
    const rotated = await start({ secret: [SECRET_NEW, SECRET_OLD] });
    const onlyNew = await start({ secret: SECRET_NEW });
    const onlyOld = await start({ secret: SECRET_OLD });
    const { state } = await firstRound(old);
    expect(textOf(single(await call(rotated, { requestState: state, inputResponses: CONFIRM })).result!)).toBe(
      "accept, state intact",
    );
    // The rotated instance seals with the new secret: an instance that dropped the old one opens it.
    const sealedByRotated = (await firstRound(rotated)).state;
    expect(
      textOf(single(await call(onlyNew, { requestState: sealedByRotated, inputResponses: CONFIRM })).result!),
    ).toBe("accept, state intact");
    expectInvalid(await call(onlyOld, { requestState: sealedByRotated, inputResponses: CONFIRM }));
  });

  it("2.x client (modern): completes the call, and no response it received reveals the state", async () => {
    const url = await start({ secret: SECRET_OLD });
    const mode = MODERN_MODES.find((spec) => spec.name === "pinned")!;
    const connection = await connectModern(url, mode, {
      onElicit: () => ({ action: "accept", content: { ok: true } }),
    });
    try {
      const result = await connection.client.callTool({ name: "approve", arguments: ARGS }, { timeout: 5_000 });
      expect(textOf(result)).toBe("accept, state intact");
      const calls = connection.requests("tools/call");
      expect(calls).toHaveLength(2);
      const received = await Promise.all(calls.map((exchange) => exchange.response));
      const states = received.map((body) => (body as { result?: { requestState?: string } }).result?.requestState);
      expect(typeof states[0]).toBe("string");
      // The client echoed the state it got, verbatim.
      expect(calls[1]!.body?.params?.requestState).toBe(states[0]);
      for (const body of received) expect(reveals(JSON.stringify(body))).toBe(false);
    } finally {
      await connection.close();
    }
  });
});
