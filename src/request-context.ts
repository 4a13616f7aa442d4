/**
 * The object behind `event.context.mcp`. One is built per JSON-RPC request; methods live on the
 * prototype, and what differs between eras (how input requests are answered, where change
 * notifications go) is supplied by the lane.
 */
import type { StandardSchemaV1 } from "@standard-schema/spec";
import type {
  CacheHints,
  ElicitSchema,
  InputRequestOptions,
  McpContext,
  McpEra,
  McpNotify,
  SampleOptions,
  SampleResult,
} from "./context.ts";
import { elicitFrom, listRootsFrom, sampleFrom } from "./input/requests.ts";
import { ContextFields, type ContextInit } from "./context-fields.ts";
import { readResourceFrom } from "./dispatch/resources.ts";
import { MISSING_REQUIRED_CLIENT_CAPABILITY, McpError } from "./protocol/errors.ts";
import { notification, type JsonObject } from "./protocol/jsonrpc.ts";
import {
  LOG_LEVELS,
  logLevelRank,
  type CreateMessageParams,
  type ElicitResult,
  type JsonSchema,
  type ListRootsResult,
  type LogLevel,
  type ReadResourceResult,
} from "./protocol/types.ts";
import type { ResponseChannel } from "./stream/channel.ts";
import { missingCapabilities } from "./client-capabilities.ts";

export class RequestContext extends ContextFields implements McpContext {
  readonly era: McpEra;
  /** The JSON-RPC method being served. */
  readonly method: string;
  cacheHints: CacheHints | undefined = undefined;
  state: unknown = undefined;
  /** Input requests sent to the client so far (legacy), for the `maxInputRounds` cap. */
  inputRounds = 0;
  /** The last progress value sent, so heartbeats keep progress increasing. */
  lastProgress: number | undefined = undefined;
  #channel: ResponseChannel | undefined;
  #notify: McpNotify | undefined;
  // AbortControllers are costly on the hot path: `signal` is built when a handler first reads it.
  #controller: AbortController | undefined;
  #aborted = false;
  #abortReason: unknown;

  constructor(init: ContextInit) {
    super(init);
    this.era = init.era;
    this.method = init.method;
  }

  /** The response stream of this request (built on first use). */
  get channel(): ResponseChannel {
    return (this.#channel ??= this.init.openChannel());
  }

  /** True once something needed the response stream. */
  get hasChannel(): boolean {
    return this.#channel !== undefined;
  }

  get signal(): AbortSignal {
    if (!this.#controller) {
      this.#controller = new AbortController();
      if (this.#aborted) this.#controller.abort(this.#abortReason);
      else if (this.init.cancelOnDisconnect) this.channel.onClose(this);
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

  progress(progress: number, total?: number, message?: string): Promise<void> {
    if (this.progressToken === undefined || this.#aborted) return Promise.resolve();
    this.lastProgress = progress;
    const params: JsonObject = { progressToken: this.progressToken, progress };
    if (total !== undefined) params.total = total;
    if (message !== undefined) params.message = message;
    return this.channel.send(notification("notifications/progress", params));
  }

  log(level: LogLevel, data: unknown, logger?: string): Promise<void> {
    if (!this.options.logging || this.#aborted) return Promise.resolve();
    const threshold = this.logLevel;
    // Legacy: no level set means everything; modern: no level in _meta means nothing.
    if (threshold === undefined ? this.era === "modern" : logLevelRank(level) < logLevelRank(threshold)) {
      return Promise.resolve();
    }
    const params: JsonObject = logger === undefined ? { level, data } : { level, logger, data };
    return this.channel.send(notification("notifications/message", params));
  }

  get notify(): McpNotify {
    return (this.#notify ??= createNotify(this));
  }

  /** Sends one notification on this request's stream. */
  sendNotification(method: string, params?: JsonObject): Promise<void> {
    if (this.#aborted) return Promise.resolve();
    return this.channel.send(notification(method, params));
  }

  /** Publishes a change notification to every listening client. */
  publishChange(method: string, params?: JsonObject): Promise<void> {
    return this.init.publisher.publish(method, params);
  }

  requireClientCapability(...names: string[]): void {
    const missing = missingCapabilities(this.clientCapabilities, names);
    if (missing) {
      throw new McpError(
        MISSING_REQUIRED_CLIENT_CAPABILITY,
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
    return this.init.broker.request(this, key, method, params, options?.timeoutMs ?? this.options.inputTimeoutMs);
  }

  notifySession(sessionId: string, method: string, params?: JsonObject): Promise<boolean> {
    return this.init.publisher.notifySession(sessionId, notification(method, params), this.principal);
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
