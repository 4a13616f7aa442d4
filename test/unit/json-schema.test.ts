// `then` here is JSON Schema's keyword, in schemas nothing awaits.
/* oxlint-disable unicorn/no-thenable */
import { Validator } from "@cfworker/json-schema";
import type { Schema } from "@cfworker/json-schema";
import { describe, expect, it } from "vitest";
import { compileJsonSchema } from "../../src/define/json-schema/compile.ts";
import { compileSchema } from "../../src/define/schema.ts";
import type { JsonObject } from "../../src/protocol/jsonrpc.ts";
import { JSON_SCHEMA_2020_12_INPUT } from "../conformance/fixture.ts";

/** The issues of a value, as `path: message` pairs; `[]` when it is valid. */
function issuesOf(schema: JsonObject, value: unknown): string[] {
  const result = compileJsonSchema(schema)(value);
  return result.valid ? [] : result.errors.map((issue) => `${issue.path}: ${issue.message}`);
}

function isValid(schema: JsonObject, value: unknown): boolean {
  return compileJsonSchema(schema)(value).valid;
}

describe("compileJsonSchema: values, numbers and strings", () => {
  it("checks type, telling integers from other numbers", () => {
    expect(issuesOf({ type: "string" }, 1)).toEqual([": Expected string, got number."]);
    expect(isValid({ type: "integer" }, 3)).toBe(true);
    expect(isValid({ type: "integer" }, 3.0)).toBe(true);
    expect(issuesOf({ type: "integer" }, 3.5)).toEqual([": Expected integer, got number."]);
    expect(isValid({ type: "number" }, 3.5)).toBe(true);
    expect(isValid({ type: ["string", "null"] }, null)).toBe(true);
    expect(issuesOf({ type: ["string", "null"] }, [])).toEqual([": Expected string or null, got array."]);
    expect(isValid({ type: "object" }, [])).toBe(false);
    expect(isValid({ type: "array" }, {})).toBe(false);
    expect(isValid({ type: "null" }, undefined)).toBe(false);
    expect(isValid({ type: "constructor" }, {})).toBe(false);
  });

  it("checks enum and const by deep equality", () => {
    expect(isValid({ enum: ["a", 1, null] }, 1)).toBe(true);
    expect(issuesOf({ enum: ["a", "b"] }, "c")).toEqual([': Value must be one of "a", "b".']);
    expect(isValid({ enum: [{ a: [1, 2] }] }, { a: [1, 2] })).toBe(true);
    expect(isValid({ enum: [{ a: [1, 2] }] }, { a: [2, 1] })).toBe(false);
    expect(isValid({ const: { x: 1, y: [true] } }, { y: [true], x: 1 })).toBe(true);
    expect(issuesOf({ const: "a" }, "b")).toEqual([': Value must be "a".']);
    expect(isValid({ const: null }, null)).toBe(true);
    expect(isValid({ const: [1] }, { 0: 1 })).toBe(false);
  });

  it("checks numbers, with draft 4's boolean exclusive bounds and decimal multiples", () => {
    expect(issuesOf({ minimum: 3 }, 2)).toEqual([": 2 is less than 3."]);
    expect(issuesOf({ maximum: 3 }, 4)).toEqual([": 4 is greater than 3."]);
    expect(issuesOf({ exclusiveMinimum: 3 }, 3)).toEqual([": 3 is less than or equal to 3."]);
    expect(issuesOf({ exclusiveMaximum: 3 }, 3)).toEqual([": 3 is greater than or equal to 3."]);
    expect(isValid({ minimum: 3, maximum: 3 }, 3)).toBe(true);
    expect(isValid({ maximum: 5, exclusiveMaximum: true }, 5)).toBe(false);
    expect(isValid({ minimum: 5, exclusiveMinimum: true }, 5)).toBe(false);
    expect(isValid({ minimum: 5, exclusiveMinimum: false }, 5)).toBe(true);
    // Since draft 6 both bounds hold at once.
    expect(issuesOf({ maximum: 5, exclusiveMaximum: 10 }, 7)).toEqual([": 7 is greater than 5."]);
    expect(issuesOf({ minimum: 1, exclusiveMinimum: 3 }, 2)).toEqual([": 2 is less than or equal to 3."]);
    expect(isValid({ multipleOf: 0.1 }, 0.3)).toBe(true);
    expect(isValid({ multipleOf: 0.01 }, 19.99)).toBe(true);
    expect(issuesOf({ multipleOf: 2 }, 7)).toEqual([": 7 is not a multiple of 2."]);
    expect(isValid({ multipleOf: 0.1 }, 0.35)).toBe(false);
    expect(isValid({ type: "integer", multipleOf: 0.123456789 }, 1e308)).toBe(false);
    expect(isValid({ type: "integer", multipleOf: 0.5 }, 1e308)).toBe(true);
    expect(isValid({ minimum: 3 }, "2")).toBe(true);
  });

  it("counts string lengths in code points and compiles patterns once, with the u flag", () => {
    expect(isValid({ maxLength: 2 }, "😀😀")).toBe(true);
    expect(isValid({ minLength: 2 }, "😀")).toBe(false);
    expect(issuesOf({ maxLength: 1 }, "ab")).toEqual([": String is longer than 1 characters."]);
    expect(issuesOf({ minLength: 3 }, "ab")).toEqual([": String is shorter than 3 characters."]);
    expect(isValid({ pattern: "^a" }, "abc")).toBe(true);
    expect(issuesOf({ pattern: "^a" }, "bab")).toEqual([': String does not match pattern "^a".']);
    expect(isValid({ pattern: "^\\p{Lu}$" }, "É")).toBe(true);
    expect(isValid({ pattern: "^.$" }, "😀")).toBe(true);
    expect(isValid({ pattern: "b" }, "abc")).toBe(true);
    expect(() => compileJsonSchema({ properties: { a: { pattern: "(" } } })).toThrow(
      /invalid regular expression "\(" at #\/properties\/a\/pattern/,
    );
    expect(() => compileJsonSchema({ pattern: "\\-" })).toThrow(/invalid regular expression/);
  });

  it("treats format and unknown keywords as annotations", () => {
    const schema = { type: "string", format: "email", title: "t", "x-mcp-header": "H", enumNames: ["x"] };
    expect(isValid(schema, "not an email")).toBe(true);
    expect(isValid({ format: "date-time" }, "yesterday")).toBe(true);
  });
});

