/** Keywords on any value (`type`, `enum`, `const`), on numbers and on strings. */
import { isObject } from "../../protocol/jsonrpc.ts";
import { fail, numberAt, regexAt } from "./check.ts";
import type { Check, Node } from "./check.ts";
import { equal } from "./equal.ts";

const TYPES: Record<string, (value: unknown) => boolean> = {
  string: (value) => typeof value === "string",
  number: (value) => typeof value === "number",
  integer: (value) => Number.isInteger(value),
  boolean: (value) => typeof value === "boolean",
  null: (value) => value === null,
  object: isObject,
  array: Array.isArray,
};

/** Compiles `type`, `enum` and `const` into `checks`. */
export function compileValueKeywords({ schema }: Node, checks: Check[]): void {
  const type = schema.type;
  const names = typeof type === "string" ? [type] : Array.isArray(type) ? type.map(String) : [];
  if (names.length > 0) {
    // An unknown type name (draft 3's "any") matches nothing, as no value has it.
    const tests = names.map((name) => (Object.hasOwn(TYPES, name) ? TYPES[name]! : () => false));
    const expected = `Expected ${names.join(" or ")}, got`;
    const test = tests.length === 1 ? tests[0]! : (value: unknown) => tests.some((is) => is(value));
    checks.push((value, issues) => test(value) || fail(issues, `${expected} ${typeName(value)}.`));
  }
  if (Array.isArray(schema.enum)) checks.push(compileEnum(schema.enum));
  if ("const" in schema) {
    const expected = schema.const;
    const message = `Value must be ${JSON.stringify(expected)}.`;
    checks.push((value, issues) => equal(value, expected) || fail(issues, message));
  }
}

function compileEnum(values: unknown[]): Check {
  const listed = values.slice(0, 10).map((value) => JSON.stringify(value));
  const message = `Value must be one of ${listed.join(", ")}${values.length > 10 ? ", …" : ""}.`;
  // Enums of strings and numbers (nearly all of them) are a set lookup.
  if (values.every((value) => typeof value !== "object" || value === null)) {
    const allowed = new Set(values);
    return (value, issues) => allowed.has(value) || fail(issues, message);
  }
  return (value, issues) => values.some((allowed) => equal(value, allowed)) || fail(issues, message);
}

/** Compiles the number keywords into `checks`, including draft 4's boolean `exclusiveMaximum`/`exclusiveMinimum`. */
export function compileNumberKeywords({ schema }: Node, checks: Check[]): void {
  const maximum = numberAt(schema, "maximum");
  const minimum = numberAt(schema, "minimum");
  // Draft 4's `exclusiveMaximum: true` makes `maximum` exclusive; since draft 6 both are bounds of their own.
  const oldMaximum = schema.exclusiveMaximum === true;
  const oldMinimum = schema.exclusiveMinimum === true;
  const multipleOf = numberAt(schema, "multipleOf");
  const bounds: [limit: number | undefined, holds: (value: number, limit: number) => boolean, fails: string][] = [
    [oldMaximum ? undefined : maximum, (n, limit) => n <= limit, "greater than"],
    [oldMaximum ? maximum : numberAt(schema, "exclusiveMaximum"), (n, limit) => n < limit, "greater than or equal to"],
    [oldMinimum ? undefined : minimum, (n, limit) => n >= limit, "less than"],
    [oldMinimum ? minimum : numberAt(schema, "exclusiveMinimum"), (n, limit) => n > limit, "less than or equal to"],
    [multipleOf !== undefined && multipleOf > 0 ? multipleOf : undefined, isMultipleOf, "not a multiple of"],
  ];
  for (const [limit, holds, fails] of bounds) {
    if (limit === undefined) continue;
    checks.push((value, issues) => {
      return typeof value !== "number" || holds(value, limit) || fail(issues, `${value} is ${fails} ${limit}.`);
    });
  }
}

function isMultipleOf(value: number, divisor: number): boolean {
  const quotient = value / divisor;
  // 1e308 / 0.5 overflows, yet every integer is a multiple of a divisor like 0.5.
  if (!Number.isFinite(quotient)) return Number.isInteger(value) && Number.isInteger(1 / divisor);
  if (Number.isInteger(quotient)) return true;
  // Binary floating point makes 0.3 / 0.1 2.9999999999999996: compare at the decimals the numbers are written with.
  const scale = 10 ** Math.max(decimals(value), decimals(divisor));
  return scale > 1 && Math.round(value * scale) % Math.round(divisor * scale) === 0;
}

/** Digits after the decimal point of a number as JavaScript prints it (`1.5e-7` has 8). */
function decimals(value: number): number {
  const [mantissa = "", exponent = "0"] = String(value).split("e");
  const dot = mantissa.indexOf(".");
  return Math.max(0, (dot < 0 ? 0 : mantissa.length - dot - 1) - Number(exponent));
}

/** Compiles `maxLength`, `minLength` (in Unicode code points, as the specification counts) and `pattern`. */
export function compileStringKeywords({ schema, loc }: Node, checks: Check[]): void {
  const maxLength = numberAt(schema, "maxLength");
  const minLength = numberAt(schema, "minLength");
  if (maxLength !== undefined) {
    const message = `String is longer than ${maxLength} characters.`;
    checks.push((value, issues) => {
      // A string never has more code points than UTF-16 units: most need no counting.
      if (typeof value !== "string" || value.length <= maxLength) return true;
      return codePoints(value) <= maxLength || fail(issues, message);
    });
  }
  if (minLength !== undefined) {
    const message = `String is shorter than ${minLength} characters.`;
    checks.push((value, issues) => {
      if (typeof value !== "string") return true;
      return (value.length >= minLength && codePoints(value) >= minLength) || fail(issues, message);
    });
  }
  if (typeof schema.pattern === "string") {
    const regex = regexAt(schema.pattern, `${loc}/pattern`);
    const message = `String does not match pattern ${JSON.stringify(schema.pattern)}.`;
    checks.push((value, issues) => typeof value !== "string" || regex.test(value) || fail(issues, message));
  }
}

function codePoints(text: string): number {
  // A string iterates by code point (a lone surrogate is one), which is how the keywords count length.
  let count = 0;
  for (const _ of text) count++;
  return count;
}

/** The JSON type of a value, for messages. */
export function typeName(value: unknown): string {
  if (value === null) return "null";
  if (Array.isArray(value)) return "array";
  return typeof value;
}
