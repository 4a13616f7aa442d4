/** JSON-RPC and MCP error codes used on the wire. */
export const ErrorCode = {
  ParseError: -32700,
  InvalidRequest: -32600,
  MethodNotFound: -32601,
  InvalidParams: -32602,
  InternalError: -32603,
  /** Legacy transport errors: implementation-defined range, the SDK's convention. */
  ConnectionClosed: -32000,
  RequestTimeout: -32001,
  /** Legacy: a resource that does not exist (2025-11-25 and earlier). */
  ResourceNotFound: -32002,
  /** Modern: a standard header is missing or disagrees with the body. */
  HeaderMismatch: -32020,
  /** Modern: the request needs a client capability it did not declare. */
  MissingRequiredClientCapability: -32021,
  /** Modern: the claimed protocol revision is not served. */
  UnsupportedProtocolVersion: -32022,
  /** Legacy 2025-11-25: a URL elicitation is required before the call can go on. */
  UrlElicitationRequired: -32042,
} as const;

/** Legacy transport code for session failures (SDK convention; the spec names only the HTTP status). */
export const SESSION_ERROR_CODE = -32000;
/** Legacy: the SDK's code for an unknown session, answered with 404. */
export const SESSION_NOT_FOUND_CODE = -32001;

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
  /** HTTP status to answer with when the error ends the exchange before any stream opened. */
  readonly httpStatus: number | undefined;

  constructor(code: number, message: string, data?: unknown, httpStatus?: number) {
    super(message);
    this.name = "McpError";
    this.code = code;
    this.data = data;
    this.httpStatus = httpStatus;
  }
}

/** True for an {@link McpError}, including one from another copy of this library. */
export function isMcpError(value: unknown): value is McpError {
  return (
    value instanceof McpError ||
    (typeof value === "object" &&
      value !== null &&
      (value as { name?: unknown }).name === "McpError" &&
      typeof (value as { code?: unknown }).code === "number")
  );
}