describe("compileJsonSchema: objects", () => {
  it("checks properties, required and additionalProperties with paths", () => {
    const schema = {
      type: "object",
      properties: { city: { type: "string" }, where: { type: "object", properties: { lat: { type: "number" } } } },
      required: ["city"],
      additionalProperties: false,
    };
    expect(isValid(schema, { city: "Oslo", where: { lat: 59.9 } })).toBe(true);
    expect(issuesOf(schema, { where: { lat: "north" }, x: 1 })).toEqual([
      "/where/lat: Expected number, got string.",
      ': Property "x" does not match additional properties schema.',
      ': Instance does not have required property "city".',
    ]);
    expect(isValid({ additionalProperties: { type: "integer" } }, { a: 1, b: 2 })).toBe(true);
    expect(issuesOf({ additionalProperties: { type: "integer" } }, { a: 1, b: "2" })).toEqual([
      "/b: Expected integer, got string.",
    ]);
  });

  it("escapes keys in paths and handles awkward names", () => {
    const schema = { properties: { "a/b": { properties: { "~": { type: "string" } } } } };
    expect(issuesOf(schema, { "a/b": { "~": 1 } })).toEqual(["/a~1b/~0: Expected string, got number."]);
    const proto = JSON.parse('{"__proto__": 1, "constructor": 2}') as unknown;
    expect(isValid({ required: ["__proto__", "constructor"] }, proto)).toBe(true);
    expect(isValid({ required: ["constructor"] }, {})).toBe(false);
    expect(isValid({ properties: { toString: { type: "string" } }, additionalProperties: false }, {})).toBe(true);
  });

  it("checks patternProperties, propertyNames and property counts", () => {
    const schema = { patternProperties: { "^x-": { type: "string" } }, additionalProperties: false };
    expect(isValid(schema, { "x-a": "1" })).toBe(true);
    expect(issuesOf(schema, { "x-a": 1, y: 1 })).toEqual([
      "/x-a: Expected string, got number.",
      ': Property "y" does not match additional properties schema.',
    ]);
    expect(issuesOf({ propertyNames: { maxLength: 2 } }, { abc: 1 })).toEqual([
      ': Property name "abc" does not match the "propertyNames" schema.',
    ]);
    expect(issuesOf({ minProperties: 2 }, { a: 1 })).toEqual([": Object has fewer than 2 properties."]);
    expect(issuesOf({ maxProperties: 1 }, { a: 1, b: 2 })).toEqual([": Object has more than 1 properties."]);
  });

  it("checks dependentRequired, dependentSchemas and the old dependencies", () => {
    expect(issuesOf({ dependentRequired: { card: ["cvv"] } }, { card: 1 })).toEqual([
      ': Property "card" requires property "cvv".',
    ]);
    expect(isValid({ dependentRequired: { card: ["cvv"] } }, { cvv: 1 })).toBe(true);
    const schemas = { dependentSchemas: { card: { required: ["cvv"] } } };
    expect(isValid(schemas, { card: 1 })).toBe(false);
    expect(isValid(schemas, { card: 1, cvv: 2 })).toBe(true);
    const old = { dependencies: { a: ["b"], c: { properties: { d: { type: "string" } } } } };
    expect(isValid(old, { a: 1 })).toBe(false);
    expect(isValid(old, { c: 1, d: 2 })).toBe(false);
    expect(isValid(old, { c: 1, d: "2", a: 1, b: 1 })).toBe(true);
  });

  it("ignores draft 3's boolean required", () => {
    expect(isValid({ properties: { a: { type: "string", required: true } } }, {})).toBe(true);
  });
});

