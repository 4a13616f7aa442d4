/**
 * Scopes of the definition a request uses (`scopes` of `defineTool` and the others): checked before
 * its handler runs, answered with one 403 challenge naming every scope needed.
 */
import type { Catalog } from "../define/catalog.ts";
import type { Refusal } from "../http/refusal.ts";
import { isObject, type JsonObject } from "../protocol/jsonrpc.ts";
import { describeMethod } from "../protocol/methods.ts";
import type { AuthGate, Caller } from "./gate.ts";

/**
 * The scopes the definition a request uses needs (undefined: none, or no such definition); which
 * definition a method uses is its descriptor's `definition`.
 */
function definitionScopes(catalog: Catalog, method: string, params: JsonObject): readonly string[] | undefined {
  switch (describeMethod(method)?.definition) {
    case "tool":
      return typeof params.name === "string" ? catalog.tools.get(params.name)?.scopes : undefined;
    case "prompt":
      return typeof params.name === "string" ? catalog.prompts.get(params.name)?.scopes : undefined;
    case "resource":
      return typeof params.uri === "string" ? catalog.resourceFor(params.uri)?.scopes : undefined;
    case "completion-ref":
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
): Refusal | undefined {
  const needed = definitionScopes(catalog, method, params);
  if (needed === undefined || auth.missingScopes(caller.identity, needed).length === 0) return undefined;
  return auth.insufficientScope(needed);
}

/** Why a caller may not subscribe to a set of resource URIs. */
export type SubscriptionRefusal =
  /** A URI whose definition needs a scope the caller lacks: the 403 that `resources/read` of it gets. */
  | { kind: "forbidden"; refusal: Refusal }
  /** A URI no definition of the caller's catalog serves (unknown, or left out by `enabled`). */
  | { kind: "unknown"; uri: string };

/**
 * Whether a caller may be sent `notifications/resources/updated` for every URI of `uris`: it may
 * when it could read each of them. `catalog` is the request's (so `enabled` has already left out what
 * it says no to); `caller` is undefined with auth off, when scopes are not checked. A missing scope
 * wins over an unknown URI, as in `resources/read` (the 403 is given before the handler looks the
 * URI up); the 403 names every scope the URIs' definitions need, in one challenge. One pass, one
 * lookup per URI.
 *
 * @example
 * const refusal = subscriptionRefusal(services.auth, caller, catalog, ["docs://secret"]);
 * // { kind: "forbidden", refusal: <403 insufficient_scope, scope="secrets"> } for a token without "secrets"
 */
export function subscriptionRefusal(
  auth: AuthGate | undefined,
  caller: Caller | undefined,
  catalog: Catalog,
  uris: Iterable<string>,
): SubscriptionRefusal | undefined {
  const checkScopes = auth !== undefined && caller !== undefined && catalog.hasScopes;
  let unknown: string | undefined;
  let needed: Set<string> | undefined;
  let lacking = false;
  for (const uri of uris) {
    const definition = catalog.resourceFor(uri);
    if (definition === undefined) {
      unknown ??= uri;
      continue;
    }
    const scopes = definition.scopes;
    if (!checkScopes || scopes === undefined) continue;
    needed ??= new Set();
    for (const scope of scopes) needed.add(scope);
    if (!lacking) lacking = auth.missingScopes(caller.identity, scopes).length > 0;
  }
  if (lacking) return { kind: "forbidden", refusal: auth!.insufficientScope([...needed!]) };
  return unknown === undefined ? undefined : { kind: "unknown", uri: unknown };
}
