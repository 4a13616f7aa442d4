/**
 * Hostile: encodings and keys. Base64 that is not canonical (the last character changed so that it
 * decodes to the same bytes) is refused in `requestState`, `Mcp-Name` and `Mcp-Param-*`; `__proto__`
 * and `constructor` keys are plain data everywhere (no pollution, no capability or answer appears
 * from a prototype); lone surrogates and extreme ids get clear answers.
 */
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { HOSTS } from "../helpers/hosts.ts";
import {
  LEGACY,
  META_CLIENT_CAPABILITIES,
  META_PROTOCOL_VERSION,
  MODERN,
  expectPing,
  expectRefused,
  expectStillServes,
  legacy,
  modern,
  modernHeaders,
  openSession,
  postLegacyText,
  postModern,
  postModernText,
  postText,
  startHostile,
  type HostileServer,
} from "../helpers/hostile.ts";
import { guardProcess } from "../helpers/process-guard.ts";
import { POST_HEADERS, single } from "../helpers/rpc.ts";

guardProcess();

const ALPHABET = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789";

/**
 * The same bytes in a non-canonical spelling: the last data character gets a low bit that canonical
 * base64 leaves at zero (standard or URL alphabet; with or without padding).
 */
function nonCanonical(base64: string, alphabet = `${ALPHABET}+/`): string {
  const data = base64.replace(/=+$/, "");
  const padding = base64.slice(data.length);
  const slackBits = [0, 0, 4, 2][data.length % 4]!;
  expect(slackBits, `no spare bits in ${base64}`).toBeGreaterThan(0);
  const last = alphabet.indexOf(data.at(-1)!);
  return data.slice(0, -1) + alphabet[last | 1] + padding;
}

function sentinelOf(value: string): string {
  return `=?base64?${Buffer.from(value).toString("base64")}?=`;
}