describe("compileJsonSchema: arrays", () => {
  it("checks items, prefixItems and the old tuple form", () => {
    expect(issuesOf({ items: { type: "string" } }, ["a", 1])).toEqual(["/1: Expected string, got number."]);
    const tuple = { prefixItems: [{ type: "string" }, { type: "number" }], items: false };
    expect(isValid(tuple, ["a", 1])).toBe(true);
    expect(isValid(tuple, ["a"])).toBe(true);
    expect(issuesOf(tuple, ["a", 1, 2])).toEqual(["/2: No value is allowed here."]);
    const old = { items: [{ type: "string" }], additionalItems: { type: "number" } };
    expect(isValid(old, ["a", 1, 2])).toBe(true);
    expect(isValid(old, ["a", "b"])).toBe(false);
    expect(isValid({ items: { type: "string" }, additionalItems: false }, ["a", "b"])).toBe(true);
  });

  it("checks counts, uniqueness and contains", () => {
    expect(issuesOf({ minItems: 2 }, [1])).toEqual([": Array has fewer than 2 items."]);
    expect(issuesOf({ maxItems: 1 }, [1, 2])).toEqual([": Array has more than 1 items."]);
    expect(isValid({ uniqueItems: true }, [1, "1", { a: 1 }, { a: 2 }, [1]])).toBe(true);
    expect(issuesOf({ uniqueItems: true }, [{ a: 1, b: 2 }, 3, { b: 2, a: 1 }])).toEqual([
      ": Items at indexes 0 and 2 are equal.",
    ]);
    expect(isValid({ uniqueItems: true }, [1, 1.0])).toBe(false);
    expect(isValid({ uniqueItems: false }, [1, 1])).toBe(true);
    const contains = { contains: { type: "integer" } };
    expect(isValid(contains, ["a", 1])).toBe(true);
    expect(issuesOf(contains, ["a"])).toEqual([': Array has no items that match the "contains" schema.']);
    expect(isValid({ contains: { const: 1 }, minContains: 2, maxContains: 3 }, [1, 2, 1])).toBe(true);
    expect(isValid({ contains: { const: 1 }, minContains: 2 }, [1, 2])).toBe(false);
    expect(issuesOf({ contains: { const: 1 }, maxContains: 1 }, [1, 1])).toEqual([
      ': Array has more than 1 items that match the "contains" schema.',
    ]);
    expect(isValid({ contains: { const: 1 }, minContains: 0 }, [])).toBe(true);
    expect(isValid({ minContains: 2 }, [])).toBe(true);
  });
});

