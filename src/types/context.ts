/**
 * `event.context.mcp`: everything about the MCP request in flight, typed through h3's
 * `H3EventContext` augmentation. Fields stay `undefined` where they do not apply to the era.
 */
import type { StandardSchemaV1 } from "@standard-schema/spec";
import type { H3Event } from "h3";
import type { JsonObject, JsonRpcId } from "../protocol/jsonrpc.ts";
import type {
  ClientCapabilities,
  CreateMessageParams,
  ElicitResult,
  Implementation,
  JsonSchema,
  ListRootsResult,
  LogLevel,
} from "../protocol/types.ts";
import type {
  ElicitContent,
  ElicitSchema,
  InputRequestOptions,
  SampleOptions,
  SampleResult,
} from "./input-requests.ts";
import type { CacheHints } from "./cache-hints.ts";
import type { McpEra } from "./era.ts";
import type { McpLifespan } from "./lifespan.ts";
import type { ResolvedOptions } from "./resolved-options.ts";
import type { AuthIdentity } from "./auth.ts";
import type { McpUserContext, TraceContext } from "./request-meta.ts";

export type {
  ElicitContent,
  ElicitSchema,
  InputRequestOptions,
  SampleOptions,
  SampleResult,
} from "./input-requests.ts";
export type { McpUserContext, TraceContext } from "./request-meta.ts";

/** `notify(method, params)` plus shortcuts for the standard change notifications. */
/** How {@link McpContext.notifySession} delivers. */
export interface NotifySessionOptions {
  /**
   * Deliver only to a reader of the session's GET stream whose own grant may call this tool (its
   * scopes, its `enabled`), as the tasks extension does for what it says about a task of that tool.
   * The stream's connection decides, not the session's principal: a weaker token of the same
   * subject reading the stream gets nothing of it.
   */
  readonly forTool?: string;
}

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

/**
 * A tool call running as a task, as its handler sees it (`event.context.mcp.task`). `signal` fires
 * when the task is cancelled; progress and log work as in any call.
 *
 * @example
 * handler: async (event) => {
 *   const task = event.context.mcp!.task;
 *   await task?.setStatusMessage("Crunching");
 *   return "done";
 * }
 */
export interface McpTask {
  /** The task's id, as clients see it. */
  readonly id: string;
  /** Sets the status message `tasks/get` shows (at most 1,000 characters are kept). */
  setStatusMessage(message: string): Promise<void>;
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
  /**
   * Legacy: the `Last-Event-ID` header the request carried (a resumption itself is a GET, which runs
   * no handler). `undefined` on the modern era, which has no event ids.
   */
  readonly lastEventId: string | undefined;
  /** Who the bearer token stands for, as `auth.validate` returned it (`undefined` with auth off). */
  readonly auth: AuthIdentity | undefined;
  /**
   * Whose request this is (`undefined` with auth off): the token's `subject`, else the SHA-256 hex of
   * the token (never the token). Sessions, `requestState` and `notifySession` are bound to it.
   */
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
  /**
   * Modern: hints for a cacheable result, `{}` until set: `mcp.cacheHints!.ttlMs = 60_000`. A field
   * left unset falls back to the definition's hint, then the handler's `cacheHints` option.
   * Legacy: `undefined` (the era has no cache hints).
   */
  cacheHints: CacheHints | undefined;

  /** The JSON-RPC method being served, e.g. `"tools/call"`. */
  readonly method: string;
  /** The tool or prompt name, the resource URI, or the task id, being served (`undefined` for other methods). */
  readonly name: string | undefined;
  /**
   * Set when the call runs as a task (the tool's `task` option, with `mcp-h3/tasks`): its id, and a
   * way to set the status message clients see; `undefined` otherwise.
   */
  readonly task: McpTask | undefined;
  /** The end user as the client reports it (unverified); `undefined` when the client sent none. */
  readonly user: McpUserContext | undefined;
  /** What the handler's `setup` returned (run once, on the first request). */
  readonly lifespan: McpLifespan;

