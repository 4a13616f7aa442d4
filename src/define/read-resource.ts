/**
 * Reading one resource from a catalog: what `resources/read` answers and what `mcp.readResource`
 * returns to a handler. Apart from the method handlers, so the request context can use it.
 */
import type { H3Event } from "h3";
import type { McpEra } from "../types/era.ts";
import { echoValue } from "../protocol/echo.ts";
import { INVALID_PARAMS, RESOURCE_NOT_FOUND, McpError, isMcpError } from "../protocol/errors.ts";
import type { ReadResourceResult } from "../protocol/types.ts";
import type { Catalog } from "./catalog.ts";

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
