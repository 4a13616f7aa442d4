/**
 * jsonByteLengthAtMost counts exactly the UTF-8 bytes JSON.stringify writes (escapes, surrogate
 * pairs, lone surrogates, numbers as JSON writes them), and stops past the bound on values far larger.
 */
import { describe, expect, it } from "vitest";
import { jsonByteLengthAtMost } from "../../src/protocol/json-size.ts";

const utf8Length = (value: unknown): number => new TextEncoder().encode(JSON.stringify(value)).length;

const SAMPLES: unknown[] = [
  {},
  [],
  "",
  "s",
  12,
  null,
  true,
  false,
  { a: 1 },
  [1, 2, 3],
  { name: "é", wide: "中文", emoji: "😀", controls: '\n\t\b\f\r"\\\u0001\u001f', lone: "\ud800x", low: "\udc00" },
  { nested: { deep: [null, true, false, 1e21, 1.5, -0, 0.1, -1e-7, { k: [] }] }, 'k"ey': "v", "": [[], {}] },
  JSON.parse('{"experimental":{"a":{"b":[1,2,{"c":"\\u0000"}]}},"x":1E2}'),
  { experimental: { big: "x".repeat(1000) } },
];

describe("jsonByteLengthAtMost", () => {
  it.each(SAMPLES.map((sample) => [JSON.stringify(sample), sample]))("is exact on %s", (_, sample) => {
    const exact = utf8Length(sample);
    expect(jsonByteLengthAtMost(sample, 1e9)).toBe(exact);
    for (const max of [0, 1, exact - 1, exact, exact + 1].filter((max) => max >= 0)) {
      expect(jsonByteLengthAtMost(sample, max)).toBe(exact > max ? max + 1 : exact);
    }
  });

  it("stops past the bound on a value far larger, whatever its shape", () => {
    const wide = Object.fromEntries(Array.from({ length: 100_000 }, (_, i) => [`k${i}`, i]));
    const long = ["y".repeat(4 << 20)];
    const many = Array.from({ length: 200_000 }, () => ({}));
    for (const value of [wide, long, many]) expect(jsonByteLengthAtMost(value, 65_536)).toBe(65_537);
  });
});