  /** Sends `notifications/progress` for this request's progress token (no-op without one). */
  progress(progress: number, total?: number, message?: string): Promise<void>;
  /** Sends `notifications/message` when the level passes the client's threshold and logging is on. */
  log(level: LogLevel, data: unknown, logger?: string): Promise<void>;
  /** `log("debug", …)`. */
  debug(data: unknown, logger?: string): Promise<void>;
  /** `log("info", …)`. */
  info(data: unknown, logger?: string): Promise<void>;
  /** `log("notice", …)`. */
  notice(data: unknown, logger?: string): Promise<void>;
  /** `log("warning", …)`. */
  warning(data: unknown, logger?: string): Promise<void>;
  /** `log("error", …)`. */
  error(data: unknown, logger?: string): Promise<void>;
  /** `log("critical", …)`. */
  critical(data: unknown, logger?: string): Promise<void>;
  /** `log("alert", …)`. */
  alert(data: unknown, logger?: string): Promise<void>;
  /** `log("emergency", …)`. */
  emergency(data: unknown, logger?: string): Promise<void>;
  /**
   * Sends a notification to another legacy session's stream. Resolves `true` when it was delivered
   * (or kept for that stream's resumption), `false` when the session is unknown, has no stream, or
   * belongs to another principal, or (with `options.forTool`) its reader may not call that tool.
   */
  notifySession(
    sessionId: string,
    method: string,
    params?: JsonObject,
    options?: NotifySessionOptions,
  ): Promise<boolean>;
  /** Sends notifications; see {@link McpNotify}. */
  readonly notify: McpNotify;
  /**
   * Throws an `McpError` unless the client declared every named capability (e.g. `"elicitation"`,
   * `"sampling.tools"`), with `data.requiredCapabilities`: `-32021` on the modern era; `-32602` on a
   * legacy session, whose revisions define no code of their own for it.
   */
  requireClientCapability(...names: string[]): void;
  /** Reads one of this server's own resources. */
  readResource(uri: string): Promise<import("../protocol/types.ts").ReadResourceResult>;
  /**
   * Asks the user for input. `key` names the request so the modern era can match the answer on a
   * retry; keep it stable across calls. The schema may be an object of fields, a single string,
   * number, integer or boolean, a string enum (`enum`, or titled `oneOf`), or a multi-select array
   * of a string enum; without a schema the user only approves or declines. Accepted content is
   * validated (and typed) by the schema; `decline` and `cancel` are returned, not thrown.
   */
  elicit<S extends ElicitSchema>(
    key: string,
    message: string,
    schema: S,
    options?: InputRequestOptions,
  ): Promise<ElicitResult<ElicitContent<S>>>;
  elicit(key: string, message: string, target: { url: string }, options?: InputRequestOptions): Promise<ElicitResult>;
  elicit(key: string, message: string): Promise<ElicitResult<never>>;
  /** Asks the user to visit a URL (URL-mode elicitation; needs the client's `elicitation.url`). */
  elicitUrl(key: string, message: string, url: string, options?: InputRequestOptions): Promise<ElicitResult<never>>;
  /**
   * Asks the client's model for a message (`sampling/createMessage`). A string is one user message
   * with `maxTokens` 1000. With `options.schema` the text answer is parsed and validated as `data`.
   * `tools` / `toolChoice` need the client's `sampling.tools`.
   */
  sample<S extends StandardSchemaV1 | JsonSchema | undefined = undefined>(
    key: string,
    params: CreateMessageParams | string,
    options?: SampleOptions<S>,
  ): Promise<SampleResult<S>>;
  /** Asks the client for its roots (`roots/list`). */
  listRoots(key: string, options?: InputRequestOptions): Promise<ListRootsResult>;
  /**
   * Legacy: closes this request's SSE connection without ending the stream; the client resumes
   * with `Last-Event-ID` after the advertised retry delay (SSE polling). No-op on modern.
   */
  closeStream(): void;
}

/**
 * The event a definition's handler (and its `list` / `complete`) receives: an `H3Event` whose
 * `context.mcp` is always set, so handlers read `event.context.mcp` without a `!`.
 */
export type McpEvent = H3Event & { context: { mcp: McpContext } };

declare module "h3" {
  interface H3EventContext {
    /** The MCP request in flight; set inside every mcp-h3 definition handler. */
    mcp?: McpContext;
  }
}
