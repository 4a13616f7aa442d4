/** The entries of `tools/list`, `resources/list`, `prompts/list`: built once, without undefined keys. */
import type { JsonObject } from "../protocol/jsonrpc.ts";

/**
 * Copies the fields that are set, in the given order, so the listing serializes without `undefined` noise.
 *
 * @example
 * buildListing({ name: "weather", title: undefined }); // { name: "weather" }
 */
export function buildListing(fields: Record<string, unknown>): JsonObject {
  const listing: JsonObject = {};
  for (const key of Object.keys(fields)) {
    if (fields[key] !== undefined) listing[key] = fields[key];
  }
  return listing;
}
