/** Readable validation messages: one `path: message` line per issue, for people and for models. */
import type { StandardSchemaV1 } from "@standard-schema/spec";
import { MAX_ECHO_LENGTH } from "../protocol/echo.ts";
import type { SchemaIssue } from "./json-schema/check.ts";

/** Enough issues to fix the call; a huge invalid array must not make a huge error. */
const MAX_ISSUES = 10;

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
 * Formats the issues of our JSON Schema validator as `path: message` lines joined by `; `.
 *
 * @example
 * formatSchemaIssues([{ path: "/n", message: "0 is less than 1." }]); // "n: 0 is less than 1."
 */
export function formatSchemaIssues(issues: readonly SchemaIssue[]): string {
  return joinLines(issues.map((issue) => `${formatPointer(issue.path)}: ${issue.message}`));
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
    text += text === "" ? clip(String(key)) : `.${clip(String(key))}`;
  }
  return text;
}

/** `/tags/0` → `tags.0`; the root pointer `""` → `(root)`. */
function formatPointer(pointer: string): string {
  if (pointer === "") return "(root)";
  return pointer
    .slice(1)
    .split("/")
    .map((segment) => clip(segment.replace(/~1/g, "/").replace(/~0/g, "~")))
    .join(".");
}

/** A path segment is a key of the client's: cut short like any quoted client value. */
function clip(segment: string): string {
  return segment.length > MAX_ECHO_LENGTH ? `${segment.slice(0, MAX_ECHO_LENGTH)}…` : segment;
}
