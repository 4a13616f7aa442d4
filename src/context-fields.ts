/**
 * What a request context is built from, and the members it reads straight from there. One context is
 * built per request: reading through instead of copying field by field keeps building it cheap.
 */
import type { H3Event } from "h3";
import type {
  AuthIdentity,
  InputRequestOptions,
  McpEra,
  McpLifespan,
  McpUserContext,
  TraceContext,
} from "./context.ts";
import type { Catalog } from "./dispatch/catalog.ts";
import { requestName, type JsonObject, type JsonRpcId, type JsonRpcNotification } from "./protocol/jsonrpc.ts";
import type { ClientCapabilities, Implementation, LogLevel } from "./protocol/types.ts";
import type { ResolvedOptions } from "./options.ts";
import type { RequestContext } from "./request-context.ts";
import type { ResponseChannel } from "./stream/channel.ts";
import { readUserContext } from "./user-context.ts";

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
  /** Legacy: the `Last-Event-ID` header the request carried. */
  lastEventId?: string;
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

/** The members of a context read straight from what it was built from. */
const READ_THROUGH = [
  "protocolVersion",
  "requestId",
  "meta",
  "options",
  "sessionId",
  "lastEventId",
  "auth",
  "principal",
  "clientInfo",
  "clientCapabilities",
  "logLevel",
  "trace",
  "inputResponses",
  "requestState",
  "lifespan",
] as const;

/** What a context was built from; for the engine only (handlers cannot reach it). */
export let initOf: (context: ContextFields) => ContextInit;

/** The read-through members of a request context. */
export class ContextFields {
  // Private, so that `event.context.mcp` shows handlers its documented members and nothing else.
  #init: ContextInit;
  #user: McpUserContext | undefined | null = null;

  constructor(init: ContextInit) {
    this.#init = init;
  }

  static {
    initOf = (context) => context.#init;
    // Members read straight from `init`, defined here in one loop: the same getter sixteen times
    // over is code every Worker bundle would carry.
    for (const key of READ_THROUGH) {
      Object.defineProperty(ContextFields.prototype, key, {
        get(this: ContextFields) {
          return this.#init[key];
        },
      });
    }
  }

  declare readonly protocolVersion: string;
  declare readonly requestId: JsonRpcId;
  declare readonly meta: JsonObject | undefined;
  declare readonly options: ResolvedOptions;
  declare readonly sessionId: string | undefined;
  declare readonly lastEventId: string | undefined;
  declare readonly auth: AuthIdentity | undefined;
  declare readonly principal: string | undefined;
  declare readonly clientInfo: Implementation | undefined;
  declare readonly clientCapabilities: ClientCapabilities | undefined;
  declare readonly logLevel: LogLevel | undefined;
  declare readonly trace: TraceContext | undefined;
  declare readonly inputResponses: JsonObject | undefined;
  declare readonly requestState: string | undefined;
  declare readonly lifespan: McpLifespan;

  get progressToken(): string | number | undefined {
    const token = this.#init.meta?.progressToken;
    return typeof token === "string" || typeof token === "number" ? token : undefined;
  }

  get name(): string | undefined {
    return requestName(this.#init.method, this.#init.params);
  }

  get user(): McpUserContext | undefined {
    if (this.#user === null) this.#user = readUserContext(this.meta);
    return this.#user;
  }
}

/**
 * Asks the lane's broker for one input (what `elicit`, `sample` and `listRoots` send), waiting at
 * most `options.timeoutMs`, else the handler's `inputTimeoutMs`.
 */
export function askClient(
  context: RequestContext,
  key: string,
  method: string,
  params: JsonObject,
  options: InputRequestOptions | undefined,
): Promise<unknown> {
  const timeoutMs = options?.timeoutMs ?? context.options.inputTimeoutMs;
  return initOf(context).broker.request(context, key, method, params, timeoutMs);
}
