/** Keywords on objects: properties and what they require of each other. */
import { echoValue } from "../../protocol/echo.ts";
import { isObject } from "../../protocol/jsonrpc.ts";
import type { JsonObject } from "../../protocol/jsonrpc.ts";
import { checkAt, escapeKey, fail, numberAt, regexAt } from "./check.ts";
import type { Check, Node, SchemaIssue, Seen } from "./check.ts";

type ObjectCheck = (value: JsonObject, issues: SchemaIssue[] | undefined, seen: Seen | undefined) => boolean;
type KeyCheck = (value: JsonObject, key: string, issues: SchemaIssue[] | undefined, seen: Seen | undefined) => boolean;

/**
 * Compiles the object keywords into `checks`; `unevaluatedProperties` goes into `late`, to run once every
 * other keyword of the schema has said which properties it evaluated.
 */
export function compileObjectKeywords(node: Node, checks: Check[], late: Check[]): void {
  const { schema, base, loc, compiler } = node;
  const sub = (value: unknown, path: string): Check => compiler.sub(value, base, `${loc}/${path}`);
  const onObject = (check: ObjectCheck, into = checks): void => {
    into.push((value, issues, seen) => !isObject(value) || check(value, issues, seen));
  };
  /** Checks every property of the value; `test` records its own issues. */
  const eachKey = (test: KeyCheck, into = checks): void => {
    onObject((value, issues, seen) => {
      let ok = true;
      for (const key of Object.keys(value)) {
        if (test(value, key, issues, seen)) continue;
        if (!issues) return false;
        ok = false;
      }
      return ok;
    }, into);
  };

  const properties = isObject(schema.properties) ? schema.properties : {};
  const named = new Map(
    Object.keys(properties).map((key) => [key, sub(properties[key], `properties/${escapeKey(key)}`)]),
  );
  const patterns = Object.entries(isObject(schema.patternProperties) ? schema.patternProperties : {}).map(
    ([pattern, value]) => {
      const path = `patternProperties/${escapeKey(pattern)}`;
      return [regexAt(pattern, `${loc}/${path}`), sub(value, path)] as const;
    },
  );
  const additional = schema.additionalProperties;
  const others = additional === undefined ? undefined : sub(additional, "additionalProperties");
  if (named.size > 0 || patterns.length > 0 || others) {
    // Each property is checked by its `properties` schema, every matching `patternProperties` schema, and,
    // when neither applies, by `additionalProperties`; all of them count as evaluated.
    eachKey((value, key, issues, seen) => {
      const own = named.get(key);
      let ok = !own || checkAt(own, value[key], key, issues);
      let matched = own !== undefined;
      for (const [regex, check] of patterns) {
        if (!regex.test(key)) continue;
        matched = true;
        ok = checkAt(check, value[key], key, issues) && ok;
      }
      if (!matched && !others) return ok;
      seen?.props.add(key);
      if (matched) return ok;
      return additional === false
        ? fail(issues, `Property ${echoValue(key)} does not match additional properties schema.`)
        : checkAt(others!, value[key], key, issues);
    });
  }

  // Draft 3 wrote `required: true` inside a property's schema: not an array, so not a keyword here.
  const required = (names: unknown, message: (name: string) => string, when?: string): void => {
    if (!Array.isArray(names)) return;
    const strings = names.filter((name) => typeof name === "string");
    onObject((value, issues) => {
      if (when !== undefined && !Object.hasOwn(value, when)) return true;
      let ok = true;
      for (const name of strings) {
        if (Object.hasOwn(value, name)) continue;
        ok = fail(issues, message(name));
        if (!issues) return false;
      }
      return ok;
    });
  };
  required(schema.required, (name) => `Instance does not have required property ${JSON.stringify(name)}.`);
  for (const keyword of ["dependentRequired", "dependentSchemas", "dependencies"]) {
    const map = schema[keyword];
    if (!isObject(map)) continue;
    for (const [when, value] of Object.entries(map)) {
      // `dependencies` was both: a list of names, or a schema.
      if (keyword === "dependentRequired" || (keyword === "dependencies" && Array.isArray(value))) {
        const because = `Property ${JSON.stringify(when)} requires property`;
        required(value, (name) => `${because} ${JSON.stringify(name)}.`, when);
        continue;
      }
      const check = sub(value, `${keyword}/${escapeKey(when)}`);
      onObject((object, issues, seen) => !Object.hasOwn(object, when) || check(object, issues, seen));
    }
  }
  if (schema.propertyNames !== undefined) {
    const check = sub(schema.propertyNames, "propertyNames");
    eachKey(
      (_value, key, issues) =>
        check(key, undefined, undefined) ||
        fail(issues, `Property name ${echoValue(key)} does not match the "propertyNames" schema.`),
    );
  }
  for (const [keyword, words, holds] of [
    ["maxProperties", "more than", (count: number, limit: number) => count <= limit],
    ["minProperties", "fewer than", (count: number, limit: number) => count >= limit],
  ] as const) {
    const limit = numberAt(schema, keyword);
    if (limit === undefined) continue;
    const message = `Object has ${words} ${limit} properties.`;
    onObject((value, issues) => holds(Object.keys(value).length, limit) || fail(issues, message));
  }

  const unevaluated = schema.unevaluatedProperties;
  if (unevaluated !== undefined) {
    // Only what no other keyword of this schema evaluated; afterwards every property counts as evaluated.
    const check = sub(unevaluated, "unevaluatedProperties");
    eachKey((value, key, issues, seen) => {
      if (seen!.props.has(key)) return true;
      seen!.props.add(key);
      return unevaluated === false
        ? fail(issues, `Property ${echoValue(key)} does not match unevaluated properties schema.`)
        : checkAt(check, value[key], key, issues);
    }, late);
  }
}