describe("compileJsonSchema: combinators and booleans", () => {
  it("applies allOf, anyOf, oneOf and not", () => {
    expect(issuesOf({ allOf: [{ minimum: 1 }, { maximum: 3 }] }, 5)).toEqual([": 5 is greater than 3."]);
    expect(isValid({ anyOf: [{ type: "string" }, { type: "number" }] }, 1)).toBe(true);
    expect(issuesOf({ anyOf: [{ type: "string" }, { type: "number" }] }, null)).toEqual([
      ': Value does not match any of the "anyOf" schemas.',
    ]);
    const oneOf = { oneOf: [{ type: "integer" }, { minimum: 2 }] };
    expect(isValid(oneOf, 1)).toBe(true);
    expect(isValid(oneOf, 2.5)).toBe(true);
    expect(issuesOf(oneOf, 3)).toEqual([': Value matches more than one of the "oneOf" schemas (0 and 1).']);
    expect(issuesOf(oneOf, 1.5)).toEqual([': Value does not match any of the "oneOf" schemas.']);
    expect(issuesOf({ not: { type: "string" } }, "a")).toEqual([': Value must not match the "not" schema.']);
  });

  it("applies if, then and else", () => {
    const schema = { if: { minimum: 10 }, then: { multipleOf: 10 }, else: { maximum: 5 } };
    expect(isValid(schema, 20)).toBe(true);
    expect(issuesOf(schema, 15)).toEqual([": 15 is not a multiple of 10."]);
    expect(issuesOf(schema, 7)).toEqual([": 7 is greater than 5."]);
    expect(isValid({ then: false }, 1)).toBe(true);
  });

  it("accepts boolean schemas anywhere", () => {
    expect(isValid({ properties: { a: true, b: false } }, { a: 1 })).toBe(true);
    expect(issuesOf({ properties: { a: true, b: false } }, { b: 1 })).toEqual(["/b: No value is allowed here."]);
    expect(isValid({ allOf: [true, { not: false }] }, 1)).toBe(true);
    expect(() => compileJsonSchema({ properties: { a: "string" } })).toThrow(
      /schema at #\/properties\/a must be an object or a boolean/,
    );
  });
});

describe("compileJsonSchema: references", () => {
  it("follows local pointers, escapes and anchors", () => {
    const schema = {
      $defs: { "a b": { type: "string" }, "c/d~": { type: "number" }, named: { $anchor: "named", minimum: 1 } },
      definitions: { old: { type: "boolean" } },
      properties: {
        p: { $ref: "#/$defs/a%20b" },
        q: { $ref: "#/$defs/c~1d~0" },
        r: { $ref: "#named" },
        s: { $ref: "#/definitions/old" },
        t: { $ref: "#/properties/p" },
      },
    };
    expect(isValid(schema, { p: "x", q: 1, r: 2, s: true, t: "y" })).toBe(true);
    expect(issuesOf(schema, { p: 1, q: "x", r: 0, s: 1, t: 2 })).toEqual([
      "/p: Expected string, got number.",
      "/q: Expected number, got string.",
      "/r: 0 is less than 1.",
      "/s: Expected boolean, got number.",
      "/t: Expected string, got number.",
    ]);
  });

  it("follows recursive references", () => {
    const tree = {
      type: "object",
      properties: { value: { type: "number" }, children: { type: "array", items: { $ref: "#" } } },
      required: ["value"],
    };
    expect(isValid(tree, { value: 1, children: [{ value: 2, children: [{ value: 3 }] }] })).toBe(true);
    expect(issuesOf(tree, { value: 1, children: [{ value: 2, children: [{ value: "3" }] }] })).toEqual([
      "/children/0/children/0/value: Expected number, got string.",
    ]);
    const mutual = {
      $defs: {
        a: { type: "object", properties: { b: { $ref: "#/$defs/b" } } },
        b: { type: "object", properties: { a: { $ref: "#/$defs/a" } } },
      },
      $ref: "#/$defs/a",
    };
    expect(isValid(mutual, { b: { a: { b: {} } } })).toBe(true);
    expect(isValid(mutual, { b: { a: { b: 1 } } })).toBe(false);
  });

  it("resolves against $id within the document, and only there", () => {
    const schema = {
      $id: "https://example.com/root.json",
      $defs: {
        person: { $id: "person.json", type: "object", properties: { age: { $ref: "#/$defs/age" } }, $defs: {} },
        age: { type: "integer" },
      },
      properties: { who: { $ref: "person.json" }, age: { $ref: "https://example.com/root.json#/$defs/age" } },
    };
    // Inside person.json, "#/$defs/age" is person.json's own: it has none.
    expect(() => compileJsonSchema(schema)).toThrow(/\$ref "#\/\$defs\/age" cannot be resolved/);
    const fixed = structuredClone(schema);
    fixed.$defs.person.properties.age.$ref = "root.json#/$defs/age";
    expect(isValid(fixed, { who: { age: 3 }, age: 4 })).toBe(true);
    expect(isValid(fixed, { who: { age: 3.5 } })).toBe(false);
    expect(() => compileJsonSchema({ $ref: "https://example.com/other.json" })).toThrow(
      /\$ref "https:\/\/example.com\/other.json" cannot be resolved: only references within the schema itself/,
    );
    expect(() => compileJsonSchema({ $ref: "#/$defs/missing" })).toThrow(/cannot be resolved/);
    expect(() => compileJsonSchema({ $ref: "#nowhere" })).toThrow(/cannot be resolved/);
  });

  it("reads draft 7 anchors and ignores the keywords beside $ref before 2019-09", () => {
    const draft7 = {
      $schema: "http://json-schema.org/draft-07/schema#",
      definitions: { s: { $id: "#s", type: "string" } },
      properties: { a: { $ref: "#s", maxLength: 1 } },
    };
    expect(isValid(draft7, { a: "long" })).toBe(true);
    expect(isValid(draft7, { a: 1 })).toBe(false);
    expect(isValid({ ...draft7, $schema: "https://json-schema.org/draft/2020-12/schema" }, { a: "long" })).toBe(false);
    const draft4 = { $schema: "http://json-schema.org/draft-04/schema#", id: "http://x.org/s", items: { $ref: "#" } };
    expect(isValid(draft4, [[[]]])).toBe(true);
  });

  it("resolves $dynamicRef and $recursiveRef in a single resource", () => {
    const schema = {
      $dynamicAnchor: "node",
      type: "object",
      properties: { next: { $dynamicRef: "#node" }, prev: { $recursiveRef: "#" } },
    };
    expect(isValid(schema, { next: { prev: {} } })).toBe(true);
    expect(isValid(schema, { next: { prev: 1 } })).toBe(false);
    expect(() =>
      compileJsonSchema({ $defs: { x: { $id: "x.json" } }, properties: { a: { $dynamicRef: "#node" } } }),
    ).toThrow(/\$dynamicRef is not supported/);
  });

  it("never changes the schema it compiles", () => {
    const schema = structuredClone(JSON_SCHEMA_2020_12_INPUT);
    const frozen = deepFreeze(structuredClone(JSON_SCHEMA_2020_12_INPUT));
    const validate = compileJsonSchema(frozen);
    expect(validate({ name: "x", email: "e" }).valid).toBe(true);
    expect(frozen).toEqual(schema);
  });
});

