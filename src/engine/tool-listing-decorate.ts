/**
 * `tools/list` entries changed by extensions (`McpExtensionPoint.decorateTools`), per era: each
 * catalog's listing is decorated once and kept beside it (a catalog built per request is decorated
 * per request, as it is listed).
 */
import type { MethodHandler } from "../dispatch/call.ts";
import type { JsonObject } from "../protocol/jsonrpc.ts";
import type { McpEra } from "../types/era.ts";
import type { McpToolListingDecorator } from "../types/extensions.ts";
import { partsByEra, type EraPart } from "./era-parts.ts";

/** A decorator and the eras whose listings it changes. */
export type PluggedDecorator = EraPart<McpToolListingDecorator>;

/** `base` (the table's `tools/list`) with its entries decorated for the request's era. */
export function decorateToolListing(base: MethodHandler, decorators: readonly PluggedDecorator[]): MethodHandler {
  const byEra = partsByEra(decorators);
  const decorated: Record<McpEra, WeakMap<object, JsonObject[]>> = { legacy: new WeakMap(), modern: new WeakMap() };
  return (call) => {
    const era = call.context.era;
    const own = byEra[era];
    const listed = base(call) as JsonObject;
    if (own.length === 0 || !Array.isArray(listed.tools)) return listed;
    const entries = listed.tools as JsonObject[];
    let tools = decorated[era].get(entries);
    if (!tools) {
      tools = entries.map((entry) => {
        const definition = call.catalog.tools.get(String(entry.name));
        const tool = { name: String(entry.name), task: definition?.task };
        return own.reduce((current, decorate) => decorate(current, tool), entry);
      });
      decorated[era].set(entries, tools);
    }
    return { ...listed, tools };
  };
}
