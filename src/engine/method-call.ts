/** The {@link McpMethodCall} an extension's method (or `tools/call` wrapper) gets for one dispatched call. */
import { requestAccess } from "../auth/tool-access.ts";
import { initOf, whenAborted, type RequestContext } from "../context/request-context.ts";
import type { DispatchCall } from "../dispatch/call.ts";
import type { McpInputRequest, McpMethodCall } from "../types/extensions.ts";

/**
 * `call` as the seam shows it: its event, params and context, what its own token and catalog let
 * it call, and the two reaches into the request an extension cannot make from its context alone
 * (its cancellation without building `signal`, and its channel to the client).
 */
export function methodCallOf(call: DispatchCall): McpMethodCall {
  const context = call.context;
  return {
    event: call.event,
    params: call.params,
    context,
    access: requestAccess(call.catalog, initOf(context).caller?.identity),
    onCancel: (listener) => whenAborted(context, listener),
    ask: (request) => askOn(context, request),
  };
}

/** One input request through the request's own lane, as its handler's `elicit` would send it. */
async function askOn(context: RequestContext, { key, method, params, timeoutMs }: McpInputRequest): Promise<unknown> {
  // Async: a lane that refuses at once (modern: a method that may not ask) still answers with a promise.
  return initOf(context).lane.broker.request(context, key, method, params, timeoutMs);
}
