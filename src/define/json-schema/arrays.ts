/** Keywords on arrays: items, tuples, counts, uniqueness and `contains`. */
import { checkAt, fail, numberAt } from "./check.ts";
import type { Check, Node } from "./check.ts";
import { canonicalJson } from "../../protocol/canonical-json.ts";
import { equal } from "./equal.ts";

/**
 * Compiles the array keywords into `checks`; `unevaluatedItems` goes into `late`, to run once every other
 * keyword of the schema has said which items it evaluated.
 */
export function compileArrayKeywords(node: Node, checks: Check[], late: Check[]): void {
  const { schema, base, loc, compiler } = node;
  const sub = (value: unknown, path: string): Check => compiler.sub(value, base, `${loc}/${path}`);
  const onArray = (check: Check): void => {
    checks.push((value, issues, seen) => !Array.isArray(value) || check(value, issues, seen));
  };
  // A tuple is `prefixItems` then `items` (2020-12), or an `items` array then `additionalItems` (earlier drafts).
  const tuple = Array.isArray(schema.items) ? "items" : "prefixItems";
  const prefix = Array.isArray(schema[tuple])
    ? (schema[tuple] as unknown[]).map((item, index) => sub(item, `${tuple}/${index}`))
    : [];
  const restKeyword = tuple === "items" ? "additionalItems" : "items";
  const rest = schema[restKeyword] === undefined ? undefined : sub(schema[restKeyword], restKeyword);
  if (prefix.length > 0 || rest) {
    onArray((value, issues, seen) => {
      const items = value as unknown[];
      let ok = true;
      for (let i = 0; i < items.length; i++) {
        const check = i < prefix.length ? prefix[i] : rest;
        if (!check) break;
        seen?.items.add(i);
        if (!checkAt(check, items[i], i, issues)) {
          if (!issues) return false;
          ok = false;
        }
      }
      return ok;
    });
  }
  for (const [keyword, words, holds] of [
    ["maxItems", "more than", (count: number, limit: number) => count <= limit],
    ["minItems", "fewer than", (count: number, limit: number) => count >= limit],
  ] as const) {
    const limit = numberAt(schema, keyword);
    if (limit === undefined) continue;
    const message = `Array has ${words} ${limit} items.`;
    onArray((value, issues) => holds((value as unknown[]).length, limit) || fail(issues, message));
  }
  if (schema.uniqueItems === true) onArray((value, issues) => checkUnique(value as unknown[], issues));
  if (schema.contains !== undefined) onArray(compileContains(node, sub(schema.contains, "contains")));
  if (schema.unevaluatedItems !== undefined) {
    const check = sub(schema.unevaluatedItems, "unevaluatedItems");
    late.push((value, issues, seen) => {
      if (!Array.isArray(value)) return true;
      let ok = true;
      for (let i = 0; i < value.length; i++) {
        if (seen!.items.has(i)) continue;
        seen!.items.add(i);
        const valid =
          schema.unevaluatedItems === false
            ? fail(issues, `Item ${i} does not match unevaluated items schema.`)
            : checkAt(check, value[i], i, issues);
        if (!valid) {
          if (!issues) return false;
          ok = false;
        }
      }
      return ok;
    });
  }
}

/**
 * `uniqueItems` in linear time: scalars through a map by value; objects and arrays through a map by
 * their canonical JSON (keys sorted), so equal values meet under one key and only those are compared.
 * Comparing every pair instead took 14 s on a 228 KB array.
 */
function checkUnique(items: unknown[], issues: Parameters<Check>[1]): boolean {
  const scalars = new Map<unknown, number>();
  const composites = new Map<string, number[]>();
  for (let i = 0; i < items.length; i++) {
    const item = items[i];
    let twin: number | undefined;
    if (typeof item === "object" && item !== null) {
      const key = canonicalJson(item);
      const candidates = composites.get(key);
      // For JSON the same text is the same value; `equal` settles what JSON cannot write (undefined, a Date).
      twin = candidates?.find((j) => equal(items[j], item));
      if (candidates) candidates.push(i);
      else composites.set(key, [i]);
    } else {
      twin = scalars.get(item);
      scalars.set(item, i);
    }
    if (twin !== undefined) return fail(issues, `Items at indexes ${twin} and ${i} are equal.`);
  }
  return true;
}

/** `contains`, bounded by `minContains` (default 1) and `maxContains`; matching items count as evaluated. */
function compileContains({ schema }: Node, check: Check): Check {
  const min = numberAt(schema, "minContains") ?? 1;
  const max = numberAt(schema, "maxContains");
  const matching = 'that match the "contains" schema.';
  return (value, issues, seen) => {
    const items = value as unknown[];
    let count = 0;
    for (let i = 0; i < items.length; i++) {
      if (!check(items[i], undefined, undefined)) continue;
      count++;
      seen?.items.add(i);
      if (!seen && max === undefined && count >= min) return true;
    }
    if (count < min) {
      return fail(
        issues,
        min === 1 ? `Array has no items ${matching}` : `Array has fewer than ${min} items ${matching}`,
      );
    }
    return max === undefined || count <= max || fail(issues, `Array has more than ${max} items ${matching}`);
  };
}
