/**
 * `tools/list` with what extensions add to each tool's entry (`McpExtensionPoint.extendToolListing`),
 * per era. The extended listing is worked out once per catalog listing and kept beside it (a
 * WeakMap: a catalog built per request takes its extended listing with it when it goes).
 */
import type { Catalog } from "../define/catalog.ts";
import type { MethodHandler } from "../dispatch/call.ts";
import type { JsonObject } from "../protocol/jsonrpc.ts";
import type { McpEra } from "../types/era.ts";
import type { McpToolListingExtender } from "../types/extensions.ts";

/** An extender and the eras it extends. */
export interface PluggedListingExtender {
  readonly extend: McpToolListingExtender;
  readonly eras: readonly McpEra[];
}

/** `base` (the table's `tools/list`) with the extenders' fields added in their eras. */
export function extendToolList(base: MethodHandler, extenders: readonly PluggedListingExtender[]): MethodHandler {
  const byEra = {
    legacy: extenders.filter((entry) => entry.eras.includes("legacy")).map((entry) => entry.extend),
    modern: extenders.filter((entry) => entry.eras.includes("modern")).map((entry) => entry.extend),
  };
  const cache = { legacy: new WeakMap<object, JsonObject[]>(), modern: new WeakMap<object, JsonObject[]>() };
  return (call) => {
    const era = call.context.era;
    const own = byEra[era];
    const answer = base(call);
    if (own.length === 0) return answer;
    const extend = (result: JsonObject): JsonObject => {
      const tools = result.tools;
      if (!Array.isArray(tools)) return result;
      let extended = cache[era].get(tools);
      if (!extended) {
        extended = extendEntries(tools as JsonObject[], call.catalog, own);
        cache[era].set(tools, extended);
      }
      return { ...result, tools: extended };
    };
    return answer instanceof Promise ? answer.then(extend) : extend(answer);
  };
}

function extendEntries(
  tools: readonly JsonObject[],
  catalog: Catalog,
  extenders: readonly McpToolListingExtender[],
): JsonObject[] {
  return tools.map((entry) => {
    const tool = typeof entry.name === "string" ? catalog.tools.get(entry.name) : undefined;
    if (!tool) return entry;
    let extended = entry;
    for (const extend of extenders) {
      const fields = extend({ name: tool.name, task: tool.task });
      if (fields) extended = { ...extended, ...fields };
    }
    return extended;
  });
}
