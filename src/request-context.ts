/**
 * The object behind `event.context.mcp`. One is built per JSON-RPC request; methods live on the
 * prototype, and what differs between eras (how input requests are answered, where change
 * notifications go) is supplied by the lane.
 */
import type { H3Event } from "h3";
import type {
  AuthIdentity,
  CacheHints,
  ElicitSchema,
  InputRequestOptions,
  McpContext,
  McpEra,
  McpNotify,
  TraceContext,
} from "./context.ts";
import type { Catalog } from "./dispatch/catalog.ts";
import { readResourceFrom } from "./dispatch/resources.ts";
import { ErrorCode, McpError } from "./protocol/errors.ts";
import type { JsonObject, JsonRpcId } from "./protocol/jsonrpc.ts";
import {
  logLevelRank,
  type ClientCapabilities,
  type CreateMessageParams,
  type CreateMessageResult,
  type ElicitResult,
  type Implementation,
  type ListRootsResult,
  type LogLevel,
  type ReadResourceResult,
} from "./protocol/types.ts";
import type { ResolvedOptions } from "./options.ts";
import type { ResponseChannel } from "./stream/channel.ts";
import { missingCapabilities } from "./client-capabilities.ts";
import { elicitationRequest, checkElicitResult } from "./input/elicitation.ts";

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

/** Where change notifications go (the bus, to GET and listen streams). */
export interface ChangePublisher {
  publish(method: string, params?: JsonObject): Promise<void>;
}

/** Everything a context is built from. */
export interface ContextInit {
  era: McpEra;
  protocolVersion: string;
  requestId: JsonRpcId;
  method: string;
  meta: JsonObject | undefined;
  options: ResolvedOptions;
  sessionId?: string;
  clientInfo?: Implementation;
  clientCapabilities?: ClientCapabilities;
  logLevel?: LogLevel;
  trace?: TraceContext;
  inputResponses?: JsonObject;
  requestState?: string;
  auth?: AuthIdentity;
  principal?: string;
  channel: ResponseChannel;
  catalog: Catalog;
  event: H3Event;
  broker: InputBroker;
  publisher: ChangePublisher;
}

export class RequestContext implements McpContext {
  readonly era: McpEra;
  readonly protocolVersion: string;
  readonly requestId: JsonRpcId;
  readonly signal: AbortSignal;
  readonly transportSignal: AbortSignal;
  readonly progressToken: string | number | undefined;
  readonly meta: JsonObject | undefined;
  readonly options: ResolvedOptions;
  readonly sessionId: string | undefined;
  readonly lastEventId: string | undefined = undefined;
  readonly auth: AuthIdentity | undefined;
  readonly principal: string | undefined;
  readonly clientInfo: Implementation | undefined;
  readonly clientCapabilities: ClientCapabilities | undefined;
  readonly logLevel: LogLevel | undefined;
  readonly trace: TraceContext | undefined;
  readonly inputResponses: JsonObject | undefined;
  readonly requestState: string | undefined;
  cacheHints: CacheHints | undefined = undefined;
  state: unknown = undefined;
  /** Input requests sent to the client so far (legacy), for the `maxInputRounds` cap. */
  inputRounds = 0;
  /** The JSON-RPC method being served. */
  readonly method: string;
  /** Aborts `signal`; the lane calls it on cancellation. */
  readonly abort: (reason?: unknown) => void;
  readonly channel: ResponseChannel;
  readonly catalog: Catalog;
  readonly event: H3Event;
  #broker: InputBroker;
  #publisher: ChangePublisher;
  #notify: McpNotify | undefined;

  constructor(init: ContextInit) {
    const controller = new AbortController();
    this.signal = controller.signal;
    this.abort = (reason) => controller.abort(reason);
    this.era = init.era;
    this.protocolVersion = init.protocolVersion;
    this.requestId = init.requestId;
    this.method = init.method;
    this.meta = init.meta;
    const token = init.meta?.progressToken;
    this.progressToken = typeof token === "string" || typeof token === "number" ? token : undefined;
    this.options = init.options;
    this.sessionId = init.sessionId;
    this.auth = init.auth;
    this.principal = init.principal;
    this.clientInfo = init.clientInfo;
    this.clientCapabilities = init.clientCapabilities;
    this.logLevel = init.logLevel;
    this.trace = init.trace;
    this.inputResponses = init.inputResponses;
    this.requestState = init.requestState;
    this.channel = init.channel;
    this.transportSignal = init.channel.transportSignal;
    this.catalog = init.catalog;
    this.event = init.event;
    this.#broker = init.broker;
    this.#publisher = init.publisher;
  }

  progress(progress: number, total?: number, message?: string): Promise<void> {
    if (this.progressToken === undefined || this.signal.aborted) return Promise.resolve();
    const params: JsonObject = { progressToken: this.progressToken, progress };
    if (total !== undefined) params.total = total;
    if (message !== undefined) params.message = message;
    return this.channel.send({ jsonrpc: "2.0", method: "notifications/progress", params });
  }

  log(level: LogLevel, data: unknown, logger?: string): Promise<void> {
    if (!this.options.logging || this.signal.aborted) return Promise.resolve();
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
    if (this.signal.aborted) return Promise.resolve();
    return this.channel.send(params === undefined ? { jsonrpc: "2.0", method } : { jsonrpc: "2.0", method, params });
  }

  /** Publishes a change notification to every listening client. */
  publishChange(method: string, params?: JsonObject): Promise<void> {
    return this.#publisher.publish(method, params);
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

  async elicit(
    key: string,
    message: string,
    target: ElicitSchema | { url: string },
    options?: InputRequestOptions,
  ): Promise<ElicitResult<never>> {
    const request = elicitationRequest(message, target);
    this.requireClientCapability(request.capability);
    const answer = await this.#broker.request(this, key, "elicitation/create", request.params, this.#timeout(options));
    return (await checkElicitResult(answer, request)) as ElicitResult<never>;
  }

  async sample(key: string, params: CreateMessageParams, options?: InputRequestOptions): Promise<CreateMessageResult> {
    this.requireClientCapability(
      params.tools !== undefined || params.toolChoice !== undefined ? "sampling.tools" : "sampling",
    );
    return (await this.#broker.request(
      this,
      key,
      "sampling/createMessage",
      params as JsonObject,
      this.#timeout(options),
    )) as CreateMessageResult;
  }

  async listRoots(key: string, options?: InputRequestOptions): Promise<ListRootsResult> {
    this.requireClientCapability("roots");
    return (await this.#broker.request(this, key, "roots/list", {}, this.#timeout(options))) as ListRootsResult;
  }

  closeStream(): void {
    if (this.era === "legacy") void this.channel.closeConnection();
  }

  #timeout(options: InputRequestOptions | undefined): number {
    return options?.timeoutMs ?? this.options.inputTimeoutMs;
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
