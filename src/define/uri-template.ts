/**
 * RFC 6570 level-1 URI templates (`file:///{path}`, `users://{id}/profile`): simple `{var}` expansion only,
 * parsed once into the list of literals between the variables, for matching and for expansion.
 */
import { matchLiterals } from "./uri-match.ts";

/** A parsed level-1 URI template. */
export interface UriTemplate {
  /** The template as written. */
  readonly template: string;
  /** Variable names, in order of appearance. */
  readonly variables: string[];
  /** The percent-decoded variables when `uri` matches the template, else `undefined`. */
  match(uri: string): Record<string, string> | undefined;
  /** Fills the variables in, percent-encoding everything but unreserved characters; a missing one is empty. */
  expand(variables: Record<string, string | number | boolean | undefined>): string;
}

/** RFC 6570 `varname`: `varchar *( ["."] varchar )`, where varchar is ALPHA / DIGIT / "_" / pct-encoded. */
const VARNAME = /^(?:[A-Za-z0-9_]|%[0-9A-Fa-f]{2})+(?:\.(?:[A-Za-z0-9_]|%[0-9A-Fa-f]{2})+)*$/;
const OPERATORS = "+#./;?&=,!@|";

/**
 * Parses an RFC 6570 level-1 template once. Expressions other than a plain `{name}` (operators such as
 * `{+path}`, `{?q}`, lists, modifiers), unbalanced braces, repeated names and two variables with nothing
 * between them are rejected here, at definition time, with an error naming the template.
 *
 * A variable matches one or more characters other than `/`, `?` and `#`; its value is percent-decoded, and a
 * URI whose value is not valid percent-encoding does not match. Where a URI splits several ways, each
 * variable from the first takes as much as lets the rest match. Matching takes time linear in the URI's
 * length (times the number of variables), never backtracking.
 *
 * @example
 * const template = parseUriTemplate("users://{id}/profile");
 * template.match("users://a%20b/profile"); // { id: "a b" }
 * template.expand({ id: "a b" }); // "users://a%20b/profile"
 */
export function parseUriTemplate(template: string): UriTemplate {
  const literals: string[] = [];
  const variables: string[] = [];
  let position = 0;
  while (true) {
    const open = template.indexOf("{", position);
    const literal = open === -1 ? template.slice(position) : template.slice(position, open);
    if (literal.includes("}")) fail(template, `"}" without a matching "{"`);
    if (open !== -1 && literal === "" && variables.length > 0) {
      fail(template, "two variables with nothing between them cannot be told apart");
    }
    literals.push(literal);
    if (open === -1) break;
    const close = template.indexOf("}", open + 1);
    if (close === -1) fail(template, `"{" without a matching "}"`);
    variables.push(readVariable(template, template.slice(open + 1, close), variables));
    position = close + 1;
  }
  return {
    template,
    variables,
    match(uri) {
      const found = matchLiterals(literals, uri);
      if (found === undefined) return undefined;
      const values: Record<string, string> = {};
      for (let index = 0; index < variables.length; index++) {
        const value = decode(found[index]!);
        if (value === undefined) return undefined;
        values[variables[index]!] = value;
      }
      return values;
    },
    expand(values) {
      let uri = literals[0]!;
      for (let index = 0; index < variables.length; index++) {
        const value = values[variables[index]!];
        uri += (value === undefined ? "" : encodeValue(String(value))) + literals[index + 1]!;
      }
      return uri;
    },
  };
}

function readVariable(template: string, expression: string, seen: string[]): string {
  if (expression === "") fail(template, "an empty expression {}");
  if (OPERATORS.includes(expression[0]!)) {
    fail(template, `the operator "${expression[0]}" in {${expression}} is not supported (level 1: {name} only)`);
  }
  if (expression.includes(",")) fail(template, `{${expression}} lists several variables (level 1: {name} only)`);
  if (expression.includes(":") || expression.endsWith("*")) {
    fail(template, `{${expression}} has a modifier (level 1: {name} only)`);
  }
  if (!VARNAME.test(expression)) fail(template, `"${expression}" is not a valid variable name`);
  if (expression === "__proto__") fail(template, `"__proto__" cannot be a variable name`);
  if (seen.includes(expression)) fail(template, `the variable "${expression}" appears twice`);
  return expression;
}

function fail(template: string, reason: string): never {
  throw new Error(`Invalid URI template "${template}": ${reason}.`);
}

function decode(value: string): string | undefined {
  try {
    return decodeURIComponent(value);
  } catch {
    return undefined;
  }
}

/** Percent-encodes all but RFC 3986 unreserved characters (encodeURIComponent also spares `!'()*`). */
function encodeValue(value: string): string {
  return encodeURIComponent(value).replace(/[!'()*]/g, encodeReservedMark);
}

function encodeReservedMark(mark: string): string {
  return `%${mark.charCodeAt(0).toString(16).toUpperCase()}`;
}