describe("compileJsonSchema: unevaluated properties and items", () => {
  it("sees what properties, patterns, combinators and references evaluated", () => {
    const schema = {
      $defs: { base: { properties: { id: true } } },
      $ref: "#/$defs/base",
      properties: { name: { type: "string" } },
      patternProperties: { "^x-": true },
      anyOf: [
        { properties: { a: true }, required: ["a"] },
        { properties: { b: true }, required: ["b"] },
      ],
      if: { properties: { kind: { const: "c" } }, required: ["kind"] },
      then: { properties: { c: true } },
      unevaluatedProperties: false,
    };
    expect(isValid(schema, { id: 1, name: "n", "x-y": 1, a: 1, b: 2 })).toBe(true);
    expect(isValid(schema, { a: 1, kind: "c", c: 1 })).toBe(true);
    expect(issuesOf(schema, { a: 1, c: 1 })).toEqual([': Property "c" does not match unevaluated properties schema.']);
    expect(isValid(schema, { a: 1, kind: "d" })).toBe(false);
    expect(isValid({ allOf: [{ properties: { a: true } }], unevaluatedProperties: false }, { a: 1 })).toBe(true);
    expect(isValid({ properties: { a: true }, allOf: [{ unevaluatedProperties: false }] }, { a: 1 })).toBe(false);
    expect(isValid({ not: { not: { properties: { a: true } } }, unevaluatedProperties: false }, { a: 1 })).toBe(false);
    expect(issuesOf({ unevaluatedProperties: { type: "string" } }, { a: 1 })).toEqual([
      "/a: Expected string, got number.",
    ]);
  });

  it("sees what prefixItems, items and contains evaluated", () => {
    const tuple = { prefixItems: [{ type: "string" }], unevaluatedItems: false };
    expect(isValid(tuple, ["a"])).toBe(true);
    expect(issuesOf(tuple, ["a", 1])).toEqual([": Item 1 does not match unevaluated items schema."]);
    expect(isValid({ allOf: [{ prefixItems: [true, true] }], unevaluatedItems: false }, [1, 2])).toBe(true);
    expect(isValid({ contains: { type: "string" }, unevaluatedItems: false }, ["a", "b"])).toBe(true);
    expect(isValid({ contains: { type: "string" }, unevaluatedItems: false }, ["a", 1])).toBe(false);
    expect(isValid({ items: true, unevaluatedItems: false }, [1, 2])).toBe(true);
    expect(isValid({ unevaluatedItems: { type: "number" } }, [1, "2"])).toBe(false);
  });
});

