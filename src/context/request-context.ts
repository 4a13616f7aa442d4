/**
 * The object behind `event.context.mcp`. One is built per JSON-RPC request; methods live on the
 * prototype, and what differs between eras (how input requests are answered, where change
 * notifications go) is supplied by the lane.
 */
import { positiveOption } from "../protocol/positive-option.ts";
import type { StandardSchemaV1 } from "@standard-schema/spec";
import type {
  ElicitSchema,
  InputRequestOptions,
  McpContext,
  McpNotify,
  NotifySessionOptions,
  SampleOptions,
  SampleResult,
} from "../types/context.ts";
import type { McpEra } from "../types/era.ts";
import { askInput, elicitationInput, rootsInput, samplingInput, type AskClient } from "./input-requests.ts";
import { ContextFields } from "./fields.ts";
import type * as Lane from "./lane.ts";
import { createNotify } from "./notify.ts";
import type { Catalog } from "../define/catalog.ts";
import { readResourceFrom } from "../define/read-resource.ts";
import { notification, type JsonObject } from "../protocol/jsonrpc.ts";
import {
  LOG_LEVELS,
  logLevelRank,
  type CreateMessageParams,
  type ElicitResult,
  type JsonSchema,
  type ListRootsResult,
  type LogLevel,
  type ReadResourceResult,
} from "../protocol/types.ts";
import type { ResponseChannel } from "../stream/channel.ts";
import { missingCapabilities, missingCapabilityError } from "./client-capabilities.ts";

/** How a lane answers the input requests of a handler (see lane.ts). */
export type InputBroker = Lane.InputBroker<RequestContext>;
/** What a lane lends the contexts of its requests (see lane.ts). */
export type ContextLane = Lane.ContextLane<RequestContext>;
/** Everything a context is built from: its data, and what its lane lends it (see lane.ts). */
export type ContextInit = Lane.ContextInit<RequestContext>;

/** What a context was built from; for the engine only (handlers cannot reach it). */
export let initOf: (context: RequestContext) => ContextInit;
/** Gives a context the catalog its request is served from, once that is known; for the engine only. */
export let useCatalog: (context: RequestContext, catalog: Catalog) => void;
/** The catalog a context's request is served from; throws when asked before {@link useCatalog} (a bug). */
export let catalogOf: (context: RequestContext) => Catalog;
/** The response stream of a request (built on first use); for the engine only. */
export let channelOf: (context: RequestContext) => ResponseChannel;
/** True once something needed the response stream. */
export let hasChannel: (context: RequestContext) => boolean;
/** True once the request was cancelled (read without building `signal`). */
export let isAborted: (context: RequestContext) => boolean;
/** Cancels the request: aborts `signal`, and later sends become no-ops. The lanes call it. */
export let abortRequest: (context: RequestContext, reason?: unknown) => void;
/** Calls `listener` once the request is cancelled ({@link abortRequest}), building neither `signal` nor the stream. */
export let whenAborted: (context: RequestContext, listener: (reason: unknown) => void) => void;
/** Counts one more input request sent to the client (legacy), for the `maxInputRounds` cap; gives the new count. */
export let countInputRound: (context: RequestContext) => number;
/** The last progress value sent, so heartbeats keep progress increasing. */
export let lastProgressOf: (context: RequestContext) => number | undefined;
/**
 * Starts the request's progress where an earlier round of it left off (modern MRTR: the handler
 * runs again on the retry, and what it reports up to that value was sent already).
 */
export let resumeProgress: (context: RequestContext, last: number) => void;

/**
 * `event.context.mcp`. Its public members are exactly those of {@link McpContext}; what only the
 * engine uses lives in #private fields behind the module-level accessors above, out of handlers'
 * reach (a handler enumerating the object, or its prototypes, finds nothing undocumented).
 */
export class RequestContext extends ContextFields implements McpContext {
  readonly era: McpEra;
  /** The JSON-RPC method being served. */
  readonly method: string;
  #inputRounds = 0;
  #lastProgress: number | undefined = undefined;
  #channel: ResponseChannel | undefined;
  #notify: McpNotify | undefined;
  // AbortControllers are costly on the hot path: `signal` is built when a handler first reads it.
  #controller: AbortController | undefined;
  #aborted = false;
  #abortReason: unknown;
  #abortListeners: ((reason: unknown) => void)[] | undefined;
  #init: ContextInit;
  #catalog: Catalog | undefined;

  constructor(init: ContextInit) {
    super(init);
    this.#init = init;
    this.era = init.wire.era;
    this.method = init.method;
  }

