/**
 * `positiveOption` (src/protocol/positive-option.ts), the one check of a positive numeric option that
 * the task stores and the token bucket share: the fallback when the option is not given, the value
 * as given, and a `RangeError` naming the option for anything else.
 */
import { describe, expect, it } from "vitest";
import { positiveOption } from "../../src/protocol/positive-option.ts";

describe("positiveOption", () => {
  it("gives the fallback when the option is not given, and the value as given", () => {
    expect(positiveOption("maxTasks", undefined, { fallback: 10 })).toBe(10);
    expect(positiveOption("maxTasks", 3, { fallback: 10 })).toBe(3);
    expect(positiveOption("refillPerSecond", 0.25, { fraction: true })).toBe(0.25);
  });

  it.each<[string, unknown, { fallback?: number; fraction?: boolean }]>([
    ["zero", 0, { fallback: 10 }],
    ["a negative", -1, { fallback: 10 }],
    ["NaN", Number.NaN, { fallback: 10 }],
    ["an infinity", Number.POSITIVE_INFINITY, { fraction: true }],
    ["a fraction where a whole number is needed", 2.5, { fallback: 10 }],
    ["an unsafe integer", 2 ** 53, {}],
    ["a string", "5", { fallback: 10 }],
    ["nothing, with no fallback", undefined, { fraction: true }],
  ])("refuses %s, naming the option", (_name, value, rule) => {
    expect(() => positiveOption("mcp-h3: maxThings", value as number, rule)).toThrow(RangeError);
    expect(() => positiveOption("mcp-h3: maxThings", value as number, rule)).toThrow(/^mcp-h3: maxThings must be/);
  });
});