describe("compileJsonSchema: the conformance schema", () => {
  const validate = compileJsonSchema(JSON_SCHEMA_2020_12_INPUT);

  it("accepts what the conformance suite sends and explains what it rejects", () => {
    expect(validate({ name: "n", address: { street: "s", city: "c" }, contactMethod: "email", email: "e" })).toEqual({
      valid: true,
    });
    expect(validate({ contactMethod: "phone", phone: "1" }).valid).toBe(true);
    const result = validate({ address: { city: 1 }, contactMethod: "phone", email: "e", other: 1 });
    expect(result.valid ? [] : result.errors).toEqual([
      { path: "/address/city", message: "Expected string, got number." },
      { path: "", message: 'Property "other" does not match additional properties schema.' },
      { path: "", message: 'Instance does not have required property "phone".' },
    ]);
  });
});

describe("compileSchema with a plain JSON Schema", () => {
  it("formats issues as path: message lines, the first 10 and a count of the rest", async () => {
    const compiled = compileSchema(
      { type: "object", properties: { list: { type: "array", items: { type: "string" } } }, required: ["id"] },
      { label: "t" },
    );
    const few = await compiled.validate({ list: ["a", 1] });
    expect(few).toEqual({
      ok: false,
      message: 'list.1: Expected string, got number.; (root): Instance does not have required property "id".',
    });
    const many = await compiled.validate({ id: 1, list: Array.from({ length: 15 }, (_, i) => i) });
    expect(!many.ok && many.message).toMatch(/^list\.0: Expected string, got number\.; .*list\.9: .*; and 5 more$/);
  });

  it("names the schema and the culprit when it cannot compile", () => {
    expect(() =>
      compileSchema({ type: "object", properties: { a: { pattern: "(" } } }, { label: 'Tool "x" input' }),
    ).toThrow(
      /^Tool "x" input: the JSON Schema cannot be compiled: invalid regular expression "\(" at #\/properties\/a/,
    );
    expect(() => compileSchema({ type: "object", $ref: "other.json" }, { label: "t" })).toThrow(
      /^t: the JSON Schema cannot be compiled: \$ref "other.json" cannot be resolved/,
    );
  });
});

/**
 * (schema, instances): every instance's verdict must be `@cfworker/json-schema`'s, the validator this one
 * replaced, in draft 2020-12 mode. Only `format` is left out: it asserts formats, where ours, as 2020-12 does
 * by default, takes `format` for an annotation.
 */
