/**
 * Instrumentation: hooks around every MCP request (both eras). One `info` object travels through
 * the three calls of a request, so a hook can keep per-request data (a span, a timer) keyed by it.
 * A hook that throws is counted as a `callback_failure` incident: instrumentation never breaks a request.
 */
import type { H3Event } from "h3";
import type { McpEra } from "./context.ts";
import { initOf } from "./context-fields.ts";
import type { JsonObject, JsonRpcId, JsonRpcResponse } from "./protocol/jsonrpc.ts";
import type { RequestContext } from "./request-context.ts";

/** What a hook learns about one MCP request. */
export interface McpRequestInfo {
  readonly era: McpEra;
  readonly method: string;
  /** Tool or prompt name, or resource URI. */
  readonly name: string | undefined;
  readonly requestId: JsonRpcId;
  readonly protocolVersion: string;
  readonly sessionId: string | undefined;
  readonly principal: string | undefined;
  /** The request's `params._meta` (carries `traceparent` / `tracestate` when the client propagates a trace). */
  readonly meta: JsonObject | undefined;
  readonly event: H3Event;
  /** `performance.now()` when the request started. */
  readonly startedAt: number;
  /** Milliseconds from start to response; set before `onResponse` / `onError`. */
  durationMs: number;
  /** How it ended: a result, a JSON-RPC error, an `input_required` result, or cancelled (no response). */
  status: "ok" | "error" | "input_required" | "cancelled" | undefined;
  /** The JSON-RPC error, when `status` is `"error"`. */
  error: { code: number; message: string } | undefined;
}

/** Hooks of `defineMcpHandler({ hooks })`. */
export interface McpHooks {
  /** Before the request is dispatched. */
  onRequest?(info: McpRequestInfo): void;
  /** After the request ended, whatever the outcome. */
  onResponse?(info: McpRequestInfo): void;
  /** When the request ended with a JSON-RPC error (before `onResponse`). */
  onError?(info: McpRequestInfo): void;
}

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
