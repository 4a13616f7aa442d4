/**
 * `positiveOption` and `nonNegativeOption` (src/protocol/positive-option.ts), the one check of a
 * numeric option that every store and entry shares: the fallback when the option is not given, the
 * value as given, and a `RangeError` naming the option for anything else (test/numeric-options.test.ts
 * drives it through every option).
 */
import { describe, expect, it } from "vitest";
import { nonNegativeOption, positiveOption } from "../../src/protocol/positive-option.ts";

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

describe("nonNegativeOption", () => {
  it("takes 0 and what positiveOption takes; Infinity only where the rule lifts the cap", () => {
    expect(nonNegativeOption("keepAliveMs", 0, { fallback: 8000 })).toBe(0);
    expect(nonNegativeOption("keepAliveMs", undefined, { fallback: 8000 })).toBe(8000);
    expect(nonNegativeOption("maxSubscriptions", Infinity, { infinite: true })).toBe(Infinity);
    expect(positiveOption("maxSubscriptions", Infinity, { infinite: true })).toBe(Infinity);
    expect(() => nonNegativeOption("keepAliveMs", Infinity)).toThrow(
      /^keepAliveMs must be a whole number, 0 or more, not Infinity$/,
    );
  });

  it.each([
    [-1, "not -1"],
    [Number.NaN, "not NaN"],
    ["30 min", 'not "30 min"'],
    [0.5, "not 0.5"],
  ])("refuses %s, quoting it as given", (value, shown) => {
    expect(() => nonNegativeOption("mcp-h3: retryMs", value, { fallback: 1000 })).toThrow(
      new RegExp(`^mcp-h3: retryMs must be a whole number, 0 or more, ${shown}$`),
    );
  });
});
