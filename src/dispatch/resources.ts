/** `resources/list`, `resources/templates/list` and `resources/read`. */
import { INVALID_PARAMS, McpError } from "../protocol/errors.ts";
import type { JsonObject } from "../protocol/jsonrpc.ts";
import type { DispatchCall } from "./call.ts";
import { rejectCursor, requireString } from "./params.ts";
import { readResourceFrom } from "../define/read-resource.ts";

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
