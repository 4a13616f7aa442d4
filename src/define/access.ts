/** `scopes` and `enabled` of a definition, checked once when it is defined. */
import type { AccessOptions, AccessRules } from "../types/definitions.ts";

/**
 * The access rules of a definition; throws on a malformed `scopes` or `enabled`.
 *
 * @example
 * accessRules({ scopes: ["write"] }, 'Tool "save"'); // { scopes: ["write"], enabled: undefined }
 */
export function accessRules(options: AccessOptions, label: string): AccessRules {
  const { scopes, enabled } = options;
  if (scopes !== undefined && (!Array.isArray(scopes) || !scopes.every((scope) => typeof scope === "string"))) {
    throw new TypeError(`mcp-h3: ${label}: scopes must be an array of strings`);
  }
  if (enabled !== undefined && typeof enabled !== "function") {
    throw new TypeError(`mcp-h3: ${label}: enabled must be a function of the event`);
  }
  return {
    scopes: scopes === undefined || scopes.length === 0 ? undefined : Object.freeze([...scopes]),
    enabled,
  };
}
