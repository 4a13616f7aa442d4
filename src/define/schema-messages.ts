/** Readable validation messages: one `path: message` line per issue, for people and for models. */
import type { OutputUnit } from "@cfworker/json-schema";
import type { StandardSchemaV1 } from "@standard-schema/spec";

/** Enough issues to fix the call; a huge invalid array must not make a huge error. */
const MAX_ISSUES = 10;

/**
 * Keywords whose error only says "a subschema failed" and is followed by that subschema's own errors,
 * which say more: the summary is left out.
 */
const SUMMARY_KEYWORDS = new Set([
  "allOf",
  "if",
  "properties",
  "patternProperties",
  "dependentSchemas",
  "dependencies",
  "$ref",
  "$recursiveRef",
  "$dynamicRef",
  "items",
  "prefixItems",
  "additionalItems",
]);

/**
 * Keywords whose nested errors describe alternatives or inverted matches and only confuse: the summary
 * ("does not match any subschemas") is kept and what it contains is left out.
 */
const OPAQUE_KEYWORDS = new Set(["anyOf", "oneOf", "not", "contains", "propertyNames"]);

/** Keywords whose summary names the offending property; the `false` schema error after it says nothing more. */
const NAMING_KEYWORDS = new Set(["additionalProperties", "unevaluatedProperties", "unevaluatedItems"]);

/**
 * Formats Standard Schema issues as `path: message` lines joined by `; `.
 *
 * @example
 * formatStandardIssues([{ message: "Expected string", path: ["city"] }]); // "city: Expected string"
 */
export function formatStandardIssues(issues: readonly StandardSchemaV1.Issue[]): string {
  const lines: string[] = [];
  for (const issue of issues) {
    lines.push(`${formatIssuePath(issue.path)}: ${issue.message}`);
  }
  return joinLines(lines);
}

/**
 * Formats `@cfworker/json-schema` output units as `path: message` lines joined by `; `, leaving out
 * the summaries that only repeat what the nested errors say.
 *
 * @example
 * formatValidatorErrors(validator.validate({ n: 0 }).errors); // "n: 0 is less than 1."
 */
export function formatValidatorErrors(units: readonly OutputUnit[]): string {
  const lines: string[] = [];
  let hiddenBelow: string | undefined;
  let previous: string | undefined;
  for (const unit of units) {
    const keyword = unit.keyword;
    const after = previous;
    previous = keyword;
    if (hiddenBelow !== undefined && unit.keywordLocation.startsWith(hiddenBelow)) continue;
    hiddenBelow = undefined;
    if (SUMMARY_KEYWORDS.has(keyword)) continue;
    if (keyword === "false" && after !== undefined && NAMING_KEYWORDS.has(after)) continue;
    if (OPAQUE_KEYWORDS.has(keyword)) hiddenBelow = `${unit.keywordLocation}/`;
    lines.push(`${formatPointer(unit.instanceLocation)}: ${unit.error}`);
  }
  if (lines.length === 0 && units.length > 0) {
    const first = units[0]!;
    lines.push(`${formatPointer(first.instanceLocation)}: ${first.error}`);
  }
  return joinLines(lines);
}

function joinLines(lines: string[]): string {
  const unique = [...new Set(lines)];
  if (unique.length <= MAX_ISSUES) return unique.join("; ");
  return `${unique.slice(0, MAX_ISSUES).join("; ")}; and ${unique.length - MAX_ISSUES} more`;
}

function formatIssuePath(path: StandardSchemaV1.Issue["path"]): string {
  if (path === undefined || path.length === 0) return "(root)";
  let text = "";
  for (const segment of path) {
    const key = typeof segment === "object" && segment !== null ? segment.key : segment;
    text += text === "" ? String(key) : `.${String(key)}`;
  }
  return text;
}

/** `#/tags/0` → `tags.0`; `#` → `(root)`. */
function formatPointer(pointer: string): string {
  const body = pointer.startsWith("#") ? pointer.slice(1) : pointer;
  if (body === "" || body === "/") return "(root)";
  let decoded = body;
  try {
    decoded = decodeURIComponent(body);
  } catch {
    // The validator URI-encodes keys; keep the raw text when it does not decode.
  }
  return decoded
    .slice(1)
    .split("/")
    .map((segment) => segment.replace(/~1/g, "/").replace(/~0/g, "~"))
    .join(".");
}
