/**
 * The modern result stamp: the JSON text written for a plain result must say exactly what the
 * stamped object says, and every result the text path cannot write must be left to the object.
 */
import { describe, expect, it } from "vitest";
import { stampResult, stampTail, stampedSuccessJson } from "../../src/modern/stamp.ts";

const SERVER_INFO = { name: "unit", version: "0.0.1", title: 'Unit "quoted" server' };
const TAIL = stampTail(SERVER_INFO);
const HINTS = { ttlMs: 60_000, cacheScope: "public" } as const;

/** What the object path sends for the same result. */
function objectPath(id: string | number, result: Record<string, unknown>) {
  return { jsonrpc: "2.0", id, result: stampResult(result, SERVER_INFO, undefined) };
}

describe("modern result stamp", () => {
  const plainResults: [string, Record<string, unknown>][] = [
    ["a tool result", { content: [{ type: "text", text: 'hi "there"\n' }] }],
    ["an empty result", {}],
    ["a result with an undefined _meta", { content: [], _meta: undefined }],
  ];
  for (const [label, result] of plainResults) {
    it(`writes ${label} as the stamped object would be written`, () => {
      for (const id of [7, 'req-"7"']) {
        const text = stampedSuccessJson(id, result, TAIL);
        expect(text).toBeTypeOf("string");
        expect(JSON.parse(text!)).toEqual(JSON.parse(JSON.stringify(objectPath(id, result))));
      }
    });
  }

  it("leaves results with a stamp field of their own to the object path, which merges or keeps them", () => {
    const own = { content: [], _meta: { "example.com/tag": "x" } };
    expect(stampedSuccessJson(1, own, TAIL)).toBeUndefined();
    expect(stampResult(own, SERVER_INFO, undefined)._meta).toEqual({
      "example.com/tag": "x",
      "io.modelcontextprotocol/serverInfo": SERVER_INFO,
    });
    const pending = { resultType: "input_required", inputRequests: {} };
    expect(stampedSuccessJson(1, pending, TAIL)).toBeUndefined();
    expect(stampResult(pending, SERVER_INFO, HINTS)).not.toHaveProperty("ttlMs");
  });

  it("leaves a result whose toJSON gives no object to the object path", () => {
    expect(stampedSuccessJson(1, { content: [], toJSON: () => "text" }, TAIL)).toBeUndefined();
    expect(stampedSuccessJson(1, { content: [], toJSON: () => undefined }, TAIL)).toBeUndefined();
  });

  it("never changes the result it is given", () => {
    const result = { content: [{ type: "text", text: "x" }] };
    const copy = structuredClone(result);
    stampedSuccessJson(1, result, TAIL);
    stampResult(result, SERVER_INFO, HINTS);
    expect(result).toEqual(copy);
  });
});
