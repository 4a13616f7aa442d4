/**
 * `tools/call` wrapped by extensions (`McpExtensionPoint.wrapToolCall`): each wrapper answers the
 * call or hands it on, and may run the tool in a context of its own (`McpToolCall.run`), the way
 * the tasks extension runs a tool as a task after its request was answered.
 *
 * Every server carries this, tasks or not: `McpToolCall.run` (runDetached, RelayChannel) is the
 * seam's public promise to any wrapper, and code the extension point reaches is bundled whatever
 * plugs in (a lazy `import()` is inlined into a one-file Worker, and larger). Moving `run` into
 * `mcp-h3/tasks` behind a plugged runner saved 0.23 KB gzip of the minimal Worker (39.09 → 38.86)
 * and made `run` fail unless a third party imported it too, so it stays here.
 */
import type { H3Event } from "h3";
import type { DispatchCall, MethodHandler } from "../dispatch/call.ts";
import {
  RequestContext,
  abortRequest,
  channelOf,
  initOf,
  useCatalog,
  type ContextLane,
} from "../context/request-context.ts";
import type { JsonObject } from "../protocol/jsonrpc.ts";
import type { McpEra } from "../types/era.ts";
import type { McpToolCall, McpToolCallWrapper, McpToolRun } from "../types/extensions.ts";
import { RelayChannel } from "../stream/relay-channel.ts";
import { methodCallOf } from "./method-call.ts";

/** A wrapper and the eras it wraps. */
export interface PluggedWrapper {
  readonly wrapper: McpToolCallWrapper;
  readonly eras: readonly McpEra[];
}

/**
 * `base` (the table's `tools/call`) inside `wrappers`, the first plugged outermost. An era no
 * wrapper names goes straight to `base`, so a server pays only where it plugged something.
 */
export function wrapToolCall(base: MethodHandler, wrappers: readonly PluggedWrapper[]): MethodHandler {
  const byEra = {
    legacy: wrappers.filter((entry) => entry.eras.includes("legacy")).map((entry) => entry.wrapper),
    modern: wrappers.filter((entry) => entry.eras.includes("modern")).map((entry) => entry.wrapper),
  };
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
 * Runs the tool in a context of its own: a copy of the request's, whose `signal` is `options.signal`
 * (the request's disconnect no longer cancels it), whose `task` is `options.task`, and whose input
 * requests go through `options.ask`. Progress and log go to `options.relay` when given, else to
 * the request's response while it is open, and are dropped once it was answered. The handler sees it on a copy of the event, so the
 * request's own `event.context.mcp` stays as it was.
 */
function runDetached(call: DispatchCall, base: MethodHandler, options: McpToolRun): Promise<JsonObject> {
  const original = call.context;
  const init = initOf(original);
  const ask = options.ask;
  const relay = options.relay;
  const lane: ContextLane = {
    openChannel: () => (relay ? new RelayChannel(relay) : channelOf(original)),
    cancelOnDisconnect: false,
    broker: {
      request(_context, key, method, params, timeoutMs) {
        const viaRequest = (): Promise<unknown> => {
          // A round the request answers carries the handler's state, set on its own context.
          original.state = detached.state;
          return init.lane.broker.request(original, key, method, params, timeoutMs);
        };
        return ask ? ask({ key, method, params, timeoutMs }, viaRequest) : viaRequest();
      },
    },
  };
  const event = Object.create(init.event, {
    context: { value: { ...init.event.context }, enumerable: true, writable: true },
  }) as H3Event;
  const detached: RequestContext = new RequestContext({ ...init, lane, event, task: options.task });
  useCatalog(detached, call.catalog);
  // The state the request's lane opened (modern: from `requestState`) goes with the copy.
  detached.state = original.state;
  event.context.mcp = detached;
  const signal = options.signal;
  if (signal.aborted) abortRequest(detached, signal.reason);
  else signal.addEventListener("abort", () => abortRequest(detached, signal.reason), { once: true });
  try {
    return Promise.resolve(base({ event, params: call.params, catalog: call.catalog, context: detached }));
  } catch (error) {
    return Promise.reject(error as Error);
  }
}
