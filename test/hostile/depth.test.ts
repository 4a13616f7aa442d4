/**
 * Hostile: nesting. Anything that walks client data is depth-bounded, so a body nested deeper than
 * `maxJsonDepth` (whole message counted) gets 400 `-32602` naming the option — never a stack overflow,
 * a 500 or an unhandled rejection — wherever the nesting hides: the body itself, a legacy
 * `logging/setLevel` level, modern arguments next to a `requestState`, an `Mcp-Param-*` value, extra
 * keys of a tool that elicits. Nothing of another session changes, and the server serves on.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { HOSTS } from "../helpers/hosts.ts";
import {
  expectPing,
  expectRefused,
  expectStillServes,
  legacy,
  modern,
  nestedJson,
  openSession,
  postLegacy,
  postLegacyText,
  postModern,
  postModernText,
  sentinel,
  startHostile,
  type HostileServer,
  type Session,
} from "../helpers/hostile.ts";
import { guardProcess } from "../helpers/process-guard.ts";
import { single } from "../helpers/rpc.ts";

guardProcess();

const INVALID_PARAMS = -32602;

/** The contract's answer to a body nested deeper than `max`. */
function expectTooDeep(answer: Parameters<typeof expectRefused>[0], max = 64): void {
  const error = expectRefused(answer, 400, INVALID_PARAMS, /maxJsonDepth/);
  expect(error.message).toContain(String(max));
  expect(error.data).toEqual({ maxJsonDepth: max });
  expect(single(answer).id).toBeNull();
}

/** A modern `tools/call` whose JSON text carries `inner` (raw JSON) as `arguments[key]`. */
function callWithRaw(name: string, key: string, inner: string, params: Record<string, unknown> = {}) {
  const message = modern("tools/call", { name, arguments: { [key]: 0 }, ...params });
  const body = JSON.stringify(message).replace(`"${key}":0`, `"${key}":${inner}`);
  return { message, body };
}

