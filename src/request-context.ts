/**
 * The object behind `event.context.mcp`. One is built per JSON-RPC request; methods live on the
 * prototype, and what differs between eras (how input requests are answered, where change
 * notifications go) is supplied by the lane.
 */
import type { H3Event } from "h3";
import type { StandardSchemaV1 } from "@standard-schema/spec";
import type {
  AuthIdentity,
  CacheHints,
  ElicitSchema,
  InputRequestOptions,
  McpContext,
  McpEra,
  McpLifespan,
  McpNotify,
  McpUserContext,
  SampleOptions,
  SampleResult,
  TraceContext,
} from "./context.ts";
import { elicitFrom, listRootsFrom, sampleFrom } from "./input/requests.ts";
import { readUserContext } from "./user-context.ts";
import type { Catalog } from "./dispatch/catalog.ts";
import { readResourceFrom } from "./dispatch/resources.ts";
import { ErrorCode, McpError } from "./protocol/errors.ts";
import type { JsonObject, JsonRpcId, JsonRpcNotification } from "./protocol/jsonrpc.ts";
import {
  LOG_LEVELS,
  logLevelRank,
  type ClientCapabilities,
  type CreateMessageParams,
  type ElicitResult,
  type Implementation,
  type JsonSchema,
  type ListRootsResult,
  type LogLevel,
  type ReadResourceResult,
} from "./protocol/types.ts";
import type { ResolvedOptions } from "./options.ts";
import type { ResponseChannel } from "./stream/channel.ts";
import { missingCapabilities } from "./client-capabilities.ts";

/** How a lane answers the input requests of a handler (legacy: server→client requests; modern: MRTR). */
export interface InputBroker {
  request(
    context: RequestContext,
    key: string,
    method: string,
    params: JsonObject,
    timeoutMs: number,
  ): Promise<unknown>;
}

/** Where change notifications go (the bus, to GET and listen streams), and notifications to other sessions. */
export interface ChangePublisher {
  publish(method: string, params?: JsonObject): Promise<void>;
  notifySession(sessionId: string, message: JsonRpcNotification, principal: string | undefined): Promise<boolean>;
}

/** Everything a context is built from. */
export interface ContextInit {
  era: McpEra;
  protocolVersion: string;
  requestId: JsonRpcId;
  method: string;
  /** The request's params (for `name`). */
  params: JsonObject;
  meta: JsonObject | undefined;
  options: ResolvedOptions;
  /** What `setup` returned. */
  lifespan: unknown;
  sessionId?: string;
  clientInfo?: Implementation;
  clientCapabilities?: ClientCapabilities;
  logLevel?: LogLevel;
  trace?: TraceContext;
  inputResponses?: JsonObject;
  requestState?: string;
  auth?: AuthIdentity;
  principal?: string;
  /** The response stream, built on first use (a synchronous JSON answer never needs one). */
  openChannel: () => ResponseChannel;
  catalog: Catalog;
  event: H3Event;
  broker: InputBroker;
  publisher: ChangePublisher;
  /** Whether the response connection closing cancels the request (modern; legacy without resumption). */
  cancelOnDisconnect: boolean;
}

export class RequestContext implements McpContext {
  readonly era: McpEra;
  /** The JSON-RPC method being served. */
  readonly method: string;
  cacheHints: CacheHints | undefined = undefined;
  state: unknown = undefined;
  /** Input requests sent to the client so far (legacy), for the `maxInputRounds` cap. */
  inputRounds = 0;
  /** The last progress value sent, so heartbeats keep progress increasing. */
  lastProgress: number | undefined = undefined;
  // One context is built per request: most members read through from what the lane gave, rather
  // than being copied field by field, so building it costs little.
  #init: ContextInit;
  #channel: ResponseChannel | undefined;
  #user: McpUserContext | undefined | null = null;
  #notify: McpNotify | undefined;
  // AbortControllers are costly on the hot path: `signal` is built when a handler first reads it.
  #controller: AbortController | undefined;
  #aborted = false;
  #abortReason: unknown;

