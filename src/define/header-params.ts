/**
 * `x-mcp-header` declarations (modern standard headers): a tool input property marked
 * `"x-mcp-header": "Region"` travels as the `Mcp-Param-Region` HTTP header too. Clients drop a tool whose
 * declarations break the spec's rules, so they are checked when the tool is defined, not when it is called.
 */
import { isObject } from "../protocol/jsonrpc.ts";
import type { JsonSchema } from "../protocol/types.ts";
import { SUBSCHEMA_KEYWORDS, SUBSCHEMA_MAP_KEYWORDS } from "./json-schema/keywords.ts";
import type { HeaderParam } from "../types/definitions.ts";

const HEADER_KEY = "x-mcp-header";
/** RFC 9110 §5.6.2 token: `1*tchar`; no spaces, controls (so no CR/LF) or delimiters. */
const TOKEN = /^[!#$%&'*+\-.^_`|~0-9A-Za-z]+$/;
/** `number` is left out on purpose: the spec forbids it (a header cannot carry `1.0` and `1` apart). */
const HEADER_TYPES = new Set(["string", "integer", "boolean"]);

/**
 * Collects the `x-mcp-header` declarations of a tool's input schema and throws at the first broken rule:
 * a declaration must sit on a property reached from the root through `properties` keys alone (not under
 * `items`, `anyOf`/`oneOf`/`allOf`/`not`, `if`/`then`/`else`, `$defs`, …), name a non-empty RFC 9110 token
 * unique case-insensitively, and mark a property of type `string`, `integer` or `boolean`.
 *
 * @example
 * collectHeaderParams({ type: "object", properties: { region: { type: "string", "x-mcp-header": "Region" } } }, "deploy");
 * // [{ header: "Region", path: ["region"], type: "string" }]
 */
export function collectHeaderParams(schema: JsonSchema, toolName: string): HeaderParam[] {
  const found: HeaderParam[] = [];
  visit(schema, [], true, found, toolName);
  const seen = new Map<string, string>();
  for (const param of found) {
    const lower = param.header.toLowerCase();
    const prior = seen.get(lower);
    if (prior !== undefined) {
      fail(toolName, param.path, `"${param.header}" is already declared as "${prior}" (names are case-insensitive)`);
    }
    seen.set(lower, param.header);
  }
  return found;
}

function visit(node: unknown, path: string[], reachable: boolean, found: HeaderParam[], toolName: string): void {
  if (!isObject(node)) return;
  if (Object.hasOwn(node, HEADER_KEY)) found.push(readDeclaration(node, path, reachable, toolName));
  const properties = node.properties;
  if (isObject(properties)) {
    for (const key of Object.keys(properties)) visit(properties[key], [...path, key], reachable, found, toolName);
  }
  // Everywhere else is off the `properties`-only path.
  for (const keyword of SUBSCHEMA_KEYWORDS) {
    const sub = node[keyword];
    for (const branch of Array.isArray(sub) ? sub : [sub])
      visit(branch, [...path, `<${keyword}>`], false, found, toolName);
  }
  for (const keyword of SUBSCHEMA_MAP_KEYWORDS) {
    const map = node[keyword];
    if (!isObject(map)) continue;
    for (const key of Object.keys(map)) visit(map[key], [...path, `<${keyword}>`, key], false, found, toolName);
  }
}

function readDeclaration(node: JsonSchema, path: string[], reachable: boolean, toolName: string): HeaderParam {
  if (!reachable || path.length === 0) {
    fail(toolName, path, "it may only mark a property reached from the root through `properties` keys alone");
  }
  const header = node[HEADER_KEY];
  if (typeof header !== "string" || !TOKEN.test(header)) {
    fail(
      toolName,
      path,
      `${JSON.stringify(header)} is not a non-empty RFC 9110 token (letters, digits, !#$%&'*+-.^_\`|~)`,
    );
  }
  const type = node.type;
  if (typeof type !== "string" || !HEADER_TYPES.has(type)) {
    const got = type === undefined ? "no type" : `type ${JSON.stringify(type)}`;
    fail(toolName, path, `the property must have type "string", "integer" or "boolean"; it has ${got}`);
  }
  return { header, path, type: type as HeaderParam["type"] };
}

function fail(toolName: string, path: readonly string[], reason: string): never {
  const where = path.length === 0 ? "the root" : `"${path.join(".")}"`;
  throw new Error(`Tool "${toolName}": invalid x-mcp-header at ${where}: ${reason}.`);
}
