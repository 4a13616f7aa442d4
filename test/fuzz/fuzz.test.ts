/**
 * The fuzzer in `npm test`: 20,000 mutated messages of both eras against h3 v2 and h3 v1 with a fixed
 * seed, and 20,000 more with bearer-token auth on (long runs with other seeds: `npm run fuzz --
 * --count N --seed S [--auth]`). Also checks that the fuzzer itself is reproducible and that its
 * judge refuses what it must.
 */
import { describe, expect, it } from "vitest";
import { checkJsonBody, isJsonRpcMessage, takeSseEvents } from "./check.ts";
import { validRequest, type FuzzPool } from "./messages.ts";
import { FUZZ_TOKEN, authHeaders } from "./auth.ts";
import { mutate, type Mutated } from "./mutate.ts";
import { mulberry32, randomFor } from "./prng.ts";
import { describeFailures, runFuzz } from "./runner.ts";

const POOL: FuzzPool = {
  sessions: [{ id: "s-1", version: "2025-11-25" }],
  states: ["v1.a.b"],
  eventIds: ["get/1"],
  taskIds: ["t-1"],
};

describe("fuzzer", () => {
  it("is reproducible: the same seed and index give the same message", () => {
    for (const index of [0, 1, 17, 19_999]) {
      const make = (): unknown => {
        const random = randomFor(42, index);
        return mutate(random, validRequest(random, POOL), POOL);
      };
      expect(make()).toEqual(make());
    }
    const first = mulberry32(1);
    const second = mulberry32(1);
    expect([first(), first(), first()]).toEqual([second(), second(), second()]);
    expect(mulberry32(2)()).not.toBe(mulberry32(1)());
  });

  it("with auth on, every message carries the token, some a mutated one, and a seed still gives one message", () => {
    const make = (index: number, auth: boolean) => {
      const random = randomFor(42, index);
      const request = validRequest(random, POOL);
      Object.assign(request.headers, authHeaders(auth));
      return mutate(random, request, POOL);
    };
    const messages = Array.from({ length: 400 }, (_, index) => make(index, true));
    // What the seed decides (a few header mutations draw a fresh UUID as the value, not from the seed).
    const decided = (m: Mutated) => [m.headers.authorization, m.applied, m.text];
    expect(messages.map(decided)).toEqual(Array.from({ length: 400 }, (_, index) => decided(make(index, true))));
    const kept = messages.filter((m) => m.headers.authorization === `Bearer ${FUZZ_TOKEN}`).length;
    const mutated = messages.filter((m) => m.applied.includes("header:authorization")).length;
    expect(kept).toBeGreaterThan(250);
    expect(mutated).toBeGreaterThan(20);
    // Without auth nothing draws for the header: the messages are those of runs before the option.
    for (const index of [0, 5, 99]) expect(make(index, false).headers.authorization).toBeUndefined();
  });

  it("judges replies: JSON-RPC shapes and SSE framing", () => {
    expect(isJsonRpcMessage({ jsonrpc: "2.0", id: 1, result: {} })).toBe(true);
    expect(isJsonRpcMessage({ jsonrpc: "2.0", id: null, error: { code: -32700, message: "x" } })).toBe(true);
    expect(isJsonRpcMessage({ jsonrpc: "2.0", method: "notifications/progress" })).toBe(true);
    expect(isJsonRpcMessage({ jsonrpc: "2.0", id: 1, result: {}, error: { code: 1, message: "x" } })).toBe(false);
    expect(isJsonRpcMessage({ jsonrpc: "2.0", id: 1, error: { code: 1.5, message: "x" } })).toBe(false);
    expect(isJsonRpcMessage({ id: 1, result: {} })).toBe(false);
    expect(checkJsonBody('{"status":500,"unhandled":true}')).toMatch(/not a JSON-RPC message/);
    expect(checkJsonBody("[]")).toMatch(/batch/);
    expect(checkJsonBody("<html>")).toMatch(/does not parse/);
    const taken = takeSseEvents('id: a/1\nevent: message\ndata: {"x":1}\n\n: keepalive\n\ndata: {"y"');
    expect(taken.events).toEqual([{ id: "a/1", data: '{"x":1}' }]);
    expect(taken.rest).toBe('data: {"y"');
    expect(takeSseEvents("garbage line\n\n").problem).toMatch(/malformed/);
  });

  it("20,000 mutated messages: no 5xx, no hang, no invalid reply, no unhandled rejection, memory back to baseline", async () => {
    const report = await runFuzz({ count: 20_000, seed: 0x5eed });
    console.log(report.closing);
    expect(report.failures, `${report.closing}\n${describeFailures(report)}`).toEqual([]);
    expect(report.byClass["2xx"]).toBeGreaterThan(2000);
    expect(report.byClass["4xx"]).toBeGreaterThan(2000);
  }, 300_000);

  it("20,000 with auth on (the token on every message, mutated on some): the same, and the bad tokens get 401", async () => {
    const report = await runFuzz({ count: 20_000, seed: 0x5eed, auth: true });
    console.log(report.closing);
    expect(report.failures, `${report.closing}\n${describeFailures(report)}`).toEqual([]);
    expect(report.byClass["2xx"]).toBeGreaterThan(2000);
    expect(report.unauthorized).toBeGreaterThan(1000);
  }, 300_000);
});
