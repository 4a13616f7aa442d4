// One constant per code, so that bundlers write the number itself where a code is used.
export const PARSE_ERROR = -32700;
export const INVALID_REQUEST = -32600;
export const METHOD_NOT_FOUND = -32601;
export const INVALID_PARAMS = -32602;
export const INTERNAL_ERROR = -32603;
/**
 * Legacy transport errors (403, 405, 406, 409, 415, a session header missing, …): the
 * implementation-defined `-32000`, the SDK's convention (the spec names only the HTTP status).
 */
export const CONNECTION_CLOSED = -32000;
export const REQUEST_TIMEOUT = -32001;
/** Legacy: a resource that does not exist (2025-11-25 and earlier). */
export const RESOURCE_NOT_FOUND = -32002;
/** Modern: a standard header is missing or disagrees with the body. */
export const HEADER_MISMATCH = -32020;
/** Modern: the request needs a client capability it did not declare. */
export const MISSING_REQUIRED_CLIENT_CAPABILITY = -32021;
/** Modern: the claimed protocol revision is not served. */
export const UNSUPPORTED_PROTOCOL_VERSION = -32022;
/** SEP-3304 (draft, for 2026-12-15): a rate limit refused the request; `data.retryAfterMs` says when to retry. */
export const RATE_LIMITED = -32023;
/** Legacy 2025-11-25: a URL elicitation is required before the call can go on. */
const URL_ELICITATION_REQUIRED = -32042;

/** JSON-RPC and MCP error codes used on the wire. */
export const ErrorCode = {
  ParseError: PARSE_ERROR,
  InvalidRequest: INVALID_REQUEST,
  MethodNotFound: METHOD_NOT_FOUND,
  InvalidParams: INVALID_PARAMS,
  InternalError: INTERNAL_ERROR,
  /** Legacy transport errors: implementation-defined range, the SDK's convention. */
  ConnectionClosed: CONNECTION_CLOSED,
  RequestTimeout: REQUEST_TIMEOUT,
  /** Legacy: a resource that does not exist (2025-11-25 and earlier). */
  ResourceNotFound: RESOURCE_NOT_FOUND,
  /** Modern: a standard header is missing or disagrees with the body. */
  HeaderMismatch: HEADER_MISMATCH,
  /** Modern: the request needs a client capability it did not declare. */
  MissingRequiredClientCapability: MISSING_REQUIRED_CLIENT_CAPABILITY,
  /** Modern: the claimed protocol revision is not served. */
  UnsupportedProtocolVersion: UNSUPPORTED_PROTOCOL_VERSION,
  /** Legacy 2025-11-25: a URL elicitation is required before the call can go on. */
  UrlElicitationRequired: URL_ELICITATION_REQUIRED,
} as const;

/** Legacy: the SDK's code for an unknown session, answered with 404. */
export const SESSION_NOT_FOUND_CODE = -32001;

/**
 * The brand of {@link McpError}: registered (`Symbol.for`), so every copy of this library shares it,
 * and named after the library, so no other package's error carries it by chance.
 */
const BRAND = Symbol.for("mcp-h3.McpError");

/**
 * An error that becomes a JSON-RPC error response, with the given code, message and data.
 * Throw it from a handler when the request itself is wrong; a plain `Error` thrown by a tool
 * becomes an `isError: true` result the model can read instead.
 *
 * @example
 * throw new McpError(ErrorCode.InvalidParams, "Unknown city", { city });
 */
export class McpError extends Error {
  readonly code: number;
  readonly data: unknown;

  constructor(code: number, message: string, data?: unknown) {
    super(message);
    this.name = "McpError";
    this.code = code;
    this.data = data;
  }

  static {
    // The brand isMcpError reads: on the prototype (nothing stored per error), not enumerable
    // (nothing in a serialized error), and not in the public type.
    Object.defineProperty(McpError.prototype, BRAND, { value: true });
  }
}

/**
 * True for an {@link McpError} of this library, including one from another copy of it (a second
 * install, another bundle), recognised by its registered brand. An error that only looks alike is
 * not one: the MCP SDK's own `McpError` (same name, a numeric code), thrown by a client inside a
 * proxying tool, is that tool's failure and stays an `isError` result the model can read.
 */
export function isMcpError(value: unknown): value is McpError {
  return (
    value instanceof McpError ||
    (typeof value === "object" && value !== null && (value as Record<symbol, unknown>)[BRAND] === true)
  );
}

/** The message of a thrown value, whatever was thrown. */
export function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
