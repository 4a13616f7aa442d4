/** Client values quoted back in error messages: short, one line, never walked. */

/** Longest quote of a client value in an error message, in characters. */
export const MAX_ECHO_LENGTH = 64;

/**
 * A short, printable rendering of a client value for an error message. Strings are quoted and
 * cut at {@link MAX_ECHO_LENGTH}; numbers and booleans as they are; objects and arrays only by
 * their kind, so a deep or huge value costs nothing to describe.
 *
 * @example
 * throw new McpError(ErrorCode.InvalidParams, `Unknown job: ${echoValue(params.jobId)}`);
 * echoValue("x".repeat(100)); // '"xxx…x…"': 64 characters and an ellipsis, quoted
 * echoValue({ deep: [] }); // "an object"
 */
export function echoValue(value: unknown): string {
  if (typeof value === "string") {
    const cut = value.length > MAX_ECHO_LENGTH ? `${value.slice(0, MAX_ECHO_LENGTH)}…` : value;
    return JSON.stringify(cut);
  }
  if (typeof value === "number" || typeof value === "boolean" || value === null) return String(value);
  if (Array.isArray(value)) return "an array";
  if (typeof value === "object") return "an object";
  return typeof value;
}
