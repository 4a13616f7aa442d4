/** Keywords that apply subschemas to the same value: `allOf`, `anyOf`, `oneOf`, `not`, `if`/`then`/`else`. */
import { every, fail, merge, newSeen } from "./check.ts";
import type { Check, Node, Seen } from "./check.ts";

/**
 * Compiles the combinators into `checks`. Alternatives (`anyOf`, `oneOf`, `not`, `if`) report one summary
 * rather than the failures of every branch, which would mostly describe branches the caller did not mean.
 * What a branch evaluates counts for `unevaluated*` only when the branch holds.
 */
export function compileCombinators(node: Node, checks: Check[]): void {
  const { schema, base, loc, compiler } = node;
  const list = (keyword: string): Check[] | undefined => {
    const value = schema[keyword];
    return Array.isArray(value)
      ? value.map((item, i) => compiler.sub(item, base, `${loc}/${keyword}/${i}`))
      : undefined;
  };
  const allOf = list("allOf");
  if (allOf) checks.push(every(allOf));
  const anyOf = list("anyOf");
  if (anyOf) {
    checks.push((value, issues, seen) => {
      let ok = false;
      for (const branch of anyOf) {
        // Without tracking the first match decides; with it, every matching branch adds what it evaluated.
        if (!seen) {
          if (branch(value, undefined, undefined)) return true;
          continue;
        }
        const local = newSeen();
        if (branch(value, undefined, local)) {
          merge(seen, local);
          ok = true;
        }
      }
      return ok || fail(issues, matchesNone("anyOf"));
    });
  }
  const oneOf = list("oneOf");
  if (oneOf) {
    checks.push((value, issues, seen) => {
      let match = -1;
      let matched: Seen | undefined;
      for (let i = 0; i < oneOf.length; i++) {
        const local = seen && newSeen();
        if (!oneOf[i]!(value, undefined, local)) continue;
        if (match >= 0) return fail(issues, `Value matches more than one of the "oneOf" schemas (${match} and ${i}).`);
        match = i;
        matched = local;
      }
      if (match < 0) return fail(issues, matchesNone("oneOf"));
      if (seen && matched) merge(seen, matched);
      return true;
    });
  }
  if (schema.not !== undefined) {
    const not = compiler.sub(schema.not, base, `${loc}/not`);
    checks.push(
      (value, issues) => !not(value, undefined, undefined) || fail(issues, 'Value must not match the "not" schema.'),
    );
  }
  if (schema.if !== undefined) {
    const condition = compiler.sub(schema.if, base, `${loc}/if`);
    const then = schema.then === undefined ? undefined : compiler.sub(schema.then, base, `${loc}/then`);
    const otherwise = schema.else === undefined ? undefined : compiler.sub(schema.else, base, `${loc}/else`);
    checks.push((value, issues, seen) => {
      const local = seen && newSeen();
      if (condition(value, undefined, local)) {
        if (seen && local) merge(seen, local);
        return then ? then(value, issues, seen) : true;
      }
      return otherwise ? otherwise(value, issues, seen) : true;
    });
  }
}

function matchesNone(keyword: string): string {
  return `Value does not match any of the "${keyword}" schemas.`;
}
