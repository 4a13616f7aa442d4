/**
 * One test body, both eras: a small interface over the two real clients the context-member tests
 * drive. "legacy" is `@modelcontextprotocol/sdk` 1.x (initialize, a session, server→client requests
 * on the call's SSE stream); "modern" is `@modelcontextprotocol/client` 2.x pinned to 2026-07-28
 * (no session; `elicit` / `sample` answered by the client's multi round-trip driver through the same
 * handlers). Unlike `clients.ts`, a call can carry its own `_meta` (user keys, `traceparent`) and the
 * client can declare any capabilities (`elicitation.url`, `sampling.tools`), so the cases can reach
 * what the end-user context, OpenTelemetry and the capability gates read.
 */
import { Client as ClientV1 } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport as TransportV1 } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import {
  CreateMessageRequestSchema,
  ElicitRequestSchema,
  LoggingMessageNotificationSchema,
} from "@modelcontextprotocol/sdk/types.js";
import {
  Client as ClientV2,
  LOG_LEVEL_META_KEY,
  StreamableHTTPClientTransport as TransportV2,
} from "@modelcontextprotocol/client";
import { MODERN_PROTOCOL_VERSION } from "./modern-clients.ts";

export type Era = "legacy" | "modern";
export const ERAS: Era[] = ["legacy", "modern"];

export type LogLevelName = "debug" | "info" | "notice" | "warning" | "error" | "critical" | "alert" | "emergency";

/** Client-side timeout of each call: well under the test timeout, so a hang fails with a reason. */
export const CALL_TIMEOUT_MS = 5_000;

export interface LogMessage {
  level: string;
  logger?: string;
  data: unknown;
}

export interface Progress {
  progress: number;
  total?: number;
  message?: string;
}

export interface Notification {
  method: string;
  params?: Record<string, unknown>;
}

/** What a test reads back from a tool call. */
export interface CallResult {
  content?: unknown;
  structuredContent?: unknown;
  isError?: boolean;
}

/** The `params` of a server→client request as the client's handler got them. */
export type RequestParams = Record<string, unknown>;

export interface EraClientOptions {
  /** Declared as given; default: `elicitation: {}` / `sampling: {}` for the handlers set. */
  capabilities?: Record<string, object>;
  /** Answers `elicitation/create` (legacy: a server→client request; modern: an MRTR input request). */
  onElicit?: (params: RequestParams) => unknown;
  /** Answers `sampling/createMessage`, the same way. */
  onSample?: (params: RequestParams) => unknown;
  /** Legacy: every notification without a handler of its own (e.g. one sent by `notifySession`). */
  onNotification?: (notification: Notification) => void;
}

export interface CallOptions {
  /** Merged into the call's `params._meta` (the 2.x client adds its envelope keys). */
  meta?: Record<string, unknown>;
  onprogress?: (progress: Progress) => void;
  signal?: AbortSignal;
  timeout?: number;
}

/** One POSTed JSON-RPC message as it went over the wire. */
export interface WireMessage {
  method?: string;
  id?: unknown;
  params?: Record<string, unknown>;
  result?: unknown;
  error?: unknown;
}

export interface EraClient {
  readonly era: Era;
  /** The legacy `Mcp-Session-Id`; undefined on the modern era. */
  readonly sessionId: string | undefined;
  /** Every `notifications/message` received, in order. */
  readonly logs: LogMessage[];
  /** Every POSTed message, parsed, in order. */
  readonly posted: WireMessage[];
  /** HTTP requests the transport sent, with their status once known. */
  readonly exchanges: { httpMethod: string; status?: number }[];
  /** What the client reported through `onerror`. */
  readonly errors: string[];
  /**
   * The era's own way to ask for a minimum log level: `logging/setLevel` on the legacy session;
   * on the modern era the level rides in the `_meta` of every later request.
   */
  setLogLevel(level: LogLevelName): Promise<void>;
  callTool(name: string, args?: Record<string, unknown>, options?: CallOptions): Promise<CallResult>;
  getPrompt(
    name: string,
    args: Record<string, string>,
    meta?: Record<string, unknown>,
  ): Promise<{ messages: { role: string; content: { type: string; text?: string } }[] }>;
  readResource(
    uri: string,
    meta?: Record<string, unknown>,
  ): Promise<{ contents: { uri: string; text?: string; mimeType?: string }[] }>;
  close(): Promise<void>;
}

function parse(body: unknown): WireMessage | undefined {
  if (typeof body !== "string") return undefined;
  try {
    const message: unknown = JSON.parse(body);
    return message !== null && typeof message === "object" && !Array.isArray(message)
      ? (message as WireMessage)
      : undefined;
  } catch {
    return undefined;
  }
}

function recordingFetch(client: { posted: WireMessage[]; exchanges: EraClient["exchanges"] }): typeof fetch {
  return async (input, init) => {
    const exchange: { httpMethod: string; status?: number } = { httpMethod: (init?.method ?? "GET").toUpperCase() };
    client.exchanges.push(exchange);
    const message = parse(init?.body);
    if (message) client.posted.push(message);
    const response = await fetch(input, init);
    exchange.status = response.status;
    return response;
  };
}

