/**
 * The walks over client data, one by one: depth without recursion, canonical JSON, canonical base64,
 * the code-fence scan (against the RegExp it replaced), what `RequestStateCodec.seal` refuses, and a
 * listen filter's URIs (bounded reading, lookup per change).
 */
import { describe, expect, it } from "vitest";
import { decodeCanonicalBase64, encodeBase64 } from "../../src/define/base64.ts";
import { unfence } from "../../src/context/sampling.ts";
import { acknowledged, readFilter, wants } from "../../src/modern/listen/listen-filter.ts";
import { requestBinding } from "../../src/modern/mrtr/request-binding.ts";
import { RequestStateCodec } from "../../src/modern/mrtr/request-state.ts";
import { v2Digest } from "../../src/modern/mrtr/request-state-v2.ts";
import { canonicalJson } from "../../src/protocol/canonical-json.ts";
import { exceedsJsonDepth, mayExceedJsonDepth, parseBoundedJson } from "../../src/protocol/json-depth.ts";

function deepArray(levels: number): unknown {
  let value: unknown = 1;
  for (let i = 0; i < levels; i++) value = [value];
  return value;
}

describe("json depth", () => {
  it("counts levels of objects and arrays, iteratively", () => {
    expect(exceedsJsonDepth(1, 0)).toBe(false);
    expect(exceedsJsonDepth({}, 0)).toBe(true);
    expect(exceedsJsonDepth({ a: [1] }, 2)).toBe(false);
    expect(exceedsJsonDepth({ a: [[]] }, 2)).toBe(true);
    expect(exceedsJsonDepth([1, { b: { c: {} } }, []], 4)).toBe(false);
    expect(exceedsJsonDepth([1, { b: { c: {} } }, []], 3)).toBe(true);
    // A million levels: no stack overflow.
    expect(exceedsJsonDepth(deepArray(1_000_000), 64)).toBe(true);
    expect(exceedsJsonDepth(deepArray(64), 64)).toBe(false);
  });

  it("only walks a text with more openers than the limit", () => {
    expect(mayExceedJsonDepth('{"a":[1,2]}', 2)).toBe(false);
    expect(mayExceedJsonDepth('{"a":"{["}', 2)).toBe(true);
    expect(parseBoundedJson('{"a":"{[{["}', 1)).toEqual({ value: { a: "{[{[" } });
    expect(parseBoundedJson("[[[]]]", 2)).toBeUndefined();
    expect(() => parseBoundedJson("[", 2)).toThrow(SyntaxError);
  });
});

describe("canonicalJson", () => {
  it("sorts keys, writes numbers once, and does not recurse", () => {
    expect(canonicalJson({ b: [1.0, "x", null, true], a: { d: 1, c: [] } })).toBe(
      '{"a":{"c":[],"d":1},"b":[1,"x",null,true]}',
    );
    expect(canonicalJson(JSON.parse('{"x":2.0}'))).toBe(canonicalJson({ x: 2 }));
    expect(canonicalJson([undefined])).toBe("[null]");
    expect(canonicalJson(deepArray(200_000)).length).toBe(400_001);
  });

  it("binds (and digests, for v2) a request nested 100,000 levels without overflowing", async () => {
    const binding = requestBinding("tools/call", { name: "t", arguments: { a: deepArray(100_000) } as never });
    expect(binding.length).toBe('tools/call\n{"arguments":{"a":},"name":"t"}'.length + 200_001);
    expect(await v2Digest(binding)).toMatch(/^[A-Za-z0-9_-]{43}$/);
  });
});

describe("decodeCanonicalBase64", () => {
  it("accepts the canonical spelling only", () => {
    expect(decodeCanonicalBase64("aGk=")).toEqual(new Uint8Array([104, 105]));
    expect(decodeCanonicalBase64("")).toEqual(new Uint8Array([]));
    for (const bad of ["aGl=", "aGk", "aG k=", "aGk==", "a", "aGk=aGk=", "!!!!"]) {
      expect(decodeCanonicalBase64(bad), bad).toBeUndefined();
    }
    const bytes = crypto.getRandomValues(new Uint8Array(1000));
    expect(decodeCanonicalBase64(encodeBase64(bytes))).toEqual(bytes);
  });
});

