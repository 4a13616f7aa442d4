/** `defineResource()` (one fixed URI) and `defineResourceTemplate()` (an RFC 6570 level-1 template). */
import type { McpEvent } from "../types/context.ts";
import type { CacheHints } from "../types/cache-hints.ts";
import { checkCacheHints } from "./cache-hints.ts";
import { echoValue } from "../protocol/echo.ts";
import { nonNegativeOption } from "../protocol/positive-option.ts";
import { INVALID_PARAMS, RESOURCE_NOT_FOUND, McpError } from "../protocol/errors.ts";
import { isObject, type JsonObject } from "../protocol/jsonrpc.ts";
import { toReadResourceResult } from "./content.ts";
import { completeFrom } from "./complete.ts";
import { buildListing } from "./listing.ts";
import { accessRules } from "./access.ts";
import type {
  ResourceDefinition,
  ResourceDescription,
  ResourceListEntry,
  ResourceOptions,
  ResourceTemplateDefinition,
  ResourceTemplateOptions,
} from "../types/definitions.ts";
import { parseUriTemplate } from "./uri-template.ts";

/**
 * Defines a resource at one fixed URI. The handler gets the URI parsed as a `URL` and may return text,
 * bytes (sent as a base64 blob), resource contents or a full result; `mimeType` fills in for text and bytes.
 *
 * @example
 * const readme = defineResource({
 *   uri: "docs://readme",
 *   name: "readme",
 *   mimeType: "text/markdown",
 *   handler: () => "# Hello",
 * });
 */
export function defineResource(options: ResourceOptions): ResourceDefinition {
  const { uri, name, mimeType, handler } = options;
  assertName(name, "resource");
  if (!canParse(uri)) throw new Error(`Resource "${name}": ${JSON.stringify(uri)} is not an absolute URI.`);
  // JSON has no NaN nor Infinity: such a size would be listed as `null`, not the number the spec says.
  const size =
    options.size === undefined ? undefined : nonNegativeOption(`mcp-h3: Resource "${uri}": size`, options.size);
  const listing = listingOf({ uri }, options, size);
  return {
    kind: "resource",
    ...accessRules(options, `Resource "${uri}"`),
    cacheHints: checkedHints(options.cacheHints, `Resource "${options.uri}"`),
    uri,
    name,
    listing,
    listed: options.listed,
    async read(event, requested) {
      const value = await handler(event as McpEvent, parseUri(requested));
      if (value === undefined || value === null) throw resourceNotFound(requested);
      return toReadResourceResult(value, requested, mimeType);
    },
  };
}

/**
 * Defines a family of resources by an RFC 6570 level-1 URI template (`{name}` expressions only, parsed once).
 * `list` names concrete resources for `resources/list` (the template's `mimeType` fills in where they have
 * none); `complete` offers values for one variable to `completion/complete`.
 *
 * @example
 * const user = defineResourceTemplate({
 *   uriTemplate: "users://{id}/profile",
 *   name: "user-profile",
 *   mimeType: "application/json",
 *   complete: { id: (typed) => ids.filter((id) => id.startsWith(typed)) },
 *   handler: (event, { id }) => JSON.stringify(profiles[id]),
 * });
 */
export function defineResourceTemplate<V extends string = string>(
  options: ResourceTemplateOptions<V>,
): ResourceTemplateDefinition {
  const { uriTemplate, name, mimeType, handler } = options;
  assertName(name, "resource template");
  const template = parseUriTemplate(uriTemplate);
  const listing = listingOf({ uriTemplate }, options);
  const list = options.list;
  const completers = options.complete;
  return {
    kind: "resourceTemplate",
    ...accessRules(options, `Resource template "${uriTemplate}"`),
    cacheHints: checkedHints(options.cacheHints, `Resource template "${options.uriTemplate}"`),
    uriTemplate,
    name,
    listing,
    match(uri) {
      return template.match(uri);
    },
    async list(event) {
      if (list === undefined) return [];
      const entries = await list(event as McpEvent);
      if (mimeType === undefined) return entries;
      const filled: ResourceListEntry[] = [];
      for (const entry of entries) filled.push(withMimeType(entry, mimeType));
      return filled;
    },
    complete(event, variable, value, context) {
      return completeFrom(completers, event, variable, value, context);
    },
    async read(event, uri, variables) {
      const value = await handler(event as McpEvent, variables as Record<V, string>, parseUri(uri));
      if (value === undefined || value === null) throw resourceNotFound(uri);
      return toReadResourceResult(value, uri, mimeType);
    },
  };
}

/**
 * The entry of `resources/list` (a resource, with its `size`) or `resources/templates/list` (a
 * template, which has none): its address, then the fields of its description that are set.
 */
function listingOf(
  address: { uri: string } | { uriTemplate: string },
  described: ResourceDescription,
  size?: number,
): JsonObject {
  return buildListing({
    ...address,
    name: described.name,
    title: described.title,
    description: described.description,
    mimeType: described.mimeType,
    size,
    icons: described.icons,
    annotations: described.annotations,
    _meta: described._meta,
  });
}

function withMimeType(entry: ResourceListEntry, mimeType: string): ResourceListEntry {
  return isObject(entry) && entry.mimeType === undefined ? { ...entry, mimeType } : entry;
}

function assertName(name: unknown, kind: string): void {
  if (typeof name !== "string" || name === "") throw new Error(`A ${kind} needs a non-empty name.`);
}

function canParse(uri: unknown): boolean {
  if (typeof uri !== "string") return false;
  try {
    new URL(uri);
    return true;
  } catch {
    return false;
  }
}

/** The requested URI as a `URL`; a URI that does not parse is the client's mistake (-32602). */
function parseUri(uri: string): URL {
  try {
    return new URL(uri);
  } catch {
    throw new McpError(INVALID_PARAMS, `Invalid resource URI: ${echoValue(uri)}`, { uri });
  }
}

function checkedHints(hints: CacheHints | undefined, where: string): CacheHints | undefined {
  checkCacheHints(hints, where);
  return hints;
}

/**
 * What a reader returning nothing means. Raised as the legacy code; the dispatcher answers it
 * with the code of the request's era (-32602 on modern, where -32002 is retired).
 */
function resourceNotFound(uri: string): McpError {
  return new McpError(RESOURCE_NOT_FOUND, `Resource not found: ${echoValue(uri)}`, { uri });
}