describe.each(HOSTS)("hostile encodings and keys on %s", (host) => {
  let server: HostileServer;

  beforeAll(async () => {
    server = await startHostile(host);
  });

  afterAll(async () => {
    await server.close();
  });

  afterEach(() => {
    // No request may have reached Object.prototype.
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
    expect(Object.prototype).not.toHaveProperty("polluted");
  });

  it("a non-canonical base64 requestState gets -32602 'Invalid or expired requestState'; the handler does not run", async () => {
    const first = single(await postModern(server.url, modern("tools/call", { name: "ask", arguments: {} }))).result!;
    // The sealed part of this tool's state (a fixed length) ends with spare bits.
    const [version, sealed] = String(first.requestState).split(".");
    const urlAlphabet = `${ALPHABET}-_`;
    const before = server.effects.length;
    const respelled = nonCanonical(sealed!, urlAlphabet);
    expect(Buffer.from(respelled, "base64url")).toEqual(Buffer.from(sealed!, "base64url"));
    const tampered = [`${version}.${respelled}`, `${version}.${sealed}=`];
    for (const requestState of tampered) {
      const retry = modern("tools/call", {
        name: "ask",
        arguments: {},
        requestState,
        inputResponses: { name: { action: "accept", content: { name: "Mallory" } } },
      });
      expectRefused(await postModern(server.url, retry), 200, -32602, /Invalid or expired requestState/);
    }
    expect(server.effects.slice(before)).not.toContain("ask:done:Mallory");
    await expectStillServes(server.url, server);
  });

  it("a non-canonical base64 Mcp-Name sentinel gets 400 -32020; nothing runs", async () => {
    const before = server.effects.length;
    // "echo" is 4 bytes: its base64 ends in "==" and has 4 spare bits.
    const canonical = Buffer.from("echo").toString("base64");
    const good = await postModern(server.url, modern("tools/call", { name: "echo", arguments: {} }), {
      "mcp-name": `=?base64?${canonical}?=`,
    });
    expect(good.status, good.text).toBe(200);
    const bad = await postModern(server.url, modern("tools/call", { name: "echo", arguments: {} }), {
      "mcp-name": `=?base64?${nonCanonical(canonical)}?=`,
    });
    expectRefused(bad, 400, -32020);
    expect(server.effects.slice(before)).toEqual(["echo"]);
  });

  it("a non-canonical base64 Mcp-Param-* value gets 400 -32020; the tool does not run", async () => {
    const before = server.effects.length;
    const call = modern("tools/call", { name: "regional", arguments: { region: "eu" } });
    const canonical = Buffer.from("eu").toString("base64");
    expect((await postModern(server.url, call, { "mcp-param-region": `=?base64?${canonical}?=` })).status).toBe(200);
    const again = modern("tools/call", { name: "regional", arguments: { region: "eu" } });
    const bad = await postModern(server.url, again, { "mcp-param-region": `=?base64?${nonCanonical(canonical)}?=` });
    expectRefused(bad, 400, -32020);
    expect(server.effects.slice(before)).toEqual(["regional:eu"]);
  });

  it("__proto__ and constructor keys in tool arguments are plain data: no pollution, echoed back", async () => {
    const body = JSON.stringify(modern("tools/call", { name: "echo", arguments: { text: "t" } })).replace(
      '"text":"t"',
      '"text":"t","__proto__":{"polluted":true},"constructor":{"prototype":{"polluted":true}}',
    );
    const call = modern("tools/call", { name: "echo", arguments: {} });
    const answer = await postModernText(server.url, call, body);
    expect(answer.status, answer.text).toBe(200);
    const text = (single(answer).result!.content as { text: string }[])[0]!.text;
    expect(text).toContain("t");
    const session = await openSession(server.url);
    const legacyBody = JSON.stringify(legacy("tools/call", { name: "echo", arguments: { text: "t" } })).replace(
      '"text":"t"',
      '"text":"t","__proto__":{"polluted":true}',
    );
    expect((await postLegacyText(server.url, session, legacyBody)).status).toBe(200);
    await expectPing(server.url, session);
  });

  it("a capability under __proto__ in modern clientCapabilities is not a capability: -32021, not input_required", async () => {
    const call = modern("tools/call", { name: "ask", arguments: {} });
    const meta = { [META_PROTOCOL_VERSION]: MODERN, [META_CLIENT_CAPABILITIES]: { placeholder: {} } };
    const body = JSON.stringify({ ...call, params: { ...call.params, _meta: meta } }).replace(
      '"placeholder":{}',
      '"__proto__":{"elicitation":{}}',
    );
    expect(body).toContain('"__proto__":{"elicitation":{}}');
    const answer = await postModernText(server.url, call, body);
    expectRefused(answer, 400, -32021);
  });

  it("a capability under __proto__ at legacy initialize is not a capability either", async () => {
    const init = legacy("initialize", {
      protocolVersion: LEGACY,
      capabilities: {},
      clientInfo: { name: "x", version: "1" },
    });
    const body = JSON.stringify(init).replace('"capabilities":{}', '"capabilities":{"__proto__":{"elicitation":{}}}');
    const answer = await postText(server.url, body, POST_HEADERS);
    expect(answer.status).toBe(200);
    const id = answer.headers.get("mcp-session-id")!;
    const stored = await server.handler.engine.services.sessions!.store.get(id);
    expect(stored?.clientCapabilities.elicitation).toBeUndefined();
  });

  it("an answer under __proto__ in inputResponses answers nothing: the call asks again", async () => {
    const before = server.effects.length;
    const call = modern("tools/call", { name: "ask", arguments: {} });
    const body = JSON.stringify({
      ...call,
      params: { ...call.params, inputResponses: { placeholder: {} } },
    }).replace('"placeholder":{}', '"__proto__":{"name":{"action":"accept","content":{"name":"Mallory"}}}');
    const answer = await postModernText(server.url, call, body);
    expect(answer.status, answer.text).toBe(200);
    expect(single(answer).result?.resultType).toBe("input_required");
    expect(server.effects.slice(before)).not.toContain("ask:done:Mallory");
  });

  it("__proto__ as a template value, a prompt argument and a session id is plain data", async () => {
    const read = await postModern(server.url, modern("resources/read", { uri: "items://__proto__" }));
    expect(read.status, read.text).toBe(200);
    expect((single(read).result!.contents as { text: string }[])[0]!.text).toBe("item __proto__");
    const prompt = modern("prompts/get", { name: "greet", arguments: {} });
    const body = JSON.stringify(prompt).replace('"arguments":{}', '"arguments":{"__proto__":"x","name":"bob"}');
    const got = await postModernText(server.url, prompt, body);
    expect(got.status, got.text).toBe(200);
    expect(got.text).toContain("Hello bob");
    // An object under __proto__ is an argument that is not a string, like any other name: -32602,
    // and it does not become the arguments' prototype (which would supply "name").
    const polluting = JSON.stringify(modern("prompts/get", { name: "greet", arguments: {} })).replace(
      '"arguments":{}',
      '"arguments":{"__proto__":{"name":"x"}}',
    );
    const refused = await postModernText(server.url, prompt, polluting);
    expect(refused.status, refused.text).toBe(200);
    expect(single(refused).error?.code).toBe(-32602);
  });

  it("lone surrogates: refused where they name something, carried where they are data", async () => {
    const name = "\ud800record";
    const call = modern("tools/call", { name, arguments: { n: 1 } });
    // The header a client can send (UTF-8 cannot carry a lone surrogate) differs from the body.
    expectRefused(await postModern(server.url, call, { "mcp-name": sentinelOf(name) }), 400, -32020);
    const echo = modern("tools/call", { name: "echo", arguments: { text: "a\udc00b\ud800" } });
    const answer = await postModern(server.url, echo);
    expect(answer.status, answer.text).toBe(200);
    const session = await openSession(server.url);
    const level = await postLegacyText(
      server.url,
      session,
      JSON.stringify(legacy("logging/setLevel", { level: "\ud800" })),
    );
    expectRefused(level, 200, -32602);
    await expectPing(server.url, session);
  });

  it("JSON-RPC ids of extreme shapes are echoed or refused, never a 5xx", async () => {
    const session = await openSession(server.url);
    for (const id of [
      "1e308",
      "-0",
      "1.5",
      "18446744073709551616",
      `"${"i".repeat(5000)}"`,
      "1e999",
      "true",
      "{}",
      "[]",
      "null",
    ]) {
      const body = `{"jsonrpc":"2.0","id":${id},"method":"ping"}`;
      const answer = await postLegacyText(server.url, session, body);
      expect(answer.status, `${id}: ${answer.text.slice(0, 200)}`).toBeLessThan(500);
      expect(answer.status === 200 || answer.status === 202 || answer.status === 400, id).toBe(true);
    }
    const modernBody = `{"jsonrpc":"2.0","id":1e999,"method":"server/discover","params":{"_meta":{"${META_PROTOCOL_VERSION}":"${MODERN}","${META_CLIENT_CAPABILITIES}":{}}}}`;
    const answer = await postText(server.url, modernBody, modernHeaders(modern("server/discover")));
    expect(answer.status).toBeLessThan(500);
    await expectStillServes(server.url, server);
  });
});
