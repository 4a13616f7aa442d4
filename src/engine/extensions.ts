/**
 * The seam optional parts plug in through (types/extensions.ts): the extensions of the options and
 * those the stores carry are plugged in once, when the handler is defined, into what the engine
 * builds next — the method table, the advertised capabilities, the legacy sessions' routing
 * between instances, and what runs when the handler closes.
 */
import type { MethodHandler } from "../dispatch/call.ts";
import { checkPluggable } from "../dispatch/table.ts";
import { ROUTES_SESSIONS, isSessionRouting } from "../legacy/state/routing-part.ts";
import type { SessionRouting } from "../legacy/state/routing.ts";
import type { LegacySessions } from "../legacy/state/sessions.ts";
import { isObject, type JsonObject } from "../protocol/jsonrpc.ts";
import type { ServerCapabilities } from "../protocol/types.ts";
import type { ResourceDefinition, ResourceTemplateDefinition } from "../types/definitions.ts";
import type { McpEra } from "../types/era.ts";
import type { CarriesExtensions, McpExtension, McpExtensionPoint, McpListenSource } from "../types/extensions.ts";
import { methodCallOf } from "./method-call.ts";
import { wrapToolCall, type PluggedWrapper } from "./tool-call-wrap.ts";
import { decorateToolListing, type PluggedDecorator } from "./tool-listing-decorate.ts";

const BOTH_ERAS: readonly McpEra[] = ["legacy", "modern"];

/** What the extensions plugged in, for the engine to build with. */
export class Plugged {
  /** The methods each era serves, by name. */
  readonly methods = new Map<string, Partial<Record<McpEra, MethodHandler>>>();
  /** What each era advertises besides the definitions' capabilities. */
  readonly capabilities: { capabilities: JsonObject; eras: readonly McpEra[] }[] = [];
  readonly closers: (() => void | Promise<void>)[] = [];
  /** What `subscriptions/listen` filters may ask for beyond the core's, by key. */
  readonly listenSources = new Map<string, McpListenSource>();
  /** What changes the `tools/list` entries, in plugging order. */
  readonly toolDecorators: PluggedDecorator[] = [];
  /** What wraps `tools/call`, in plugging order. */
  readonly toolCallWrappers: PluggedWrapper[] = [];
  /** The resources the extensions serve beside the definitions'. */
  readonly resources: (ResourceDefinition | ResourceTemplateDefinition)[] = [];
  routing: ((sessions: LegacySessions) => SessionRouting) | undefined;

  /**
   * Adds each era's methods to that era's table (an extension's method may replace a definitions'
   * one); a method of one era only is not in the other's, so there it is answered as an unknown
   * method. Then wraps `tools/call` (when served) in the wrappers, and decorates `tools/list`, in
   * each era something is plugged for.
   */
  addMethods(tables: Record<McpEra, Map<string, MethodHandler>>): void {
    for (const era of BOTH_ERAS) {
      const table = tables[era];
      for (const [name, byEra] of this.methods) {
        const handler = byEra[era];
        if (!handler) continue;
        checkPluggable(name, era);
        table.set(name, handler);
      }
      const toolCall = table.get("tools/call");
      if (toolCall && this.toolCallWrappers.some((entry) => entry.eras.includes(era))) {
        table.set("tools/call", wrapToolCall(toolCall, this.toolCallWrappers));
      }
      const toolList = table.get("tools/list");
      if (toolList && this.toolDecorators.some((entry) => entry.eras.includes(era))) {
        table.set("tools/list", decorateToolListing(toolList, this.toolDecorators));
      }
    }
  }

  /**
   * What `era` advertises: the definitions' `capabilities` with what the extensions add for it,
   * each key merged one level deep (`extensions` by name); the same object when they add nothing.
   */
  advertised(capabilities: ServerCapabilities, era: McpEra): ServerCapabilities {
    const parts = this.capabilities.filter((part) => part.eras.includes(era));
    if (parts.length === 0) return capabilities;
    const merged: JsonObject = { ...capabilities };
    for (const part of parts) {
      for (const [key, value] of Object.entries(part.capabilities)) {
        const current = merged[key];
        merged[key] = isObject(current) && isObject(value) ? { ...current, ...value } : value;
      }
    }
    return merged as ServerCapabilities;
  }
}

/** The extensions given in the options and carried by the stores, each once (by name), in that order. */
export function collectExtensions(
  given: readonly McpExtension[] | undefined,
  carriers: readonly (object | undefined)[],
): McpExtension[] {
  const byName = new Map<string, McpExtension>();
  const lists = [given, ...carriers.map((carrier) => (carrier as CarriesExtensions | undefined)?.extensions)];
  for (const list of lists) {
    for (const extension of list ?? []) if (!byName.has(extension.name)) byName.set(extension.name, extension);
  }
  return [...byName.values()];
}

/** Plugs each extension in; what they add is in the result. */
export function plugExtensions(
  extensions: readonly McpExtension[],
  shared: Pick<McpExtensionPoint, "stores" | "incidents" | "lifespan">,
): Plugged {
  const plugged = new Plugged();
  const point: McpExtensionPoint = {
    stores: shared.stores,
    incidents: shared.incidents,
    lifespan: shared.lifespan,
    method(method, handler, eras = BOTH_ERAS) {
      let byEra = plugged.methods.get(method);
      if (!byEra) plugged.methods.set(method, (byEra = {}));
      // The extension sees the call through the seam: no catalog, but what the request may call.
      const served: MethodHandler = (call) => handler(methodCallOf(call));
      for (const era of eras) byEra[era] = served;
    },
    advertise(capabilities, eras = BOTH_ERAS) {
      plugged.capabilities.push({ capabilities, eras });
    },
    onClose(close) {
      plugged.closers.push(close);
    },
    wrapToolCall(wrapper, eras = BOTH_ERAS) {
      plugged.toolCallWrappers.push({ part: wrapper, eras });
    },
    listen(key, source) {
      plugged.listenSources.set(key, source);
    },
    decorateTools(decorate, eras = BOTH_ERAS) {
      plugged.toolDecorators.push({ part: decorate, eras });
    },
    resources(definitions) {
      plugged.resources.push(...definitions);
    },
  };
  for (const extension of extensions) {
    if (isSessionRouting(extension)) {
      const route = extension[ROUTES_SESSIONS];
      plugged.routing = (sessions) => route(sessions, shared.stores.bus);
    }
    extension.plug(point);
  }
  return plugged;
}
