/**
 * A JSON Schema validator without `eval`, so that it runs on Workers: a schema is compiled once into a tree of
 * small closures, one per keyword, which validating only calls. Draft 2020-12, and the drafts 2019-09, 7 and 4
 * where they agree with it or differ only in spelling (`definitions`, `dependencies`, tuple `items`,
 * boolean `exclusiveMaximum`). `format` is an annotation, as 2020-12 has it by default.
 */
import { isObject } from "../../protocol/jsonrpc.ts";
import type { JsonObject } from "../../protocol/jsonrpc.ts";
import { compileArrayKeywords } from "./arrays.ts";
import { every, fail, merge, newSeen, pass } from "./check.ts";
import type { Check, Compiler, Node, SchemaIssue } from "./check.ts";
import { compileCombinators } from "./combinators.ts";
import { compileObjectKeywords } from "./objects.ts";
import { DOCUMENT_URI, hasEmbeddedResources, indexSchema, resolveRef } from "./refs.ts";
import { compileNumberKeywords, compileStringKeywords, compileValueKeywords } from "./scalars.ts";

export type { SchemaIssue } from "./check.ts";

/** What a compiled JSON Schema says of a value. */
export type JsonSchemaResult = { valid: true } | { valid: false; errors: SchemaIssue[] };

const VALID: JsonSchemaResult = Object.freeze({ valid: true });

const reject: Check = (_value, issues) => fail(issues, "No value is allowed here.");

/**
 * Compiles a JSON Schema into a validating function. The schema is only read, never changed. Every
 * `$ref` must resolve within the schema itself, and every `pattern` must be a valid `u`-flag regular
 * expression: otherwise this throws, naming the culprit.
 *
 * @example
 * const validate = compileJsonSchema({ type: "object", properties: { n: { minimum: 1 } } });
 * validate({ n: 0 }); // { valid: false, errors: [{ path: "/n", message: "0 is less than 1." }] }
 */
export function compileJsonSchema(schema: JsonObject): (value: unknown) => JsonSchemaResult {
  const draft = draftOf(schema.$schema);
  const index = indexSchema(schema, draft);
  const embedded = hasEmbeddedResources(index);
  const compiled = new Map<object, Check>();
  const compiler: Compiler = {
    draft,
    sub(node, base, loc) {
      if (node === true) return pass;
      if (node === false) return reject;
      if (!isObject(node)) throw new Error(`The schema at ${loc} must be an object or a boolean.`);
      const known = compiled.get(node);
      if (known) return known;
      // A schema that refers to itself reaches itself again while being compiled: it gets this forwarder.
      let check: Check | undefined;
      compiled.set(node, (value, issues, seen) => check!(value, issues, seen));
      check = compileNode({ schema: node, base: index.baseOf.get(node) ?? base, loc, compiler });
      compiled.set(node, check);
      return check;
    },
    ref(ref, base, loc, dynamic) {
      // In a single schema resource a dynamic reference resolves as a static one; across several it may not.
      if (dynamic && embedded) throw new Error(`${loc} is not supported in a schema that embeds schemas with $id.`);
      const target = resolveRef(index, ref, base);
      return remembered(compiler.sub(target.schema, target.base, `${loc} (${ref})`));
    },
  };
  const root = compiler.sub(schema, DOCUMENT_URI, "#");
  return (value) => {
    const outer = verdicts;
    verdicts = undefined;
    try {
      // The fast pass stops at the first failure and allocates nothing; only a failure is walked again for its issues.
      if (root(value, undefined, undefined)) return VALID;
      const errors: SchemaIssue[] = [];
      root(value, errors, undefined);
      if (errors.length === 0) errors.push({ path: "", message: "Value does not match the schema." });
      return { valid: false, errors };
    } finally {
      verdicts = outer;
    }
  };
}

/**
 * What the `$ref` targets said of each object or array during the validation in progress. A recursive
 * schema whose alternatives both descend (`oneOf` of two object schemas referring back) would check a
 * value nested d levels deep 2^d times; remembering each target's verdict per value makes it once.
 * Validation is synchronous, so one module-level map serves the validation running now.
 */
let verdicts: Map<object, Map<Check, boolean>> | undefined;

/** A `$ref` target whose plain verdicts (no issues to record, nothing evaluated to track) are remembered. */
function remembered(check: Check): Check {
  return (value, issues, seen) => {
    if (issues !== undefined || seen !== undefined || typeof value !== "object" || value === null) {
      return check(value, issues, seen);
    }
    verdicts ??= new Map();
    let known = verdicts.get(value);
    if (known === undefined) verdicts.set(value, (known = new Map()));
    let verdict = known.get(check);
    if (verdict === undefined) known.set(check, (verdict = check(value, undefined, undefined)));
    return verdict;
  };
}

function compileNode(node: Node): Check {
  const { schema, base, loc, compiler } = node;
  const checks: Check[] = [];
  const late: Check[] = [];
  for (const keyword of ["$ref", "$dynamicRef", "$recursiveRef"]) {
    const ref = schema[keyword];
    if (typeof ref !== "string") continue;
    checks.push(compiler.ref(ref, base, `${loc}/${keyword}`, keyword !== "$ref"));
  }
  // Before 2019-09, the keywords beside a `$ref` were ignored.
  if (checks.length > 0 && compiler.draft <= 7) return checks[0]!;
  compileValueKeywords(node, checks);
  compileNumberKeywords(node, checks);
  compileStringKeywords(node, checks);
  compileArrayKeywords(node, checks, late);
  compileObjectKeywords(node, checks, late);
  compileCombinators(node, checks);
  if (late.length === 0) return every(checks);
  // `unevaluated*` see what the other keywords of this schema evaluated, then count as having evaluated the rest.
  const all = every([...checks, ...late]);
  return (value, issues, seen) => {
    const own = newSeen();
    const ok = all(value, issues, own);
    if (seen) merge(seen, own);
    return ok;
  };
}

/** The draft named by `$schema`: 4, 6, 7, 2019 or 2020 (the default). */
function draftOf(uri: unknown): number {
  if (typeof uri !== "string") return 2020;
  const draft = /draft-0?(\d)\b|(2019)-09/.exec(uri);
  return draft ? Number(draft[1] ?? draft[2]) : 2020;
}