describe("unfence", () => {
  /** The RegExp the scan replaced. */
  function reference(text: string): string {
    const fenced = /^\s*```(?:json)?\s*([\s\S]*?)\s*```\s*$/.exec(text);
    return fenced ? fenced[1]! : text;
  }

  it("reads what the RegExp read", () => {
    const parts = ["```", "json", " ", "\n", "{", "}", "`", "x", "\t"];
    let seed = 7;
    const next = (): number => (seed = (seed * 1103515245 + 12345) % 2147483648) / 2147483648;
    for (let trial = 0; trial < 20_000; trial++) {
      let text = "";
      const length = Math.floor(next() * 9);
      for (let i = 0; i < length; i++) text += parts[Math.floor(next() * parts.length)];
      expect(unfence(text), JSON.stringify(text)).toBe(reference(text));
    }
    expect(unfence('```json\n{"a":1}\n```')).toBe('{"a":1}');
    expect(unfence(" ```\n[1]\n```  ")).toBe("[1]");
  });
});

describe("RequestStateCodec.seal", () => {
  const codec = new RequestStateCodec(() => [], 60_000, 64);
  const payload = (state: unknown) => ({ state, exp: Date.now() + 60_000, rounds: 1 });

  it("refuses with a clear Error what cannot come back equal, or too much", async () => {
    const circular: Record<string, unknown> = { a: [] };
    (circular.a as unknown[]).push({ back: circular });
    await expect(codec.seal(payload(circular), "d")).rejects.toThrow(
      "mcp-h3: mcp.state cannot be kept in a requestState: it is circular",
    );
    await expect(codec.seal(payload({ n: 10n }), "d")).rejects.toThrow(/: it contains a BigInt$/);
    await expect(codec.seal(payload(deepArray(65)), "d")).rejects.toThrow(/: it is nested deeper than 64 levels$/);
    await expect(codec.seal(payload(deepArray(1_000_000)), "d")).rejects.toThrow(/nested deeper than 64 levels/);
    // Shared parts are written out each time: 2^40 values would never finish.
    let shared: unknown = 1;
    for (let i = 0; i < 40; i++) shared = [shared, shared];
    await expect(codec.seal(payload(shared), "d")).rejects.toThrow(/: it is larger than 1000000 characters$/);
    await expect(codec.seal(payload("x".repeat(1_000_000)), "d")).rejects.toThrow(/larger than 1000000 characters/);
    const throwing = {
      toJSON: () => {
        throw new Error("no");
      },
    };
    await expect(codec.seal(payload(throwing), "d")).rejects.toThrow(/cannot be written as JSON \(no\)/);
  });

  it("seals a value used twice (not a cycle) and 64 levels, and opens them", async () => {
    const part = { x: 1 };
    for (const state of [{ a: part, b: [part] }, deepArray(64)]) {
      const token = await codec.seal(payload(state), "d");
      expect((await codec.open(token, undefined, "d"))?.state).toEqual(JSON.parse(JSON.stringify(state)));
    }
  });
});

describe("listen filter", () => {
  const capabilities = { resources: { subscribe: true }, tools: { listChanged: true } };
  const limits = { maxSubscriptions: 3, maxUriLength: 64 };

  it("reads at most maxSubscriptions + 1 URIs of a hostile array, and keeps each URI once", () => {
    let reads = 0;
    const uris = new Proxy(
      Array.from({ length: 100_000 }, (_, i) => `items://${i}`),
      {
        get(target, key, receiver) {
          if (typeof key === "string" && /^\d+$/.test(key)) reads++;
          return Reflect.get(target, key, receiver) as unknown;
        },
      },
    );
    expect(() => readFilter({ resourceSubscriptions: uris }, capabilities, limits)).toThrow(/maxSubscriptions \(3\)/);
    expect(reads).toBe(limits.maxSubscriptions + 1);
    const repeated = readFilter({ resourceSubscriptions: ["a://1", "a://2", "a://1"] }, capabilities, limits);
    expect(repeated.resourceSubscriptions).toEqual(new Set(["a://1", "a://2"]));
    expect(acknowledged(repeated)).toEqual({ resourceSubscriptions: ["a://1", "a://2"] });
  });

  it("answers a change by lookup: the URI must be held as given", () => {
    const filter = readFilter({ toolsListChanged: true, resourceSubscriptions: ["a://1"] }, capabilities, limits);
    const updated = (uri: unknown) => ({ method: "notifications/resources/updated", params: { uri } as never });
    expect(wants(filter, updated("a://1"))).toBe(true);
    expect(wants(filter, updated("a://2"))).toBe(false);
    expect(wants(filter, updated(["a://1"]))).toBe(false);
    expect(wants(filter, { method: "notifications/tools/list_changed" })).toBe(true);
    expect(wants(filter, { method: "notifications/prompts/list_changed" })).toBe(false);
    expect(wants(filter, { method: "constructor" })).toBe(false);
  });
});