  constructor(init: ContextInit) {
    this.#init = init;
    this.era = init.era;
    this.method = init.method;
  }

  /** The response stream of this request (built on first use). */
  get channel(): ResponseChannel {
    return (this.#channel ??= this.#init.openChannel());
  }

  /** True once something needed the response stream. */
  get hasChannel(): boolean {
    return this.#channel !== undefined;
  }

  get protocolVersion(): string {
    return this.#init.protocolVersion;
  }
  get requestId(): JsonRpcId {
    return this.#init.requestId;
  }
  get meta(): JsonObject | undefined {
    return this.#init.meta;
  }
  get progressToken(): string | number | undefined {
    const token = this.#init.meta?.progressToken;
    return typeof token === "string" || typeof token === "number" ? token : undefined;
  }
  get options(): ResolvedOptions {
    return this.#init.options;
  }
  get sessionId(): string | undefined {
    return this.#init.sessionId;
  }
  get lastEventId(): string | undefined {
    return undefined;
  }
  get auth(): AuthIdentity | undefined {
    return this.#init.auth;
  }
  get principal(): string | undefined {
    return this.#init.principal;
  }
  get clientInfo(): Implementation | undefined {
    return this.#init.clientInfo;
  }
  get clientCapabilities(): ClientCapabilities | undefined {
    return this.#init.clientCapabilities;
  }
  get logLevel(): LogLevel | undefined {
    return this.#init.logLevel;
  }
  get trace(): TraceContext | undefined {
    return this.#init.trace;
  }
  get inputResponses(): JsonObject | undefined {
    return this.#init.inputResponses;
  }
  get requestState(): string | undefined {
    return this.#init.requestState;
  }
  get lifespan(): McpLifespan {
    return this.#init.lifespan as McpLifespan;
  }
  get catalog(): Catalog {
    return this.#init.catalog;
  }
  get event(): H3Event {
    return this.#init.event;
  }

  get signal(): AbortSignal {
    if (!this.#controller) {
      this.#controller = new AbortController();
      if (this.#aborted) this.#controller.abort(this.#abortReason);
      else if (this.#init.cancelOnDisconnect) this.channel.onClose(this);
    }
    return this.#controller.signal;
  }

  get transportSignal(): AbortSignal {
    return this.channel.transportSignal;
  }

  /** True once the request was cancelled (read without building `signal`). */
  get aborted(): boolean {
    return this.#aborted;
  }

  /** Aborts `signal`; the lanes call it on cancellation. */
  abort(reason?: unknown): void {
    if (this.#aborted) return;
    this.#aborted = true;
    this.#abortReason = reason;
    this.#controller?.abort(reason);
  }

  get name(): string | undefined {
    const params = this.#init.params;
    if (this.method === "resources/read") return typeof params.uri === "string" ? params.uri : undefined;
    if (this.method === "tools/call" || this.method === "prompts/get") {
      return typeof params.name === "string" ? params.name : undefined;
    }
    return undefined;
  }

  get user(): McpUserContext | undefined {
    if (this.#user === null) this.#user = readUserContext(this.meta);
    return this.#user;
  }

  progress(progress: number, total?: number, message?: string): Promise<void> {
    if (this.progressToken === undefined || this.#aborted) return Promise.resolve();
    this.lastProgress = progress;
    const params: JsonObject = { progressToken: this.progressToken, progress };
    if (total !== undefined) params.total = total;
    if (message !== undefined) params.message = message;
    return this.channel.send({ jsonrpc: "2.0", method: "notifications/progress", params });
  }

  log(level: LogLevel, data: unknown, logger?: string): Promise<void> {
    if (!this.options.logging || this.#aborted) return Promise.resolve();
    const threshold = this.logLevel;
    // Legacy: no level set means everything; modern: no level in _meta means nothing.
    if (threshold === undefined ? this.era === "modern" : logLevelRank(level) < logLevelRank(threshold)) {
      return Promise.resolve();
    }
    const params: JsonObject = logger === undefined ? { level, data } : { level, logger, data };
    return this.channel.send({ jsonrpc: "2.0", method: "notifications/message", params });
  }

  get notify(): McpNotify {
    return (this.#notify ??= createNotify(this));
  }

  /** Sends one notification on this request's stream. */
  sendNotification(method: string, params?: JsonObject): Promise<void> {
    if (this.#aborted) return Promise.resolve();
    return this.channel.send(params === undefined ? { jsonrpc: "2.0", method } : { jsonrpc: "2.0", method, params });
  }

  /** Publishes a change notification to every listening client. */
  publishChange(method: string, params?: JsonObject): Promise<void> {
    return this.#init.publisher.publish(method, params);
  }

  requireClientCapability(...names: string[]): void {
    const missing = missingCapabilities(this.clientCapabilities, names);
    if (missing) {
      throw new McpError(
        ErrorCode.MissingRequiredClientCapability,
        `Missing required client capabilities: ${names.join(", ")}`,
        { requiredCapabilities: missing },
      );
    }
  }

  readResource(uri: string): Promise<ReadResourceResult> {
    return readResourceFrom(this.catalog, this.event, uri, this.era);
  }

  elicit(
    key: string,
    message: string,
    target?: ElicitSchema | { url: string },
    options?: InputRequestOptions,
  ): Promise<ElicitResult<never>> {
    return elicitFrom(this, key, message, target, options) as Promise<ElicitResult<never>>;
  }

  elicitUrl(key: string, message: string, url: string, options?: InputRequestOptions): Promise<ElicitResult<never>> {
    return this.elicit(key, message, { url }, options);
  }

  sample(
    key: string,
    params: CreateMessageParams | string,
    options?: SampleOptions<StandardSchemaV1 | JsonSchema | undefined>,
  ): Promise<SampleResult<never>> {
    return sampleFrom(this, key, params, options) as Promise<SampleResult<never>>;
  }

  listRoots(key: string, options?: InputRequestOptions): Promise<ListRootsResult> {
    return listRootsFrom(this, key, options);
  }

  /** Asks the lane's broker for one input (used by `elicit`, `sample`, `listRoots`). */
  askClient(
    key: string,
    method: string,
    params: JsonObject,
    options: InputRequestOptions | undefined,
  ): Promise<unknown> {
    return this.#init.broker.request(this, key, method, params, options?.timeoutMs ?? this.options.inputTimeoutMs);
  }

  notifySession(sessionId: string, method: string, params?: JsonObject): Promise<boolean> {
    const message =
      params === undefined ? { jsonrpc: "2.0" as const, method } : { jsonrpc: "2.0" as const, method, params };
    return this.#init.publisher.notifySession(sessionId, message, this.principal);
  }

  // The eight level helpers (`debug(data, logger?)` … `emergency`) are set on the prototype below.
  declare debug: McpContext["debug"];
  declare info: McpContext["info"];
  declare notice: McpContext["notice"];
  declare warning: McpContext["warning"];
  declare error: McpContext["error"];
  declare critical: McpContext["critical"];
  declare alert: McpContext["alert"];
  declare emergency: McpContext["emergency"];

  closeStream(): void {
    if (this.era === "legacy") void this.channel.closeConnection();
  }
}

function createNotify(context: RequestContext): McpNotify {
  const notify = ((method: string, params?: JsonObject) => context.sendNotification(method, params)) as McpNotify;
  notify.toolsChanged = () => context.publishChange("notifications/tools/list_changed");
  notify.promptsChanged = () => context.publishChange("notifications/prompts/list_changed");
  notify.resourcesChanged = () => context.publishChange("notifications/resources/list_changed");
  notify.resourceUpdated = (uri: string) => context.publishChange("notifications/resources/updated", { uri });
  return notify;
}

// One small function per level on the prototype: nothing per request, and little code to ship.
for (const level of LOG_LEVELS) {
  RequestContext.prototype[level] = function (this: RequestContext, data: unknown, logger?: string) {
    return this.log(level, data, logger);
  };
}
