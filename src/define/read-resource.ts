/**
 * Reading one resource from a catalog: what `resources/read` answers and what `mcp.readResource`
 * returns to a handler. Apart from the method handlers, so the request context can use it.
 */
import type { H3Event } from "h3";
import type { McpEra } from "../types/era.ts";
import { echoValue } from "../protocol/echo.ts";
import { CONNECTION_CLOSED, INVALID_PARAMS, RESOURCE_NOT_FOUND, McpError, isMcpError } from "../protocol/errors.ts";
import type { ReadResourceResult } from "../protocol/types.ts";
import type { AccessRules } from "../types/definitions.ts";
import { isGranted, type Catalog } from "./catalog.ts";

/**
 * Reads a resource by URI: an exact resource first, then the first matching template. An unknown
 * URI is `-32002` on legacy and `-32602` on modern (where -32002 is retired), with `data.uri`.
 * With `granted` (the caller's scopes, auth on), a definition whose scopes it lacks is not read:
 * `-32000` "Forbidden" with `data.requiredScopes`, what `resources/read` answers in its 403 body.
 * (A definition `enabled` says no to is not in the request's catalog at all: not found.)
 */
export async function readResourceFrom(
  catalog: Catalog,
  event: H3Event,
  uri: string,
  era: McpEra,
  granted?: readonly string[],
): Promise<ReadResourceResult> {
  try {
    const resource = catalog.resources.get(uri);
    if (resource) {
      checkGranted(resource, granted, uri);
      return await resource.read(event, uri);
    }
    const match = catalog.matchTemplate(uri);
    if (match) {
      checkGranted(match.template, granted, uri);
      return await match.template.read(event, uri, match.variables);
    }
  } catch (error) {
    // Modern implementations must not emit the retired -32002, whoever raised it.
    if (era === "modern" && isMcpError(error) && error.code === RESOURCE_NOT_FOUND) {
      throw new McpError(INVALID_PARAMS, error.message, error.data);
    }
    throw error;
  }
  throw resourceNotFound(uri, era);
}

/**
 * What an unknown URI gets, in `resources/read` and wherever a URI must name a resource (legacy
 * `resources/subscribe`, a modern listen's `resourceSubscriptions`): `-32002` on legacy, `-32602`
 * on modern (where -32002 is retired), with `data.uri`.
 */
export function resourceNotFound(uri: string, era: McpEra): McpError {
  const code = era === "legacy" ? RESOURCE_NOT_FOUND : INVALID_PARAMS;
  return new McpError(code, `Resource not found: ${echoValue(uri)}`, { uri });
}

/** Throws the "Forbidden" error when `granted` (auth on) lacks a scope the definition needs. */
function checkGranted(definition: AccessRules, granted: readonly string[] | undefined, uri: string): void {
  if (isGranted(definition, granted)) return;
  const needed = definition.scopes!;
  throw new McpError(CONNECTION_CLOSED, `Forbidden: reading ${echoValue(uri)} needs the scopes ${needed.join(" ")}`, {
    uri,
    requiredScopes: [...needed],
  });
}
