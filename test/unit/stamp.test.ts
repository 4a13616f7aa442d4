/**
 * The modern result stamp: the JSON text written for a plain result must say exactly what the
 * stamped object says, and every result the text path cannot write must be left to the object.
 */
import { describe, expect, it } from "vitest";
import { ResultStamp } from "../../src/modern/stamp.ts";

const SERVER_INFO = { name: "unit", version: "0.0.1", title: 'Unit "quoted" server' };
const stamp = new ResultStamp(SERVER_INFO);
const HINTS = { ttlMs: 60_000, cacheScope: "public" } as const;

/** What the object path sends for the same result. */
function objectPath(id: string | number, result: Record<string, unknown>, hints?: typeof HINTS) {
  return { jsonrpc: "2.0", id, result: stamp.result(result, hints) };
}

describe("ResultStamp", () => {
  const plainResults: [string, Record<string, unknown>, typeof HINTS?][] = [
    ["a tool result", { content: [{ type: "text", text: 'hi "there"\n' }] }],
    ["an empty result", {}],
    ["a listing with cache hints", { tools: [], nextCursor: "c1" }, HINTS],
    ["an empty result with cache hints", {}, HINTS],
    ["a result with an undefined _meta", { content: [], _meta: undefined }],
  ];
  for (const [label, result, hints] of plainResults) {
    it(`writes ${label} as the stamped object would be written`, () => {
      for (const id of [7, 'req-"7"']) {
        const text = stamp.successJson(id, result, hints);
        expect(text).toBeTypeOf("string");
        expect(JSON.parse(text!)).toEqual(JSON.parse(JSON.stringify(objectPath(id, result, hints))));
      }
    });
  }

  it("leaves results with a stamp field of their own to the object path, which merges or keeps them", () => {
    const own = { content: [], _meta: { "example.com/tag": "x" } };
    expect(stamp.successJson(1, own, undefined)).toBeUndefined();
    expect(stamp.result(own, undefined)._meta).toEqual({
      "example.com/tag": "x",
      "io.modelcontextprotocol/serverInfo": SERVER_INFO,
    });
    const pending = { resultType: "input_required", inputRequests: {} };
    expect(stamp.successJson(1, pending, undefined)).toBeUndefined();
    expect(stamp.result(pending, HINTS)).not.toHaveProperty("ttlMs");
    expect(stamp.successJson(1, { tools: [], ttlMs: 5 }, HINTS)).toBeUndefined();
    expect(stamp.result({ tools: [], ttlMs: 5 }, HINTS).ttlMs).toBe(60_000);
  });

  it("leaves a result whose toJSON gives no object to the object path", () => {
    const odd = { content: [], toJSON: () => "text" };
    expect(stamp.successJson(1, odd, undefined)).toBeUndefined();
  });

  it("never changes the result it is given", () => {
    const result = { content: [{ type: "text", text: "x" }] };
    const copy = structuredClone(result);
    stamp.successJson(1, result, HINTS);
    stamp.result(result, HINTS);
    expect(result).toEqual(copy);
  });
});