const CORPUS: [name: string, schema: JsonObject, instances: unknown[]][] = [
  [
    "conformance tool",
    JSON_SCHEMA_2020_12_INPUT,
    [
      { name: "n", email: "e" },
      { contactMethod: "phone", phone: "1" },
      { contactMethod: "phone", email: "e" },
      { contactMethod: "email", phone: "1" },
      { name: "n" },
      { email: "e", address: { street: "s", city: "c" } },
      { email: "e", address: { city: 2 } },
      { email: "e", extra: true },
      { email: 1 },
      { email: "e", contactMethod: "fax" },
      [],
    ],
  ],
  [
    "echo",
    { type: "object", properties: { text: { type: "string" } }, required: ["text"] },
    [{ text: "hi" }, { text: 1 }, {}, { text: "hi", more: 1 }, "hi", null],
  ],
  ["types", { type: ["integer", "boolean", "null"] }, [1, 1.5, true, null, "1", [], {}]],
  ["number", { type: "number" }, [0, -1.5, 1e300, "0"]],
  [
    "enum",
    { enum: ["a", 2, null, { x: [1] }, [true]] },
    ["a", 2, 2.0, null, { x: [1] }, { x: [2] }, [true], "b", false],
  ],
  ["const", { const: { a: [1, { b: null }] } }, [{ a: [1, { b: null }] }, { a: [1, { b: 0 }] }, { a: [1] }]],
  ["multipleOf", { multipleOf: 3 }, [9, 10, -6, 0, "x"]],
  ["multipleOf decimal", { multipleOf: 0.5 }, [1.5, 1.25, 4]],
  ["bounds", { minimum: 1, maximum: 10 }, [1, 10, 0, 11, 5.5]],
  ["exclusive bounds", { exclusiveMinimum: 1, exclusiveMaximum: 10 }, [1, 10, 1.0001, 9.999]],
  ["both bounds", { minimum: 1, exclusiveMinimum: 3, maximum: 5, exclusiveMaximum: 10 }, [2, 3, 4, 5, 7]],
  ["lengths", { minLength: 2, maxLength: 3 }, ["a", "ab", "abc", "abcd", "😀😀", "😀", "😀😀😀😀", 12]],
  ["pattern", { pattern: "^[a-z]+-\\d{2}$" }, ["ab-12", "ab-1", "AB-12", "x ab-12", 5]],
  ["pattern unanchored", { pattern: "é" }, ["café", "cafe"]],
  ["items", { type: "array", items: { type: "integer" } }, [[], [1, 2], [1, "2"], [1.5], {}]],
  [
    "prefixItems",
    { prefixItems: [{ type: "string" }, { type: "boolean" }], items: { type: "number" } },
    [[], ["a"], ["a", true], ["a", true, 1, 2], ["a", true, "x"], [1], [true, "a"]],
  ],
  ["closed tuple", { prefixItems: [{ const: 1 }], items: false }, [[1], [1, 2], [], [2]]],
  ["item counts", { minItems: 1, maxItems: 2 }, [[], [1], [1, 2], [1, 2, 3], "abc"]],
  [
    "uniqueItems",
    { uniqueItems: true },
    [
      [1, 2],
      [1, 1],
      [{ a: 1 }, { a: 1 }],
      [{ a: 1 }, { a: 2 }],
      [[1], [1]],
      [1, "1"],
      [0, false],
      [null, null],
    ],
  ],
  ["contains", { contains: { type: "string" } }, [["a"], [1, "a"], [1, 2], []]],
  [
    "min/maxContains",
    { contains: { minimum: 5 }, minContains: 2, maxContains: 3 },
    [[5, 6], [5], [5, 6, 7, 8], [1, 5, 6, 7], []],
  ],
  ["minContains 0", { contains: { type: "null" }, minContains: 0 }, [[], [1], [null]]],
  ["property counts", { minProperties: 1, maxProperties: 2 }, [{}, { a: 1 }, { a: 1, b: 2 }, { a: 1, b: 2, c: 3 }, []]],
  ["required", { required: ["a", "b"] }, [{ a: 1, b: 2 }, { a: 1 }, {}, "x", ["a", "b"]]],
  [
    "properties",
    { properties: { a: { type: "string" }, b: { properties: { c: { maximum: 3 } } } } },
    [{}, { a: "x" }, { a: 1 }, { b: { c: 3 } }, { b: { c: 4 } }, { b: [] }],
  ],
  [
    "patternProperties",
    { patternProperties: { "^s_": { type: "string" }, _n$: { type: "number" } } },
    [{ s_a: "x" }, { s_a: 1 }, { a_n: 1 }, { s_n: "x" }, { s_n: 1 }, { other: null }],
  ],
  [
    "additionalProperties false",
    { properties: { a: true }, patternProperties: { "^x": true }, additionalProperties: false },
    [{ a: 1 }, { a: 1, xb: 2 }, { b: 1 }, {}],
  ],
  [
    "additionalProperties schema",
    { properties: { a: true }, additionalProperties: { type: "boolean" } },
    [
      { a: 1, b: true },
      { a: 1, b: 1 },
    ],
  ],
  ["propertyNames", { propertyNames: { pattern: "^[a-z]+$", maxLength: 3 } }, [{ abc: 1 }, { abcd: 1 }, { A: 1 }, {}]],
  ["dependentRequired", { dependentRequired: { a: ["b", "c"] } }, [{ a: 1, b: 1, c: 1 }, { a: 1, b: 1 }, { b: 1 }]],
  [
    "dependentSchemas",
    { dependentSchemas: { a: { properties: { b: { type: "string" } } } } },
    [{ a: 1, b: "x" }, { a: 1, b: 2 }, { b: 2 }],
  ],
  [
    "allOf",
    { allOf: [{ type: "object" }, { required: ["a"] }, { properties: { a: { type: "integer" } } }] },
    [{ a: 1 }, { a: "1" }, {}, 1],
  ],
  [
    "anyOf",
    {
      anyOf: [
        { type: "string", maxLength: 2 },
        { type: "number", minimum: 0 },
      ],
    },
    ["ab", "abc", 1, -1, null],
  ],
  ["oneOf", { oneOf: [{ type: "number" }, { type: "integer" }, { type: "string" }] }, [1.5, 1, "a", null]],
  ["not", { not: { type: ["string", "null"] } }, ["a", null, 1, {}]],
  [
    "if/then/else",
    {
      if: { properties: { t: { const: "n" } } },
      then: { properties: { v: { type: "number" } } },
      else: { properties: { v: { type: "string" } } },
    },
    [{ t: "n", v: 1 }, { t: "n", v: "1" }, { t: "s", v: "1" }, { t: "s", v: 1 }, { v: "x" }, { v: 1 }],
  ],
  ["if without else", { if: { type: "string" }, then: { minLength: 2 } }, ["ab", "a", 1]],
  ["booleans", { properties: { yes: true, no: false }, items: false }, [{ yes: 1 }, { no: 1 }, [], [1], {}]],
  [
    "nested objects",
    {
      type: "object",
      properties: {
        user: {
          type: "object",
          properties: {
            name: { type: "string", minLength: 1 },
            tags: { type: "array", items: { type: "string" }, uniqueItems: true },
          },
          required: ["name"],
          additionalProperties: false,
        },
      },
      required: ["user"],
    },
    [
      { user: { name: "a", tags: ["x", "y"] } },
      { user: { name: "", tags: [] } },
      { user: { name: "a", tags: ["x", "x"] } },
      { user: { name: "a", extra: 1 } },
      { user: {} },
      {},
    ],
  ],
  [
    "refs",
    {
      $defs: { pos: { type: "integer", minimum: 1 }, named: { $anchor: "str", type: "string" }, "a b": { const: 1 } },
      properties: { n: { $ref: "#/$defs/pos" }, s: { $ref: "#str" }, c: { $ref: "#/$defs/a%20b" } },
    },
    [{ n: 1, s: "x", c: 1 }, { n: 0 }, { s: 1 }, { c: 2 }],
  ],
  [
    "recursive tree",
    {
      type: "object",
      properties: { v: { type: "number" }, kids: { type: "array", items: { $ref: "#" } } },
      required: ["v"],
    },
    [
      { v: 1, kids: [{ v: 2, kids: [] }] },
      { v: 1, kids: [{ kids: [] }] },
      { v: 1, kids: [{ v: 2, kids: [{ v: "3" }] }] },
    ],
  ],
  ["$ref with siblings", { $defs: { s: { type: "string" } }, $ref: "#/$defs/s", maxLength: 2 }, ["ab", "abc", 1]],
  [
    "unevaluatedProperties",
    {
      properties: { a: true },
      allOf: [{ properties: { b: true } }],
      anyOf: [{ properties: { c: { type: "string" } }, required: ["c"] }, { required: ["d"] }],
      unevaluatedProperties: false,
    },
    [{ a: 1, b: 1 }, { a: 1, c: "x" }, { a: 1, c: 1, d: 1 }, { a: 1, d: 1 }, { e: 1 }],
  ],
  [
    "unevaluatedItems",
    {
      prefixItems: [{ type: "string" }],
      allOf: [{ prefixItems: [true, true] }],
      unevaluatedItems: { type: "boolean" },
    },
    [
      ["a", 1],
      ["a", 1, true],
      ["a", 1, 2],
    ],
  ],
  [
    "elicitation form",
    {
      type: "object",
      properties: {
        name: { type: "string", title: "Name", minLength: 1, maxLength: 50 },
        age: { type: "integer", minimum: 0, maximum: 150 },
        color: { type: "string", enum: ["red", "green"], enumNames: ["Red", "Green"] },
        agree: { type: "boolean", default: false },
        email: { type: "string", format: "email" },
      },
      required: ["name"],
    },
    [
      { name: "Lin", age: 30, color: "red", agree: true },
      { name: "Lin", age: 30.5 },
      { name: "Lin", color: "blue" },
      { age: 1 },
    ],
  ],
];

describe("compileJsonSchema agrees with @cfworker/json-schema", () => {
  const pairs = CORPUS.flatMap(([name, schema, instances]) =>
    instances.map((instance, i) => [`${name} #${i}`, schema, instance] as const),
  );

  it("has a corpus big enough to mean something", () => {
    expect(pairs.length).toBeGreaterThanOrEqual(60);
  });

  it.each(pairs)("%s", (_name, schema, instance) => {
    const theirs = new Validator(schema as Schema, "2020-12", false).validate(instance).valid;
    expect(compileJsonSchema(schema)(instance).valid).toBe(theirs);
  });
});

function deepFreeze<T>(value: T): T {
  if (typeof value === "object" && value !== null) {
    for (const child of Object.values(value)) deepFreeze(child);
    Object.freeze(value);
  }
  return value;
}
