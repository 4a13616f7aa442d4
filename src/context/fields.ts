/**
 * What a request context is built from, the members it reads straight from there, and the data
 * members a handler sets (`state`, `cacheHints`; the modern lane starts `state` as its `requestState` held). One context is built per request: reading through
 * instead of copying field by field keeps building it cheap.
 */
import type { AuthIdentity } from "../types/auth.ts";
import type { CacheHints } from "../types/cache-hints.ts";
import type { McpTask, McpUserContext, TraceContext } from "../types/context.ts";
import type { McpEra } from "../types/era.ts";
import type { McpLifespan } from "../types/lifespan.ts";
import { requestName, type JsonObject, type JsonRpcId } from "../protocol/jsonrpc.ts";
import type { ClientCapabilities, Implementation, LogLevel } from "../protocol/types.ts";
import type { ResolvedOptions } from "../types/options.ts";
import { readUserContext } from "./user-context.ts";

/**
 * What the request's wire says of it, supplied by its lane: legacy reads it from the session and
 * the headers, modern from the `_meta` envelope and the params.
 */
export interface WireFacts {
  era: McpEra;
  protocolVersion: string;
  meta: JsonObject | undefined;
  clientInfo?: Implementation;
  clientCapabilities?: ClientCapabilities;
  logLevel?: LogLevel;
  /** Legacy: the session's id. */
  sessionId?: string;
  /** Legacy: the `Last-Event-ID` header the request carried. */
  lastEventId?: string;
  /** Modern: the trace context of `_meta`. */
  trace?: TraceContext;
  /** Modern: the client's answers to earlier input requests. */
  inputResponses?: JsonObject;
  /** Modern: the `requestState` the client sent back. */
  requestState?: string;
}

/** The data a context is built from: what its members read through to. */
export interface ContextData {
  /** What only the request's era knows. */
  wire: WireFacts;
  requestId: JsonRpcId;
  method: string;
  /** The request's params (for `name`). */
  params: JsonObject;
  options: ResolvedOptions;
  /** What `setup` returned. */
  lifespan: unknown;
  /** Who sent the request (auth on). */
  caller?: ContextCaller;
  principal?: string;
  /** Set when the call runs as a task (an extension's detached run). */
  task?: McpTask;
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
const READ_THROUGH = ["requestId", "options", "principal", "lifespan", "task"] as const;
/** The members of a context read straight from its wire's facts. */
const READ_FROM_WIRE = [
  "protocolVersion",
  "meta",
  "sessionId",
  "lastEventId",
  "clientInfo",
  "clientCapabilities",
  "logLevel",
  "trace",
  "inputResponses",
  "requestState",
] as const;

/** The data members of a request context: read through, derived on first read, or set by its handler. */
export class ContextFields {
  state: unknown;
  // Private, so that `event.context.mcp` shows handlers its documented members and nothing else.
  #init: ContextData;
  #user: McpUserContext | undefined | null = null;
  /** The handlers' own copy of the identity, made on first read (null: not yet). */
  #auth: AuthIdentity | undefined | null = null;
  // null until first read: most requests never touch their cache hints.
  #cacheHints: CacheHints | undefined | null = null;

  constructor(init: ContextData) {
    this.#init = init;
  }

  static {
    // Members read straight from `init`, defined here in two loops: the same getter fourteen times
    // over is code every Worker bundle would carry.
    for (const key of READ_THROUGH) {
      Object.defineProperty(ContextFields.prototype, key, {
        get(this: ContextFields) {
          return this.#init[key];
        },
      });
    }
    for (const key of READ_FROM_WIRE) {
      Object.defineProperty(ContextFields.prototype, key, {
        get(this: ContextFields) {
          return this.#init.wire[key];
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
  declare readonly task: McpTask | undefined;

  get progressToken(): string | number | undefined {
    const token = this.#init.wire.meta?.progressToken;
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

  /**
   * Modern: starts empty, so `mcp.cacheHints.ttlMs = 60_000` works; an empty object means "not set"
   * (the definition's hints, then the handler option, apply). Legacy: `undefined`, the era has no
   * cache hints.
   */
  get cacheHints(): CacheHints | undefined {
    if (this.#cacheHints === null) this.#cacheHints = this.#init.wire.era === "modern" ? {} : undefined;
    return this.#cacheHints;
  }

  set cacheHints(hints: CacheHints | undefined) {
    this.#cacheHints = hints;
  }
}
