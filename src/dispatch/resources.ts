/** `resources/list`, `resources/templates/list` and `resources/read`. */
import type { H3Event } from "h3";
import type { McpEra } from "../context.ts";
import { echoValue } from "../protocol/echo.ts";
import { INVALID_PARAMS, RESOURCE_NOT_FOUND, McpError, isMcpError } from "../protocol/errors.ts";
import type { JsonObject } from "../protocol/jsonrpc.ts";
import type { ReadResourceResult } from "../protocol/types.ts";
import type { Catalog } from "./catalog.ts";
import type { DispatchCall } from "./call.ts";
import { rejectCursor, requireString } from "./params.ts";

export async function listResources({ params, catalog, event }: DispatchCall): Promise<JsonObject> {
  rejectCursor(params);
  if (catalog.templates.length === 0) return { resources: catalog.resourceListing };
  const fromTemplates = await Promise.all(catalog.templates.map((template) => template.list(event)));
  return { resources: [...catalog.resourceListing, ...fromTemplates.flat()] };
}

export function listResourceTemplates({ params, catalog }: DispatchCall): JsonObject {
  rejectCursor(params);
  return { resourceTemplates: catalog.templateListing };
}

/**
 * Reads a resource by URI: an exact resource first, then the first matching template. An unknown
 * URI is `-32002` on legacy and `-32602` on modern (where -32002 is retired), with `data.uri`.
 */
export async function readResourceFrom(
  catalog: Catalog,
  event: H3Event,
  uri: string,
  era: McpEra,
): Promise<ReadResourceResult> {
  try {
    const resource = catalog.resources.get(uri);
    if (resource) return await resource.read(event, uri);
    const match = catalog.matchTemplate(uri);
    if (match) return await match.template.read(event, uri, match.variables);
  } catch (error) {
    // Modern implementations must not emit the retired -32002, whoever raised it.
    if (era === "modern" && isMcpError(error) && error.code === RESOURCE_NOT_FOUND) {
      throw new McpError(INVALID_PARAMS, error.message, error.data);
    }
    throw error;
  }
  const code = era === "legacy" ? RESOURCE_NOT_FOUND : INVALID_PARAMS;
  throw new McpError(code, `Resource not found: ${echoValue(uri)}`, { uri });
}

/**
 * The error for a client's URI longer than `maxUriLength` (-32602, `data: { limit: "maxUriLength", max }`),
 * checked before anything matches or stores it; undefined when the URI is short enough.
 */
export function uriTooLong(uri: string, maxUriLength: number): McpError | undefined {
  if (uri.length <= maxUriLength) return undefined;
  return new McpError(
    INVALID_PARAMS,
    `Invalid params: the URI is longer than maxUriLength (${maxUriLength} characters)`,
    { limit: "maxUriLength", max: maxUriLength },
  );
}

/** Throws {@link uriTooLong}'s error for a URI longer than `maxUriLength`. */
export function checkUriLength(uri: string, maxUriLength: number): void {
  const error = uriTooLong(uri, maxUriLength);
  if (error) throw error;
}

export async function readResource({ params, catalog, event, context }: DispatchCall): Promise<JsonObject> {
  const uri = requireString(params, "uri");
  checkUriLength(uri, context.options.maxUriLength);
  return (await readResourceFrom(catalog, event, uri, context.era)) as unknown as JsonObject;
}