describe.each(HOSTS)("hostile nesting on %s", (host) => {
  let server: HostileServer;
  let small: HostileServer;
  let victim: Session;

  beforeAll(async () => {
    server = await startHostile(host);
    small = await startHostile(host, { maxJsonDepth: 10 });
    victim = await openSession(server.url);
    const level = await postLegacy(server.url, victim, legacy("logging/setLevel", { level: "error" }));
    expect(level.status).toBe(200);
  });

  afterAll(async () => {
    await Promise.all([server.close(), small.close()]);
  });

  /** The victim session is still there, with the level it set. */
  async function expectVictimIntact(): Promise<void> {
    await expectPing(server.url, victim);
    const session = await server.handler.engine.services.sessions!.store.get(victim.id);
    expect(session?.logLevel).toBe("error");
  }

  it("a 10,000-deep array body gets 400 -32602 naming maxJsonDepth", async () => {
    const depth = 10_000;
    const session = await openSession(server.url);
    expectTooDeep(await postLegacyText(server.url, session, "[".repeat(depth) + "]".repeat(depth)));
    expectTooDeep(await postModernText(server.url, modern("server/discover"), "[".repeat(depth) + "]".repeat(depth)));
    await expectVictimIntact();
    await expectStillServes(server.url, server);
  });

  it("a 10,000-deep object body on a legacy session gets 400 -32602 naming maxJsonDepth", async () => {
    const session = await openSession(server.url);
    const body = nestedJson(10_000);
    expectTooDeep(await postLegacyText(server.url, session, body));
    await expectPing(server.url, session);
    await expectVictimIntact();
  });

  it("~5,000 levels in a legacy logging/setLevel level get 400 -32602 (not 500); no level changes", async () => {
    const session = await openSession(server.url);
    const message = legacy("logging/setLevel", { level: "x" });
    const body = JSON.stringify(message).replace('"level":"x"', `"level":${nestedJson(5000, '"debug"')}`);
    expectTooDeep(await postLegacyText(server.url, session, body));
    const stored = await server.handler.engine.services.sessions!.store.get(session.id);
    expect(stored?.logLevel).toBeUndefined();
    await expectVictimIntact();
    await expectStillServes(server.url, server);
  });

  it("~5,000 levels in modern arguments next to a requestState get 400 -32602; the handler does not run", async () => {
    const before = server.effects.length;
    const { message, body } = callWithRaw("ask", "extra", nestedJson(5000), {
      requestState: "v1.AAAA.BBBB",
      inputResponses: { name: { action: "accept", content: { name: "Mallory" } } },
    });
    expectTooDeep(await postModernText(server.url, message, body));
    expect(server.effects.slice(before)).toEqual([]);
    await expectVictimIntact();
    await expectStillServes(server.url, server);
  });

  it("~5,000 levels in an Mcp-Param-* mismatch value get 400 -32602, not a header check on a walked value", async () => {
    const before = server.effects.length;
    const { message, body } = callWithRaw("regional", "region", nestedJson(5000, '"eu"'));
    const answer = await postModernText(server.url, message, body, { "mcp-param-region": sentinel('{"a":') });
    expectTooDeep(answer);
    expect(server.effects.slice(before)).toEqual([]);
    await expectStillServes(server.url, server);
  });

  it("~200 KB of nested extra keys in the arguments of a tool that elicits, first round: 400 -32602", async () => {
    const before = server.effects.length;
    // 40,000 levels: enough to overflow any recursive walk (digest, canonical JSON, validation).
    const { message, body } = callWithRaw("ask", "extra", nestedJson(40_000));
    expect(body.length).toBeGreaterThan(200_000);
    expectTooDeep(await postModernText(server.url, message, body));
    expect(server.effects.slice(before)).toEqual([]);
    await expectVictimIntact();
    await expectStillServes(server.url, server);
  });

  it("the same ~200 KB nesting on an MRTR retry with a genuine requestState: 400 -32602", async () => {
    const first = modern("tools/call", { name: "ask", arguments: {} });
    const round = single(await postModern(server.url, first)).result!;
    expect(round.resultType).toBe("input_required");
    const before = server.effects.length;
    const { message, body } = callWithRaw("ask", "extra", nestedJson(40_000), {
      requestState: round.requestState,
      inputResponses: { name: { action: "accept", content: { name: "Mallory" } } },
    });
    expectTooDeep(await postModernText(server.url, message, body));
    expect(server.effects.slice(before)).toEqual([]);
    await expectStillServes(server.url, server);
  });

  it("a deep element inside a 2025-03-26 batch rejects the whole batch with 400 -32602; no element runs", async () => {
    const session = await openSession(server.url, "2025-03-26");
    const before = server.effects.length;
    const good = legacy("tools/call", { name: "record", arguments: { n: 1 } });
    const deep = legacy("tools/call", { name: "record", arguments: { n: 0 } });
    const body = `[${JSON.stringify(good)},${JSON.stringify(deep).replace('"n":0', `"n":${nestedJson(3000)}`)}]`;
    expectTooDeep(await postLegacyText(server.url, session, body));
    expect(server.effects.slice(before)).toEqual([]);
    await expectPing(server.url, session);
  });

  it("maxJsonDepth is an option: 10 levels pass, 20 get 400 naming 10; brackets inside strings do not count", async () => {
    const shallow = callWithRaw("echo", "deep", nestedJson(3));
    const served = await postModernText(small.url, shallow.message, shallow.body);
    expect(served.status, served.text).toBe(200);
    expect(single(served).result?.isError).toBeFalsy();
    const deep = callWithRaw("echo", "deep", nestedJson(20));
    expectTooDeep(await postModernText(small.url, deep.message, deep.body), 10);
    // A string full of brackets is one value, not nesting.
    const text = modern("tools/call", { name: "echo", arguments: { text: "[{".repeat(20_000) } });
    const answer = await postModern(small.url, text);
    expect(answer.status, answer.text.slice(0, 300)).toBe(200);
    expect(single(answer).result?.isError).toBeFalsy();
    await expectStillServes(small.url, small);
  });

  it("nesting well under the default limit is served on both eras", async () => {
    // Whole message: message, params, arguments, then 50 levels: well under 64.
    const { message, body } = callWithRaw("echo", "deep", nestedJson(50));
    const answer = await postModernText(server.url, message, body);
    expect(answer.status, answer.text.slice(0, 300)).toBe(200);
    expect(single(answer).result?.isError).toBeFalsy();
    const session = await openSession(server.url);
    const call = legacy("tools/call", { name: "echo", arguments: { deep: 0 } });
    const legacyBody = JSON.stringify(call).replace('"deep":0', `"deep":${nestedJson(50)}`);
    const legacyAnswer = await postLegacyText(server.url, session, legacyBody);
    expect(legacyAnswer.status, legacyAnswer.text.slice(0, 300)).toBe(200);
  });
});
