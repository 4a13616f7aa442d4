/** The shapes every compiled keyword shares, and the small helpers they report issues with. */
import { messageOf } from "../../protocol/errors.ts";
import type { JsonObject } from "../../protocol/jsonrpc.ts";

/** One reason a value fails a schema: where (a JSON pointer into the value, `""` for the root) and why. */
export interface SchemaIssue {
  path: string;
  message: string;
}

/**
 * What the in-place keywords of one instance location have evaluated, for `unevaluatedProperties` and
 * `unevaluatedItems`. Only schemas that use those keywords create one; everywhere else it is `undefined`
 * and nothing is tracked.
 */
export interface Seen {
  props: Set<string>;
  items: Set<number>;
}

/**
 * A compiled schema or keyword. With `issues` it records every failure (paths relative to the value it
 * was given); without, it may stop at the first. `seen` is filled when given.
 */
export type Check = (value: unknown, issues: SchemaIssue[] | undefined, seen: Seen | undefined) => boolean;

/** What keyword compilers need from the compiler: subschemas and references, compiled once. */
export interface Compiler {
  /** 4, 6, 7, 2019 or 2020, from the root's `$schema`. */
  readonly draft: number;
  /** Compiles a subschema found at `loc` (a JSON pointer into the schema, for messages). */
  sub(schema: unknown, base: string, loc: string): Check;
  /** Compiles the target of a `$ref` (or, `dynamic`, a `$dynamicRef`) written where the base URI is `base`. */
  ref(ref: string, base: string, loc: string, dynamic: boolean): Check;
}

/** One schema object being compiled, where it is, and the URI its references are relative to. */
export interface Node {
  readonly schema: JsonObject;
  readonly base: string;
  readonly loc: string;
  readonly compiler: Compiler;
}

export const pass: Check = () => true;

/** Records an issue at the current location and fails. */
export function fail(issues: SchemaIssue[] | undefined, message: string): false {
  issues?.push({ path: "", message });
  return false;
}

/**
 * Runs a check on a member of the value. The member's path is only put together when it fails, so valid
 * values cost no string work.
 */
export function checkAt(
  check: Check,
  value: unknown,
  key: string | number,
  issues: SchemaIssue[] | undefined,
): boolean {
  const start = issues ? issues.length : 0;
  if (check(value, issues, undefined)) return true;
  if (issues) {
    const segment = `/${escapeKey(String(key))}`;
    for (let i = start; i < issues.length; i++) issues[i]!.path = segment + issues[i]!.path;
  }
  return false;
}

/** Runs every check; with `issues` it goes on after a failure to report everything. */
export function every(checks: Check[]): Check {
  if (checks.length === 0) return pass;
  if (checks.length === 1) return checks[0]!;
  return (value, issues, seen) => {
    let ok = true;
    for (const check of checks) {
      if (!check(value, issues, seen)) {
        if (!issues) return false;
        ok = false;
      }
    }
    return ok;
  };
}

export function newSeen(): Seen {
  return { props: new Set(), items: new Set() };
}

export function merge(into: Seen, from: Seen): void {
  for (const name of from.props) into.props.add(name);
  for (const index of from.items) into.items.add(index);
}

/** A keyword's value when it has the type the keyword needs; a malformed keyword is ignored like an unknown one. */
export function numberAt(schema: JsonObject, key: string): number | undefined {
  const value = schema[key];
  return typeof value === "number" ? value : undefined;
}

/** `new RegExp(pattern, "u")`, compiled once; an invalid pattern fails the definition, not every call. */
export function regexAt(pattern: string, loc: string): RegExp {
  try {
    return new RegExp(pattern, "u");
  } catch (error) {
    const reason = messageOf(error);
    throw new Error(`invalid regular expression ${JSON.stringify(pattern)} at ${loc}: ${reason}`, { cause: error });
  }
}

/** Escapes a key for a JSON pointer into the schema. */
export function escapeKey(key: string): string {
  return key.replace(/~/g, "~0").replace(/\//g, "~1");
}
