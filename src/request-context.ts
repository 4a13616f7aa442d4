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
import { ContextFields, initOf, type ContextInit } from "./context-fields.ts";
import { readResourceFrom } from "./dispatch/resources.ts";
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
import { missingCapabilities, missingCapabilityError } from "./client-capabilities.ts";

/** The response stream of a request (built on first use); for the engine only. */
export let channelOf: (context: RequestContext) => ResponseChannel;
/** True once something needed the response stream. */
export let hasChannel: (context: RequestContext) => boolean;
/** True once the request was cancelled (read without building `signal`). */
export let isAborted: (context: RequestContext) => boolean;
/** Cancels the request: aborts `signal`, and later sends become no-ops. The lanes call it. */
export let abortRequest: (context: RequestContext, reason?: unknown) => void;
/** Counts one more input request sent to the client (legacy), for the `maxInputRounds` cap; gives the new count. */
export let countInputRound: (context: RequestContext) => number;
/** The last progress value sent, so heartbeats keep progress increasing. */
export let lastProgressOf: (context: RequestContext) => number | undefined;

/**
 * `event.context.mcp`. Its public members are exactly those of {@link McpContext}; what only the
 * engine uses lives in #private fields behind the module-level accessors above, out of handlers'
 * reach (a handler enumerating the object, or its prototypes, finds nothing undocumented).
 */
export class RequestContext extends ContextFields implements McpContext {
  readonly era: McpEra;
  /** The JSON-RPC method being served. */
  readonly method: string;
  state: unknown = undefined;
  // null until first read: most requests never touch their cache hints.
  #cacheHints: CacheHints | undefined | null = null;
  #inputRounds = 0;
  #lastProgress: number | undefined = undefined;
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

  static {
    channelOf = (context) => (context.#channel ??= initOf(context).openChannel());
    hasChannel = (context) => context.#channel !== undefined;
    isAborted = (context) => context.#aborted;
    abortRequest = (context, reason) => {
      if (context.#aborted) return;
      context.#aborted = true;
      context.#abortReason = reason;
      context.#controller?.abort(reason);
    };
    countInputRound = (context) => ++context.#inputRounds;
    lastProgressOf = (context) => context.#lastProgress;
  }

  /**
   * Modern: starts empty, so `mcp.cacheHints.ttlMs = 60_000` works; an empty object means "not set"
   * (the definition's hints, then the handler option, apply). Legacy: `undefined`, the era has no
   * cache hints.
   */
  get cacheHints(): CacheHints | undefined {
    if (this.#cacheHints === null) this.#cacheHints = this.era === "modern" ? {} : undefined;
    return this.#cacheHints;
  }

  set cacheHints(hints: CacheHints | undefined) {
    this.#cacheHints = hints;
  }

  get signal(): AbortSignal {
    if (!this.#controller) {
      this.#controller = new AbortController();
      if (this.#aborted) this.#controller.abort(this.#abortReason);
      // A disconnect cancels the request (built only when a handler reads `signal`).
      else if (initOf(this).cancelOnDisconnect)
        channelOf(this).onClose({ abort: (reason) => abortRequest(this, reason) });
    }
    return this.#controller.signal;
  }

  get transportSignal(): AbortSignal {
    return channelOf(this).transportSignal;
  }

  progress(progress: number, total?: number, message?: string): Promise<void> {
    if (this.progressToken === undefined || this.#aborted) return Promise.resolve();
    this.#lastProgress = progress;
    const params: JsonObject = { progressToken: this.progressToken, progress };
    if (total !== undefined) params.total = total;
    if (message !== undefined) params.message = message;
    return channelOf(this).send(notification("notifications/progress", params));
  }

  log(level: LogLevel, data: unknown, logger?: string): Promise<void> {
    if (!this.options.logging || this.#aborted) return Promise.resolve();
    const threshold = this.logLevel;
    // Legacy: no level set means everything; modern: no level in _meta means nothing.
    if (threshold === undefined ? this.era === "modern" : logLevelRank(level) < logLevelRank(threshold)) {
      return Promise.resolve();
    }
    const params: JsonObject = logger === undefined ? { level, data } : { level, logger, data };
    return channelOf(this).send(notification("notifications/message", params));
  }

  get notify(): McpNotify {
    return (this.#notify ??= createNotify(this));
  }

  requireClientCapability(...names: string[]): void {
    const missing = missingCapabilities(this.clientCapabilities, names);
    if (missing) throw missingCapabilityError(this.era, names, missing);
  }

  readResource(uri: string): Promise<ReadResourceResult> {
    return readResourceFrom(initOf(this).catalog, initOf(this).event, uri, this.era);
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

  notifySession(sessionId: string, method: string, params?: JsonObject): Promise<boolean> {
    return initOf(this).publisher.notifySession(sessionId, notification(method, params), this.principal);
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
    if (this.era === "legacy") channelOf(this).closeConnection();
  }
}

/** Sends one notification on this request's stream (a no-op once cancelled). */
function sendNotification(context: RequestContext, method: string, params?: JsonObject): Promise<void> {
  if (isAborted(context)) return Promise.resolve();
  return channelOf(context).send(notification(method, params));
}

function createNotify(context: RequestContext): McpNotify {
  // Change notifications go to every listening client, through the lane's publisher.
  const publisher = initOf(context).publisher;
  const notify = ((method: string, params?: JsonObject) => sendNotification(context, method, params)) as McpNotify;
  notify.toolsChanged = () => publisher.publish("notifications/tools/list_changed");
  notify.promptsChanged = () => publisher.publish("notifications/prompts/list_changed");
  notify.resourcesChanged = () => publisher.publish("notifications/resources/list_changed");
  notify.resourceUpdated = (uri: string) => publisher.publish("notifications/resources/updated", { uri });
  return notify;
}

// One small function per level on the prototype: nothing per request, and little code to ship.
for (const level of LOG_LEVELS) {
  RequestContext.prototype[level] = function (this: RequestContext, data: unknown, logger?: string) {
    return this.log(level, data, logger);
  };
}
