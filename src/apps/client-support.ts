/**
 * Whether the client of a request renders MCP Apps: what it declared under
 * `capabilities.extensions["io.modelcontextprotocol/ui"]` — at `initialize` on a legacy session,
 * in each request's `_meta` on the 2026-07-28 era. Both reach `event.context.mcp.clientCapabilities`.
 */
import type { H3Event } from "h3";
import type { ClientCapabilities } from "../index.ts";
import { isObject } from "./json.ts";
import type { McpUiClientCapability } from "../types/apps.ts";
import { MCP_APP_MIME_TYPE, UI_EXTENSION_ID } from "./constants.ts";

/**
 * The client's MCP Apps capability (its `mimeTypes`, the strings among what it sent), or undefined
 * when it declared none. Takes the event of a handler, or capabilities themselves.
 *
 * @example
 * uiCapability(event)?.mimeTypes; // ["text/html;profile=mcp-app"] from a host that renders apps
 */
export function uiCapability(from: H3Event | ClientCapabilities | undefined): McpUiClientCapability | undefined {
  const capabilities = isEvent(from) ? from.context.mcp?.clientCapabilities : from;
  const declared = capabilities?.extensions?.[UI_EXTENSION_ID];
  if (!isObject(declared)) return undefined;
  const mimeTypes = Array.isArray(declared.mimeTypes)
    ? declared.mimeTypes.filter((type): type is string => typeof type === "string")
    : [];
  return { ...declared, mimeTypes };
}

/**
 * True when the request's client renders MCP App views (it declared `text/html;profile=mcp-app`):
 * a handler can then answer briefly and leave the rest to the view, and otherwise say everything in
 * text. False outside an MCP request, and on a legacy handler without sessions (no `initialize`
 * capabilities to read).
 *
 * @example
 * handler: (event, { city }) =>
 *   clientSupportsApps(event)
 *     ? { content: [{ type: "text", text: `Forecast for ${city} shown.` }], structuredContent: forecast }
 *     : `${city}: ${forecast.celsius} °C, ${forecast.sky}`,
 */
export function clientSupportsApps(from: H3Event | ClientCapabilities | undefined): boolean {
  return uiCapability(from)?.mimeTypes.includes(MCP_APP_MIME_TYPE) === true;
}

function isEvent(value: unknown): value is H3Event {
  return isObject(value) && isObject((value as { context?: unknown }).context);
}