function capabilitiesOf(options: EraClientOptions): Record<string, object> {
  if (options.capabilities) return options.capabilities;
  const capabilities: Record<string, object> = {};
  if (options.onElicit) capabilities.elicitation = {};
  if (options.onSample) capabilities.sampling = {};
  return capabilities;
}

function withMeta(meta: Record<string, unknown> | undefined): { _meta?: Record<string, unknown> } {
  return meta === undefined ? {} : { _meta: meta };
}

async function connectLegacy(url: string, options: EraClientOptions): Promise<EraClient> {
  const client = new ClientV1({ name: "sdk-1.x-members", version: "1.0.0" }, { capabilities: capabilitiesOf(options) });
  const state = {
    logs: [] as LogMessage[],
    posted: [] as WireMessage[],
    exchanges: [] as EraClient["exchanges"],
    errors: [] as string[],
  };
  client.setNotificationHandler(LoggingMessageNotificationSchema, (n) => void state.logs.push(n.params));
  const { onElicit, onSample, onNotification } = options;
  // The SDK's result types are index-signature records; the tests answer with plain objects.
  if (onElicit) client.setRequestHandler(ElicitRequestSchema, async (r) => (await onElicit(r.params)) as never);
  if (onSample) client.setRequestHandler(CreateMessageRequestSchema, async (r) => (await onSample(r.params)) as never);
  if (onNotification) client.fallbackNotificationHandler = async (n) => onNotification(n as Notification);
  client.onerror = (error) => void state.errors.push(String(error));
  const transport = new TransportV1(new URL(url), { fetch: recordingFetch(state) });
  await client.connect(transport);
  return {
    era: "legacy",
    ...state,
    get sessionId() {
      return transport.sessionId;
    },
    setLogLevel: async (level) => void (await client.setLoggingLevel(level)),
    callTool: async (name, args = {}, call = {}) =>
      (await client.callTool({ name, arguments: args, ...withMeta(call.meta) }, undefined, {
        timeout: call.timeout ?? CALL_TIMEOUT_MS,
        onprogress: call.onprogress,
        signal: call.signal,
      })) as CallResult,
    getPrompt: (name, args, meta) => client.getPrompt({ name, arguments: args, ...withMeta(meta) }),
    readResource: (uri, meta) => client.readResource({ uri, ...withMeta(meta) }),
    close: () => client.close(),
  };
}

async function connectModernPinned(url: string, options: EraClientOptions): Promise<EraClient> {
  const client = new ClientV2(
    { name: "client-2.x-members", version: "2.0.0" },
    { capabilities: capabilitiesOf(options), versionNegotiation: { mode: { pin: MODERN_PROTOCOL_VERSION } } },
  );
  const state = {
    logs: [] as LogMessage[],
    posted: [] as WireMessage[],
    exchanges: [] as EraClient["exchanges"],
    errors: [] as string[],
  };
  client.setNotificationHandler("notifications/message", (n) => void state.logs.push(n.params));
  const { onElicit, onSample } = options;
  // Reached through the client's multi round-trip driver, not by server→client requests.
  if (onElicit) client.setRequestHandler("elicitation/create", async (r) => (await onElicit(r.params)) as never);
  if (onSample) client.setRequestHandler("sampling/createMessage", async (r) => (await onSample(r.params)) as never);
  client.onerror = (error) => void state.errors.push(String(error));
  await client.connect(new TransportV2(new URL(url), { fetch: recordingFetch(state) }));
  let level: LogLevelName | undefined;
  const metaOf = (meta: Record<string, unknown> | undefined) =>
    level === undefined ? meta : { [LOG_LEVEL_META_KEY]: level, ...meta };
  return {
    era: "modern",
    ...state,
    sessionId: undefined,
    setLogLevel: async (next) => void (level = next),
    callTool: async (name, args = {}, call = {}) =>
      (await client.callTool(
        { name, arguments: args, ...withMeta(metaOf(call.meta)) },
        { timeout: call.timeout ?? CALL_TIMEOUT_MS, onprogress: call.onprogress, signal: call.signal },
      )) as CallResult,
    getPrompt: (name, args, meta) =>
      client.getPrompt({ name, arguments: args, ...withMeta(metaOf(meta)) }, { timeout: CALL_TIMEOUT_MS }),
    readResource: (uri, meta) => client.readResource({ uri, ...withMeta(metaOf(meta)) }, { timeout: CALL_TIMEOUT_MS }),
    close: () => client.close(),
  };
}

/** Connects the era's real client to `url`. */
export function connectEra(era: Era, url: string, options: EraClientOptions = {}): Promise<EraClient> {
  return era === "legacy" ? connectLegacy(url, options) : connectModernPinned(url, options);
}
