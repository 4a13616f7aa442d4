/** The {@link McpMethodCall} an extension's method (or `tools/call` wrapper) gets for one dispatched call. */
import { requestAccess } from "../auth/tool-access.ts";
import { initOf } from "../context/request-context.ts";
import type { DispatchCall } from "../dispatch/call.ts";
import type { McpMethodCall } from "../types/extensions.ts";

/** `call` as the seam shows it: its event, params and context, and what its own token and catalog let it call. */
export function methodCallOf(call: DispatchCall): McpMethodCall {
  return {
    event: call.event,
    params: call.params,
    context: call.context,
    access: requestAccess(call.catalog, initOf(call.context).caller?.identity),
  };
}
