/**
 * `event.context.mcp`: everything about the MCP request in flight, typed through h3's
 * `H3EventContext` augmentation. Fields stay `undefined` where they do not apply to the era.
 */
import type { StandardSchemaV1 } from "@standard-schema/spec";
import type { JsonObject, JsonRpcId } from "./protocol/jsonrpc.ts";
import type {
  ClientCapabilities,
  CreateMessageParams,
  CreateMessageResult,
  ElicitResult,
  Implementation,
  JsonSchema,
  ListRootsResult,
  LogLevel,
} from "./protocol/types.ts";
import type { ResolvedOptions } from "./options.ts";

/** Which protocol era served the request. */
export type McpEra = "modern" | "legacy";

/** W3C trace context carried in `_meta` (modern). */
export interface TraceContext {
  traceparent?: string;
  tracestate?: string;
  baggage?: string;
}

/** Cache hints a handler may set for its cacheable result (modern). */
export interface CacheHints {
  ttlMs?: number;
  cacheScope?: "public" | "private";
}

/** The identity an auth check admitted. */
export interface AuthIdentity {
  token: string;
  subject?: string;
  clientId?: string;
  scopes?: string[];
  expiresAt?: number;
  extra?: Record<string, unknown>;
}

/** `notify(method, params)` plus shortcuts for the standard change notifications. */
export interface McpNotify {
  /** Sends any notification on this request's stream (a no-op when there is none). */
  (method: string, params?: JsonObject): Promise<void>;
  /** `notifications/tools/list_changed` to every listening client. */
  toolsChanged(): Promise<void>;
  /** `notifications/prompts/list_changed` to every listening client. */
  promptsChanged(): Promise<void>;
  /** `notifications/resources/list_changed` to every listening client. */
  resourcesChanged(): Promise<void>;
  /** `notifications/resources/updated` to the clients subscribed to `uri`. */
  resourceUpdated(uri: string): Promise<void>;
}

/** A schema for an elicitation: a Standard Schema (zod) or a plain JSON object schema. */
export type ElicitSchema = StandardSchemaV1 | JsonSchema;

/** The content type an elicitation with `schema` resolves to. */
export type ElicitContent<S> = S extends StandardSchemaV1 ? StandardSchemaV1.InferOutput<S> : JsonObject;

/** Options of the input requests (`elicit`, `sample`, `listRoots`). */
export interface InputRequestOptions {
  /** How long to wait for the client's answer on legacy sessions (default: the handler's `inputTimeoutMs`). */
  timeoutMs?: number;
}

/** The request context: `event.context.mcp`. */
export interface McpContext {
  /** Which path served this request. */
  readonly era: McpEra;
  /** Negotiated revision (legacy: the session's; modern: `_meta`). */
  readonly protocolVersion: string;
  /** JSON-RPC id of the request. */
  readonly requestId: JsonRpcId;
  /** Aborts when the request is cancelled (legacy `notifications/cancelled`, modern disconnect). */
  readonly signal: AbortSignal;
  /** Fires when the response stream closes. */
  readonly transportSignal: AbortSignal;
  /** `params._meta.progressToken`, when the client sent one. */
  readonly progressToken: string | number | undefined;
  /** The raw `params._meta` (untrusted). */
  readonly meta: JsonObject | undefined;
  /** The handler's resolved options. */
  readonly options: ResolvedOptions;
  /** Legacy: the `Mcp-Session-Id` of the session. */
  readonly sessionId: string | undefined;
  /** Legacy GET: the `Last-Event-ID` the client resumed from. */
  readonly lastEventId: string | undefined;
  /** What the auth check admitted (`undefined` with auth off). */
  readonly auth: AuthIdentity | undefined;
  /** Opaque key of the admitted credential (`undefined` with auth off). */
  readonly principal: string | undefined;
  /** Who the client says it is (self-reported). */
  readonly clientInfo: Implementation | undefined;
  /** What the client declared it can do. */
  readonly clientCapabilities: ClientCapabilities | undefined;
  /** Minimum level the client asked for (`undefined`: legacy sends all, modern sends none). */
  readonly logLevel: LogLevel | undefined;
  /** Modern: W3C trace context from `_meta`. */
  readonly trace: TraceContext | undefined;
  /** Modern MRTR retry: the client's answers keyed by request key (untrusted). */
  readonly inputResponses: JsonObject | undefined;
  /** Modern MRTR retry: the echoed state (verified before the handler runs). */
  readonly requestState: string | undefined;
  /**
   * The handler's own state across the rounds of a multi round-trip request: set it before asking
   * for input, and it comes back (verified) on the client's retry. Plain JSON data only.
   */
  state: unknown;
  /** Modern: hints for the cacheable result; set fields to override the defaults. */
  cacheHints: CacheHints | undefined;

  /** Sends `notifications/progress` for this request's progress token (no-op without one). */
  progress(progress: number, total?: number, message?: string): Promise<void>;
  /** Sends `notifications/message` when the level passes the client's threshold and logging is on. */
  log(level: LogLevel, data: unknown, logger?: string): Promise<void>;
  /** Sends notifications; see {@link McpNotify}. */
  readonly notify: McpNotify;
  /** Throws `-32021` unless the client declared every named capability (e.g. `"elicitation"`, `"sampling.tools"`). */
  requireClientCapability(...names: string[]): void;
  /** Reads one of this server's own resources. */
  readResource(uri: string): Promise<import("./protocol/types.ts").ReadResourceResult>;
  /**
   * Asks the user for input: a form (`schema`) or a URL to visit (`url`). `key` names the request
   * so the modern era can answer it on a retry; keep it stable across calls.
   */
  elicit<S extends ElicitSchema>(
    key: string,
    message: string,
    schema: S,
    options?: InputRequestOptions,
  ): Promise<ElicitResult<ElicitContent<S>>>;
  elicit(key: string, message: string, target: { url: string }, options?: InputRequestOptions): Promise<ElicitResult>;
  /** Asks the client's model for a completion (`sampling/createMessage`). */
  sample(key: string, params: CreateMessageParams, options?: InputRequestOptions): Promise<CreateMessageResult>;
  /** Asks the client for its roots (`roots/list`). */
  listRoots(key: string, options?: InputRequestOptions): Promise<ListRootsResult>;
  /**
   * Legacy: closes this request's SSE connection without ending the stream; the client resumes
   * with `Last-Event-ID` after the advertised retry delay (SSE polling). No-op on modern.
   */
  closeStream(): void;
}

declare module "h3" {
  interface H3EventContext {
    /** The MCP request in flight; set inside every mcp-h3 definition handler. */
    mcp?: McpContext;
  }
}