  static {
    initOf = (context) => context.#init;
    useCatalog = (context, catalog) => {
      context.#catalog = catalog;
    };
    catalogOf = (context) => {
      if (!context.#catalog) throw new Error("The request's catalog is not known yet");
      return context.#catalog;
    };
    channelOf = (context) => (context.#channel ??= context.#init.lane.openChannel(context));
    hasChannel = (context) => context.#channel !== undefined;
    isAborted = (context) => context.#aborted;
    abortRequest = (context, reason) => {
      if (context.#aborted) return;
      context.#aborted = true;
      context.#abortReason = reason;
      context.#controller?.abort(reason);
      const listeners = context.#abortListeners;
      context.#abortListeners = undefined;
      if (listeners) for (const listener of listeners) listener(reason);
    };
    whenAborted = (context, listener) => {
      if (context.#aborted) listener(context.#abortReason);
      else (context.#abortListeners ??= []).push(listener);
    };
    countInputRound = (context) => ++context.#inputRounds;
    lastProgressOf = (context) => context.#lastProgress;
    resumeProgress = (context, last) => void (context.#lastProgress = last);
  }

  get signal(): AbortSignal {
    if (!this.#controller) {
      this.#controller = new AbortController();
      if (this.#aborted) this.#controller.abort(this.#abortReason);
      // A disconnect cancels the request (built only when a handler reads `signal`).
      else if (initOf(this).lane.cancelOnDisconnect)
        channelOf(this).onClose({ abort: (reason) => abortRequest(this, reason) });
    }
    return this.#controller.signal;
  }

  get transportSignal(): AbortSignal {
    return channelOf(this).transportSignal;
  }

  progress(progress: number, total?: number, message?: string): Promise<void> {
    if (this.progressToken === undefined || this.#aborted) return Promise.resolve();
    // Progress for one token must increase with each notification (the spec's rule): a value not
    // above the last one sent — in this run, or in an earlier MRTR round of the same request whose
    // steps the handler's new run reports again — is not sent.
    const last = this.#lastProgress;
    if (last !== undefined && !(progress > last)) return Promise.resolve();
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
    return (this.#notify ??= createNotify(
      (method, params) => sendNotification(this, method, params),
      this.#init.publisher,
    ));
  }

  requireClientCapability(...names: string[]): void {
    const missing = missingCapabilities(this.clientCapabilities, names);
    if (missing) throw missingCapabilityError(this.era, names, missing);
  }

  readResource(uri: string): Promise<ReadResourceResult> {
    // The caller's scopes apply as in `resources/read`: a handler cannot read for them what they may not.
    // They are read from the checked grant, never from `auth`, which the handler may have changed.
    const granted = initOf(this).caller?.identity.scopes;
    return readResourceFrom(catalogOf(this), initOf(this).event, uri, this.era, granted);
  }

  elicit(
    key: string,
    message: string,
    target?: ElicitSchema | { url: string },
    options?: InputRequestOptions,
  ): Promise<ElicitResult<never>> {
    const elicitation = () => elicitationInput(this.era, message, target);
    return askInput(this, askClient, key, elicitation, options) as Promise<ElicitResult<never>>;
  }

  elicitUrl(key: string, message: string, url: string, options?: InputRequestOptions): Promise<ElicitResult<never>> {
    return this.elicit(key, message, { url }, options);
  }

  sample(
    key: string,
    params: CreateMessageParams | string,
    options?: SampleOptions<StandardSchemaV1 | JsonSchema | undefined>,
  ): Promise<SampleResult<never>> {
    const sampling = () => samplingInput(params, options?.schema, this.options.maxJsonDepth);
    return askInput(this, askClient, key, sampling, options) as Promise<SampleResult<never>>;
  }

  listRoots(key: string, options?: InputRequestOptions): Promise<ListRootsResult> {
    return askInput(this, askClient, key, rootsInput, options);
  }

  notifySession(
    sessionId: string,
    method: string,
    params?: JsonObject,
    options?: NotifySessionOptions,
  ): Promise<boolean> {
    const scope = { principal: this.principal, forTool: options?.forTool };
    return initOf(this).publisher.notifySession(sessionId, notification(method, params), scope);
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

/** Asks the lane's broker for one input, waiting at most `options.timeoutMs`, else the handler's `inputTimeoutMs`. */
const askClient: AskClient<RequestContext> = (context, key, method, params, options) => {
  // Checked as every numeric option is: a NaN wait (`Number(env.X)` unset) timed the request out at once.
  const timeoutMs = positiveOption(`mcp-h3: ${method}: timeoutMs`, options?.timeoutMs, {
    fallback: context.options.inputTimeoutMs,
  });
  return initOf(context).lane.broker.request(context, key, method, params, timeoutMs);
};

// One small function per level on the prototype: nothing per request, and little code to ship.
for (const level of LOG_LEVELS) {
  RequestContext.prototype[level] = function (this: RequestContext, data: unknown, logger?: string) {
    return this.log(level, data, logger);
  };
}
