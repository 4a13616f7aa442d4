/**
 * `tools/call` wrapped by extensions (`McpExtensionPoint.wrapToolCall`): each wrapper answers the
 * call or hands it on, and may run the tool detached from its request (`McpToolCall.run`, a
 * context of its own built by `context/detached.ts`), e.g. to answer at once and go on working.
 *
 * Every server carries this, whatever it plugs in: `McpToolCall.run` is the seam's public promise
 * to any wrapper, and code the extension point reaches is bundled whatever plugs in (a lazy
 * `import()` is inlined into a one-file Worker, and larger). Moving `run` into one extension's
 * entry behind a plugged runner saved 0.23 KB gzip of the minimal Worker (39.09 → 38.86) and made
 * `run` fail unless a third party imported that entry too, so it stays here.
 */
import type { DispatchCall, MethodHandler } from "../dispatch/call.ts";
import { detachedContext } from "../context/detached.ts";
import type { JsonObject } from "../protocol/jsonrpc.ts";
import type { McpToolCall, McpToolCallWrapper, McpToolRun } from "../types/extensions.ts";
import { partsByEra, type EraPart } from "./era-parts.ts";
import { methodCallOf } from "./method-call.ts";

/** A wrapper and the eras it wraps. */
export type PluggedWrapper = EraPart<McpToolCallWrapper>;

/**
 * `base` (the table's `tools/call`) inside `wrappers`, the first plugged outermost. An era no
 * wrapper names goes straight to `base`, so a server pays only where it plugged something.
 */
export function wrapToolCall(base: MethodHandler, wrappers: readonly PluggedWrapper[]): MethodHandler {
  const byEra = partsByEra(wrappers);
  return (call) => {
    const own = byEra[call.context.era];
    if (own.length === 0) return base(call);
    const toolCall = toolCallOf(call, base);
    let next = (): JsonObject | Promise<JsonObject> => base(call);
    for (let index = own.length - 1; index >= 0; index--) {
      const wrapper = own[index]!;
      const inner = next;
      next = () => wrapper(toolCall, inner);
    }
    return next();
  };
}

function toolCallOf(call: DispatchCall, base: MethodHandler): McpToolCall {
  const name = call.params.name;
  const tool = typeof name === "string" ? call.catalog.tools.get(name) : undefined;
  return {
    ...methodCallOf(call),
    tool: tool && { name: tool.name, task: tool.task },
    run: (options) => runDetached(call, base, options),
  };
}

/**
 * Runs the tool as `base` would, in a context detached from the request's (`context/detached.ts`);
 * async, so that whatever `base` throws at once is a rejection.
 */
async function runDetached(call: DispatchCall, base: MethodHandler, options: McpToolRun): Promise<JsonObject> {
  const { context, event } = detachedContext(call.context, options);
  return base({ event, params: call.params, catalog: call.catalog, context });
}
