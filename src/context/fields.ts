/**
 * What a request context is built from, and the members it reads straight from there. One context is
 * built per request: reading through instead of copying field by field keeps building it cheap.
 */
import type { AuthIdentity } from "../types/auth.ts";
import type { McpUserContext, TraceContext } from "../types/context.ts";
import type { McpEra } from "../types/era.ts";
import type { McpLifespan } from "../types/lifespan.ts";
import { requestName, type JsonObject, type JsonRpcId } from "../protocol/jsonrpc.ts";
import type { ClientCapabilities, Implementation, LogLevel } from "../protocol/types.ts";
import type { ResolvedOptions } from "../types/options.ts";
import { readUserContext } from "./user-context.ts";

/** The data a context is built from: what its members read through to. */
export interface ContextData {
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
  /** Who sent the request (auth on). */
  caller?: ContextCaller;
  principal?: string;
}

/**
 * The caller as a context reads it: the checked grant every decision of the request reads, and the
 * copy its handlers see (made on first read, so handlers that never look cost nothing).
 */
export interface ContextCaller {
  readonly identity: { readonly scopes: readonly string[] };
  copyIdentity(): AuthIdentity;
}

/** The members of a context read straight from what it was built from. */
const READ_THROUGH = [
  "protocolVersion",
  "requestId",
  "meta",
  "options",
  "sessionId",
  "lastEventId",
  "principal",
  "clientInfo",
  "clientCapabilities",
  "logLevel",
  "trace",
  "inputResponses",
  "requestState",
  "lifespan",
] as const;

/** The read-through members of a request context. */
export class ContextFields {
  // Private, so that `event.context.mcp` shows handlers its documented members and nothing else.
  #init: ContextData;
  #user: McpUserContext | undefined | null = null;
  /** The handlers' own copy of the identity, made on first read (null: not yet). */
  #auth: AuthIdentity | undefined | null = null;

  constructor(init: ContextData) {
    this.#init = init;
  }

  static {
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

  /** This request's own copy of the identity: what a handler does to it stays in this request. */
  get auth(): AuthIdentity | undefined {
    if (this.#auth === null) this.#auth = this.#init.caller?.copyIdentity();
    return this.#auth;
  }

  get user(): McpUserContext | undefined {
    if (this.#user === null) this.#user = readUserContext(this.meta);
    return this.#user;
  }
}
