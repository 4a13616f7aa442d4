/**
 * mcp-h3/otel: OpenTelemetry spans for MCP requests, following the OpenTelemetry semantic
 * conventions for MCP. Each request gets a SERVER span that continues the client's trace from
 * `params._meta.traceparent` / `tracestate` (MCP carries W3C trace context in `_meta`, not in
 * HTTP headers). Needs `@opentelemetry/api` (an optional peer) and a registered tracer provider.
 */
import {
  SpanKind,
  SpanStatusCode,
  context as otelContext,
  createTraceState,
  trace,
  type Attributes,
  type Span,
  type Tracer,
} from "@opentelemetry/api";
import { describeMethod } from "../protocol/methods.ts";
import type { McpHooks, McpRequestInfo } from "../types/hooks.ts";

/** Options of {@link otelHooks}. */
export interface OtelHooksOptions {
  /** The tracer to use (default: `trace.getTracer("mcp-h3")` from the global provider). */
  tracer?: Tracer;
}

const TRACEPARENT = /^([0-9a-f]{2})-([0-9a-f]{32})-([0-9a-f]{16})-([0-9a-f]{2})$/;

/** The remote parent named by a W3C `traceparent`, or undefined when absent or malformed. */
function parentContext(meta: McpRequestInfo["meta"]): ReturnType<typeof otelContext.active> | undefined {
  const header = typeof meta?.traceparent === "string" ? meta.traceparent.trim().toLowerCase() : undefined;
  const match = header === undefined ? null : TRACEPARENT.exec(header);
  if (!match || match[1] === "ff" || /^0+$/.test(match[2]!) || /^0+$/.test(match[3]!)) return undefined;
  const traceState = typeof meta?.tracestate === "string" ? createTraceState(meta.tracestate) : undefined;
  return trace.setSpanContext(otelContext.active(), {
    traceId: match[2]!,
    spanId: match[3]!,
    traceFlags: Number.parseInt(match[4]!, 16) & 1,
    isRemote: true,
    traceState,
  });
}

/** Span attributes of the MCP semantic conventions. */
function attributesOf(info: McpRequestInfo): Attributes {
  const attributes: Attributes = {
    "mcp.method.name": info.method,
    "mcp.protocol.version": info.protocolVersion,
    "jsonrpc.request.id": String(info.requestId),
    "network.transport": "tcp",
    "network.protocol.name": "http",
  };
  if (info.sessionId !== undefined) attributes["mcp.session.id"] = info.sessionId;
  // What the request names goes under its method's own attribute (protocol/methods.ts: `otel`).
  const otel = info.name === undefined ? undefined : describeMethod(info.method)?.otel;
  if (otel) {
    attributes[otel.nameAttribute] = info.name;
    if (otel.operation !== undefined) attributes["gen_ai.operation.name"] = otel.operation;
  }
  return attributes;
}

/**
 * Hooks that trace every MCP request. Span name: `{method} {target}` (e.g. `tools/call weather`),
 * kind SERVER, status ERROR with `error.type` set to the JSON-RPC code when the request failed.
 *
 * @example
 * import { otelHooks } from "mcp-h3/otel";
 * export default defineMcpHandler({ name: "demo", version: "1.0.0", tools, hooks: otelHooks() });
 */
export function otelHooks(options: OtelHooksOptions = {}): McpHooks {
  const spans = new WeakMap<McpRequestInfo, Span>();
  const tracer = (): Tracer => options.tracer ?? trace.getTracer("mcp-h3");
  return {
    onRequest(info) {
      const name = info.name === undefined ? info.method : `${info.method} ${info.name}`;
      const span = tracer().startSpan(
        name,
        { kind: SpanKind.SERVER, attributes: attributesOf(info) },
        parentContext(info.meta) ?? otelContext.active(),
      );
      spans.set(info, span);
    },
    onError(info) {
      const span = spans.get(info);
      if (!span || !info.error) return;
      span.setAttribute("error.type", String(info.error.code));
      span.setAttribute("rpc.response.status_code", String(info.error.code));
      span.setStatus({ code: SpanStatusCode.ERROR, message: info.error.message });
    },
    onResponse(info) {
      const span = spans.get(info);
      if (!span) return;
      if (info.status === "cancelled") span.setAttribute("error.type", "cancelled");
      span.end();
      spans.delete(info);
    },
  };
}
