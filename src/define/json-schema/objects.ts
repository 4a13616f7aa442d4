/** Keywords on objects: properties and what they require of each other. */
import { isObject } from "../../protocol/jsonrpc.ts";
import type { JsonObject } from "../../protocol/jsonrpc.ts";
import { checkAt, escapeKey, fail, numberAt, regexAt } from "./check.ts";
import type { Check, Node } from "./check.ts";

/**
 * Compiles the object keywords into `checks`; `unevaluatedProperties` goes into `late`, to run once every
 * other keyword of the schema has said which properties it evaluated.
 */
export function compileObjectKeywords(node: Node, checks: Check[], late: Check[]): void {
  const { schema, base, loc, compiler } = node;
  const sub = (value: unknown, path: string): Check => compiler.sub(value, base, `${loc}/${path}`);
  const properties = isObject(schema.properties) ? schema.properties : {};
  const named = Object.keys(properties).map(
    (key) => [key, sub(properties[key], `properties/${escapeKey(key)}`)] as const,
  );
  const patterns = isObject(schema.patternProperties)
    ? Object.entries(schema.patternProperties).map(([pattern, value]) => {
        const path = `patternProperties/${escapeKey(pattern)}`;
        return [regexAt(pattern, `${loc}/${path}`), sub(value, path)] as const;
      })
    : [];
  const additional = schema.additionalProperties;
  const others = additional === undefined || additional === false ? undefined : sub(additional, "additionalProperties");
  if (named.length > 0 || patterns.length > 0 || additional !== undefined) {
    const eachKey = patterns.length > 0 || additional !== undefined;
    checks.push((value, issues, seen) => {
      if (!isObject(value)) return true;
      let ok = true;
      for (const [key, check] of named) {
        if (!Object.hasOwn(value, key)) continue;
        seen?.props.add(key);
        if (!checkAt(check, value[key], key, issues)) {
          if (!issues) return false;
          ok = false;
        }
      }
      if (!eachKey) return ok;
      for (const key of Object.keys(value)) {
        let matched = Object.hasOwn(properties, key);
        for (const [regex, check] of patterns) {
          if (!regex.test(key)) continue;
          matched = true;
          if (!checkAt(check, value[key], key, issues)) {
            if (!issues) return false;
            ok = false;
          }
        }
        if (matched) seen?.props.add(key);
        if (matched || additional === undefined) continue;
        seen?.props.add(key);
        const valid = others
          ? checkAt(others, value[key], key, issues)
          : fail(issues, `Property ${JSON.stringify(key)} does not match additional properties schema.`);
        if (!valid) {
          if (!issues) return false;
          ok = false;
        }
      }
      return ok;
    });
  }
  compileRequirements(node, checks);
  if (schema.unevaluatedProperties !== undefined) {
    late.push(
      compileUnevaluated(schema.unevaluatedProperties, sub(schema.unevaluatedProperties, "unevaluatedProperties")),
    );
  }
}

/** `required`, `dependentRequired`, `dependentSchemas`, the old `dependencies`, `propertyNames`, and the counts. */
function compileRequirements({ schema, base, loc, compiler }: Node, checks: Check[]): void {
  const onObject = (check: (value: JsonObject, issues: Parameters<Check>[1], seen: Parameters<Check>[2]) => boolean) =>
    checks.push((value, issues, seen) => !isObject(value) || check(value, issues, seen));
  const requireAll = (names: unknown[], message: (name: string) => string, when?: string): void => {
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
  // Draft 3 wrote `required: true` inside a property's schema: not an array, so not a keyword here.
  if (Array.isArray(schema.required) && schema.required.length > 0) {
    requireAll(schema.required, (name) => `Instance does not have required property ${JSON.stringify(name)}.`);
  }
  for (const keyword of ["dependentRequired", "dependentSchemas", "dependencies"]) {
    const map = schema[keyword];
    if (!isObject(map)) continue;
    for (const [when, value] of Object.entries(map)) {
      if (Array.isArray(value) && keyword !== "dependentSchemas") {
        const because = `Property ${JSON.stringify(when)} requires property`;
        requireAll(value, (name) => `${because} ${JSON.stringify(name)}.`, when);
      } else if (keyword !== "dependentRequired") {
        const check = compiler.sub(value, base, `${loc}/${keyword}/${escapeKey(when)}`);
        onObject((object, issues, seen) => !Object.hasOwn(object, when) || check(object, issues, seen));
      }
    }
  }
  if (schema.propertyNames !== undefined) {
    const check = compiler.sub(schema.propertyNames, base, `${loc}/propertyNames`);
    onObject((value, issues) => {
      let ok = true;
      for (const key of Object.keys(value)) {
        if (check(key, undefined, undefined)) continue;
        ok = fail(issues, `Property name ${JSON.stringify(key)} does not match the "propertyNames" schema.`);
        if (!issues) return false;
      }
      return ok;
    });
  }
  const maxProperties = numberAt(schema, "maxProperties");
  const minProperties = numberAt(schema, "minProperties");
  if (maxProperties !== undefined) {
    const message = `Object has more than ${maxProperties} properties.`;
    onObject((value, issues) => Object.keys(value).length <= maxProperties || fail(issues, message));
  }
  if (minProperties !== undefined) {
    const message = `Object has fewer than ${minProperties} properties.`;
    onObject((value, issues) => Object.keys(value).length >= minProperties || fail(issues, message));
  }
}

/** `unevaluatedProperties`: the properties no other keyword at this location evaluated must match it. */
function compileUnevaluated(schema: unknown, check: Check): Check {
  return (value, issues, seen) => {
    if (!isObject(value)) return true;
    let ok = true;
    for (const key of Object.keys(value)) {
      if (seen!.props.has(key)) continue;
      const valid =
        schema === false
          ? fail(issues, `Property ${JSON.stringify(key)} does not match unevaluated properties schema.`)
          : checkAt(check, value[key], key, issues);
      if (!valid) {
        if (!issues) return false;
        ok = false;
      }
    }
    for (const key of Object.keys(value)) seen!.props.add(key);
    return ok;
  };
}
