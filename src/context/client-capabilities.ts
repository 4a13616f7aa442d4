/** Client capability checks by dotted name (`"elicitation"`, `"elicitation.url"`, `"sampling.tools"`). */
import type { McpEra } from "../types/era.ts";
import { INVALID_PARAMS, MISSING_REQUIRED_CLIENT_CAPABILITY, McpError } from "../protocol/errors.ts";
import type { JsonObject } from "../protocol/jsonrpc.ts";
import { isObject } from "../protocol/jsonrpc.ts";
import type { ClientCapabilities } from "../protocol/types.ts";

function declared(capabilities: ClientCapabilities | undefined, name: string): boolean {
  const [head, member] = name.split(".", 2) as [string, string | undefined];
  const top = capabilities?.[head];
  if (!isObject(top)) return false;
  if (member === undefined) return true;
  if (isObject(top[member])) return true;
  // A bare `elicitation: {}` means form mode (the specification's backwards-compatible reading).
  return head === "elicitation" && member === "form" && !("url" in top) && !("form" in top);
}

/**
 * The capabilities among `names` the client did not declare, as the object `-32021` carries in
 * `data.requiredCapabilities` (e.g. `{ elicitation: { url: {} } }`), or undefined when all were.
 */
export function missingCapabilities(
  capabilities: ClientCapabilities | undefined,
  names: readonly string[],
): JsonObject | undefined {
  let missing: JsonObject | undefined;
  for (const name of names) {
    if (declared(capabilities, name)) continue;
    missing ??= {};
    const [head, member] = name.split(".", 2) as [string, string | undefined];
    const entry = (isObject(missing[head]) ? missing[head] : (missing[head] = {})) as JsonObject;
    if (member !== undefined) entry[member] = {};
  }
  return missing;
}

/**
 * The error for capabilities the client did not declare (`missing` as {@link missingCapabilities}
 * gives it). Modern: `-32021` with `data.requiredCapabilities` (wire.md §5.1). The legacy revisions
 * (2025-11-25 and earlier) define no code for it, and `-32020`..`-32099` is reserved for the spec's
 * own codes, which MUST NOT be emitted undefined (wire.md §5.2): a legacy session gets `-32602`
 * Invalid params, with the same data, since the request asks for what its session did not declare
 * at `initialize`.
 */
export function missingCapabilityError(era: McpEra, names: readonly string[], missing: JsonObject): McpError {
  const message = `Missing required client capabilities: ${names.join(", ")}`;
  return era === "modern"
    ? new McpError(MISSING_REQUIRED_CLIENT_CAPABILITY, message, { requiredCapabilities: missing })
    : new McpError(INVALID_PARAMS, `${message} (not declared at initialize)`, { requiredCapabilities: missing });
}
