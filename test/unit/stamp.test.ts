/**
 * The modern result stamp: `resultType`, the server's info in `_meta`, and cache hints on complete
 * results only; a result's own `_meta` is kept, and the result given is never changed.
 */
import { describe, expect, it } from "vitest";
import { stampResult } from "../../src/modern/stamp.ts";

const SERVER_INFO = { name: "unit", version: "0.0.1", title: 'Unit "quoted" server' };
const HINTS = { ttlMs: 60_000, cacheScope: "public" } as const;

describe("modern result stamp", () => {
  it("stamps a plain result as complete, with the server's info", () => {
    expect(stampResult({ content: [] }, SERVER_INFO, undefined)).toEqual({
      content: [],
      resultType: "complete",
      _meta: { "io.modelcontextprotocol/serverInfo": SERVER_INFO },
    });
  });

  it("keeps a result's own _meta and resultType, and puts cache hints on complete results only", () => {
    const own = { content: [], _meta: { "example.com/tag": "x" } };
    expect(stampResult(own, SERVER_INFO, HINTS)).toMatchObject({
      _meta: { "example.com/tag": "x", "io.modelcontextprotocol/serverInfo": SERVER_INFO },
      ttlMs: 60_000,
      cacheScope: "public",
    });
    const pending = { resultType: "input_required", inputRequests: {} };
    expect(stampResult(pending, SERVER_INFO, HINTS)).not.toHaveProperty("ttlMs");
    expect(stampResult(pending, SERVER_INFO, HINTS).resultType).toBe("input_required");
  });

  it("never changes the result it is given", () => {
    const result = { content: [{ type: "text", text: "x" }], _meta: { a: 1 } };
    const copy = structuredClone(result);
    stampResult(result, SERVER_INFO, HINTS);
    expect(result).toEqual(copy);
  });
});
