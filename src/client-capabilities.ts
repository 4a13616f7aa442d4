/** Client capability checks by dotted name (`"elicitation"`, `"elicitation.url"`, `"sampling.tools"`). */
import type { JsonObject } from "./protocol/jsonrpc.ts";
import { isObject } from "./protocol/jsonrpc.ts";
import type { ClientCapabilities } from "./protocol/types.ts";

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
