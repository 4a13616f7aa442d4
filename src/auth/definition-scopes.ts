/**
 * Scopes of the definition a request uses (`scopes` of `defineTool` and the others): checked before
 * its handler runs, answered with one 403 challenge naming every scope needed.
 */
import type { Catalog } from "../define/catalog.ts";
import type { Reply } from "../engine/reply.ts";
import { isObject, type JsonObject } from "../protocol/jsonrpc.ts";
import type { AuthGate, Caller } from "./gate.ts";

/** The scopes the definition named by a call, read, get or completion needs (undefined: none, or no such definition). */
function definitionScopes(catalog: Catalog, method: string, params: JsonObject): readonly string[] | undefined {
  switch (method) {
    case "tools/call":
      return typeof params.name === "string" ? catalog.tools.get(params.name)?.scopes : undefined;
    case "prompts/get":
      return typeof params.name === "string" ? catalog.prompts.get(params.name)?.scopes : undefined;
    // Subscribing needs what reading needs: updates carry what the resource is doing.
    case "resources/read":
    case "resources/subscribe":
      return typeof params.uri === "string" ? catalog.resourceAt(params.uri)?.scopes : undefined;
    case "completion/complete":
      return completionScopes(catalog, params.ref);
    default:
      return undefined;
  }
}

/**
 * The scopes of the prompt, template or resource a completion names: completing its arguments is
 * answered as getting or reading it would be (403), so no value of a definition the caller may not
 * use is shown.
 */
function completionScopes(catalog: Catalog, ref: unknown): readonly string[] | undefined {
  if (!isObject(ref)) return undefined;
  if (ref.type === "ref/prompt" && typeof ref.name === "string") return catalog.prompts.get(ref.name)?.scopes;
  if (ref.type !== "ref/resource" || typeof ref.uri !== "string") return undefined;
  const uri = ref.uri;
  return catalog.templates.find((t) => t.uriTemplate === uri)?.scopes ?? catalog.resources.get(uri)?.scopes;
}

/**
 * The 403 for a caller without the scopes the request's definition needs, else undefined. Call it
 * only when `catalog.hasScopes`: catalogs that name no scopes cost nothing here.
 */
export function scopeDenial(
  auth: AuthGate,
  caller: Caller,
  catalog: Catalog,
  method: string,
  params: JsonObject,
): Reply | undefined {
  const needed = definitionScopes(catalog, method, params);
  if (needed === undefined || auth.missingScopes(caller.identity, needed).length === 0) return undefined;
  return auth.insufficientScope(needed);
}
