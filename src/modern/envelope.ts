/**
 * The modern `_meta` envelope (2026-07-28): protocol version and client capabilities are required
 * on every request; client info, log level, progress token and trace context are optional. Checked
 * by hand (no schema library on the hot path).
 */
import type { TraceContext } from "../types/context.ts";
import { echoValue } from "../protocol/echo.ts";
import { INVALID_PARAMS } from "../protocol/errors.ts";
import { isObject, type JsonObject } from "../protocol/jsonrpc.ts";
import {
  META_CLIENT_CAPABILITIES,
  META_CLIENT_INFO,
  META_LOG_LEVEL,
  META_PROTOCOL_VERSION,
} from "../protocol/meta-keys.ts";
import {
  LOG_LEVELS,
  isLogLevel,
  type ClientCapabilities,
  type Implementation,
  type LogLevel,
} from "../protocol/types.ts";
import type { Refusal } from "../http/refusal.ts";

export interface Envelope {
  protocolVersion: string;
  clientCapabilities: ClientCapabilities;
  clientInfo: Implementation | undefined;
  logLevel: LogLevel | undefined;
  trace: TraceContext | undefined;
  meta: JsonObject;
}

/** Members of `ClientCapabilities` whose values are objects. */
const CAPABILITY_MEMBERS = ["experimental", "roots", "sampling", "elicitation", "extensions"] as const;

export type EnvelopeOutcome = { ok: true; envelope: Envelope } | { ok: false; refusal: Refusal };

function invalid(version: unknown, key: string, problem: string): EnvelopeOutcome {
  // The claimed revision is the client's: quoted short.
  const revision = typeof version === "string" ? echoValue(version) : "2026-07-28";
  return {
    ok: false,
    refusal: {
      status: 400,
      code: INVALID_PARAMS,
      message: `Invalid _meta envelope for protocol revision ${revision}: ${key}: ${problem}`,
      data: { envelope: { key, problem } },
    },
  };
}

function traceOf(meta: JsonObject): TraceContext | undefined {
  const { traceparent, tracestate, baggage } = meta;
  if (traceparent === undefined && tracestate === undefined && baggage === undefined) return undefined;
  const trace: TraceContext = {};
  if (typeof traceparent === "string") trace.traceparent = traceparent;
  if (typeof tracestate === "string") trace.tracestate = tracestate;
  if (typeof baggage === "string") trace.baggage = baggage;
  return trace;
}

/** Reads and checks the envelope of a message that carries the modern claim. */
export function readEnvelope(meta: JsonObject): EnvelopeOutcome {
  const version = meta[META_PROTOCOL_VERSION];
  if (typeof version !== "string" || version === "") {
    return invalid(version, META_PROTOCOL_VERSION, "must be a non-empty string");
  }
  if (!(META_CLIENT_CAPABILITIES in meta)) {
    return invalid(version, META_CLIENT_CAPABILITIES, "is required");
  }
  const capabilities = meta[META_CLIENT_CAPABILITIES];
  if (!isObject(capabilities)) return invalid(version, META_CLIENT_CAPABILITIES, "must be an object");
  for (const member of CAPABILITY_MEMBERS) {
    if (capabilities[member] !== undefined && !isObject(capabilities[member])) {
      return invalid(version, META_CLIENT_CAPABILITIES, `${member} must be an object`);
    }
  }
  const clientInfo = meta[META_CLIENT_INFO];
  if (
    clientInfo !== undefined &&
    (!isObject(clientInfo) || typeof clientInfo.name !== "string" || typeof clientInfo.version !== "string")
  ) {
    return invalid(version, META_CLIENT_INFO, "must be an object with string name and version");
  }
  const logLevel = meta[META_LOG_LEVEL];
  if (logLevel !== undefined && !isLogLevel(logLevel)) {
    return invalid(version, META_LOG_LEVEL, `must be one of ${LOG_LEVELS.join(", ")}`);
  }
  const token = meta.progressToken;
  if (token !== undefined && typeof token !== "string" && !(typeof token === "number" && Number.isInteger(token))) {
    return invalid(version, "progressToken", "must be a string or an integer");
  }
  return {
    ok: true,
    envelope: {
      protocolVersion: version,
      clientCapabilities: capabilities as ClientCapabilities,
      clientInfo: clientInfo as Implementation | undefined,
      logLevel: logLevel as LogLevel | undefined,
      trace: traceOf(meta),
      meta,
    },
  };
}
