/**
 * Standard request headers of the modern era (SEP-2243): `MCP-Protocol-Version`, `Mcp-Method`,
 * `Mcp-Name` and `Mcp-Param-*` must be present and equal to the body. Names are case-insensitive,
 * values case-sensitive; a `=?base64?…?=` value is decoded before it is compared.
 */
import { decodeCanonicalBase64 } from "../define/base64.ts";
import type { HeaderParam } from "../types/definitions.ts";
import type { Inbound } from "../http/inbound.ts";
import { MAX_ECHO_LENGTH, echoValue } from "../protocol/echo.ts";
import { HEADER_MISMATCH } from "../protocol/errors.ts";
import { isObject, type JsonObject } from "../protocol/jsonrpc.ts";
import type { Refusal } from "../http/refusal.ts";

const SENTINEL_START = "=?base64?";
const SENTINEL_END = "?=";

/**
 * Decodes a `=?base64?…?=` header value; any other value is compared literally and comes back as it
 * is. A sentinel whose payload is not canonical base64 (padded, unused bits zero) of UTF-8 comes back
 * undefined, so one value has one spelling only.
 */
export function decodeHeaderValue(value: string): string | undefined {
  const isSentinel =
    value.length >= SENTINEL_START.length + SENTINEL_END.length &&
    value.startsWith(SENTINEL_START) &&
    value.endsWith(SENTINEL_END);
  if (!isSentinel) return value;
  const bytes = decodeCanonicalBase64(value.slice(SENTINEL_START.length, value.length - SENTINEL_END.length));
  if (bytes === undefined) return undefined;
  try {
    return new TextDecoder("utf-8", { fatal: true }).decode(bytes);
  } catch {
    return undefined;
  }
}

/**
 * The 400 refusal. `data.mismatch` names the header and the body value (as the TypeScript SDK does);
 * a long string body value is cut like the message's quotes, and the header's own value is not
 * sent back: both come from the client, and an error must stay small whatever it sent.
 */
function mismatch(header: string, text: string, body: unknown): Refusal {
  const shown =
    typeof body === "string" && body.length > MAX_ECHO_LENGTH
      ? `${body.slice(0, MAX_ECHO_LENGTH)}…`
      : typeof body === "object" && body !== null
        ? echoValue(body)
        : (body ?? null);
  return {
    status: 400,
    code: HEADER_MISMATCH,
    message: `Header mismatch: ${text}`,
    data: { mismatch: { header, body: shown } },
  };
}

/** Both values quoted short: a header or body value may be long, and a body value deeply nested. */
function differs(header: string, decoded: string, body: unknown): string {
  return `${header} header value ${echoValue(decoded)} does not match body value ${echoValue(body)}`;
}

/** Checks one header's value (`sent`, null when absent) against the body value it mirrors. */
function checkHeader(header: string, sent: string | null, body: string): Refusal | undefined {
  // The common case: the literal value, which is no sentinel (those start with "=").
  if (sent === body && sent.charCodeAt(0) !== 61) return undefined;
  if (sent === null) return mismatch(header, `${header} header is required (body value ${echoValue(body)})`, body);
  const decoded = decodeHeaderValue(sent);
  if (decoded === undefined) return mismatch(header, `${header} header has an invalid base64 value`, body);
  if (decoded !== body) {
    return mismatch(header, differs(header, decoded, body), body);
  }
  return undefined;
}

/** `MCP-Protocol-Version` (the header's value, read once by the caller) against the `_meta` claim. */
export function checkVersionHeader(sent: string | null, version: string): Refusal | undefined {
  return checkHeader("MCP-Protocol-Version", sent, version);
}

/**
 * `Mcp-Method` and `Mcp-Name` of a modern request; `name` is what the request names (`requestName`,
 * from its method's descriptor), undefined when its method names nothing or is not served.
 */
export function checkStandardHeaders(inbound: Inbound, method: string, name: string | undefined): Refusal | undefined {
  const checked = checkHeader("Mcp-Method", inbound.header("mcp-method"), method);
  if (checked) return checked;
  return name === undefined ? undefined : checkHeader("Mcp-Name", inbound.header("mcp-name"), name);
}

function valueAt(args: JsonObject, path: readonly string[]): unknown {
  let value: unknown = args;
  for (const key of path) {
    if (!isObject(value) || !Object.hasOwn(value, key)) return undefined;
    value = value[key];
  }
  return value;
}

function sameValue(param: HeaderParam, header: string, body: unknown): boolean {
  if (param.type === "string") return header === body;
  if (param.type === "boolean") return header === String(body);
  // Integers compare numerically: "42.0" equals 42.
  return header.trim() !== "" && Number(header) === body;
}

/** `Mcp-Param-*` headers of a `tools/call`, for the tool's `x-mcp-header` properties. */
export function checkParamHeaders(
  inbound: Inbound,
  params: readonly HeaderParam[],
  args: JsonObject,
): Refusal | undefined {
  for (const param of params) {
    const body = valueAt(args, param.path);
    // Absent or null values are not mirrored, so no header is expected.
    if (body === undefined || body === null) continue;
    const header = `Mcp-Param-${param.header}`;
    const sent = inbound.header(header.toLowerCase());
    if (sent === null) return mismatch(header, `${header} header is required`, body);
    const decoded = decodeHeaderValue(sent);
    if (decoded === undefined) return mismatch(header, `${header} header has an invalid base64 value`, body);
    if (!sameValue(param, decoded, body)) {
      return mismatch(header, differs(header, decoded, body), body);
    }
  }
  return undefined;
}
