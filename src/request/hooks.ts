/**
 * Instrumentation: runs the hooks (types/hooks.ts) around every MCP request of both eras.
 * A hook that throws is counted as a `callback_failure` incident: instrumentation never breaks a request.
 */
import type { JsonRpcResponse } from "../protocol/jsonrpc.ts";
import { initOf, type RequestContext } from "../context/request-context.ts";
import type { McpHooks, McpRequestInfo } from "../types/hooks.ts";

/**
 * Merges several hook sets into one whose calls never throw, or undefined when there are none (so
 * the hot path skips them). A hook that throws is reported to `onFailure` (the incident counter)
 * and the request goes on: instrumentation must not change its outcome.
 */
export function combineHooks(
  hooks: McpHooks | McpHooks[] | undefined,
  onFailure: (error: unknown) => void,
): McpHooks | undefined {
  const list = (Array.isArray(hooks) ? hooks : hooks ? [hooks] : []).filter(Boolean);
  if (list.length === 0) return undefined;
  const each =
    (name: keyof McpHooks) =>
    (info: McpRequestInfo): void => {
      for (const hook of list) {
        try {
          hook[name]?.(info);
        } catch (error) {
          onFailure(error);
        }
      }
    };
  return { onRequest: each("onRequest"), onResponse: each("onResponse"), onError: each("onError") };
}

/** Starts the hooks of one request (a set made by `combineHooks`, which never throws); call the returned function with its response. */
export function instrument(hooks: McpHooks, context: RequestContext): (response: JsonRpcResponse | undefined) => void {
  const full: McpRequestInfo = {
    era: context.era,
    method: context.method,
    name: context.name,
    requestId: context.requestId,
    protocolVersion: context.protocolVersion,
    sessionId: context.sessionId,
    principal: context.principal,
    meta: context.meta,
    event: initOf(context).event,
    startedAt: performance.now(),
    durationMs: 0,
    status: undefined,
    error: undefined,
  };
  hooks.onRequest?.(full);
  return (response) => {
    full.durationMs = performance.now() - full.startedAt;
    if (response === undefined) full.status = "cancelled";
    else if ("error" in response) {
      full.status = "error";
      full.error = { code: response.error.code, message: response.error.message };
      hooks.onError?.(full);
    } else {
      full.status = response.result.resultType === "input_required" ? "input_required" : "ok";
    }
    hooks.onResponse?.(full);
  };
}
