/**
 * The contract of instrumentation hooks: what a hook learns about one MCP request (both eras) and
 * the three calls it gets. One `info` object travels through the calls of a request, so a hook can
 * keep per-request data (a span, a timer) keyed by it.
 */
import type { H3Event } from "h3";
import type { JsonObject, JsonRpcId } from "../protocol/jsonrpc.ts";
import type { McpEra } from "./era.ts";

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
