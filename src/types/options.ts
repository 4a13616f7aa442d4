/** Options of `defineMcpHandler`, and their resolved form. */
import type { H3Event } from "h3";
import type {
  ToolDefinition,
  ResourceDefinition,
  ResourceTemplateDefinition,
  PromptDefinition,
} from "./definitions.ts";
import type { LogLevel } from "../protocol/types.ts";
import type { CacheableMethodName } from "../protocol/methods.ts";
import type { CacheHints } from "./cache-hints.ts";
import type { McpLifespan } from "./lifespan.ts";
import type { McpHooks } from "./hooks.ts";
import type { EventStore, SessionStore, Bus } from "./stores.ts";
import type { IncidentKind } from "./incidents.ts";
import type { AuthOptions, RateLimitDecision } from "./auth.ts";
import type { McpExtension } from "./extensions.ts";

// Kept apart so that `McpContext` (which shows them) does not import the options it is given by.
export type { ResolvedOptions } from "./resolved-options.ts";

/** A list given as an array, or computed per request. */
export type PerRequest<T> = T[] | ((event: H3Event) => T[] | Promise<T[]>);

/** Legacy session settings. */
export interface SessionOptions {
  /** Where session data lives (default: in memory). */
  store?: SessionStore;
  /** Idle time after which a session ends (default 30 minutes). */
  ttlMs?: number;
  /**
   * Most sessions kept at once (default 10,000). To make room for a new one, an idle session (no open
   * stream, no call in flight) is ended, least recently used first; when every session is live, a new
   * `initialize` gets 503 with `Retry-After` and nobody's session is ended.
   */
  maxSessions?: number;
  /**
   * Most sessions that have not yet sent `notifications/initialized` (default 1,000). Past it the
   * oldest of them is ended first, so a burst of anonymous `initialize` requests cannot push out
   * sessions in use.
   */
  maxPendingSessions?: number;
  /**
   * How long a session is safe from being ended to make room (default 2,000 ms): a pending one for
   * this long after its `initialize`, so that concurrent clients at the cap do not end each other's
   * handshakes; an initialized one for this long after its last request, so that a client is not cut
   * off between its handshake and its first call. When nothing else may make room, `initialize`
   * gets 503 with `Retry-After`.
   */
  handshakeGraceMs?: number;
  /**
   * With auth on, most sessions one principal may hold at once (default a tenth of `maxSessions`:
   * 1,000), so one caller cannot take every place. Past it `initialize` gets 429 and nothing is
   * ended; a place comes back when one of the principal's sessions ends (DELETE, idle time,
   * eviction). Counted by the store when it implements `SessionStore.reservePrincipal`
   * (`RedisSessionStore` does: one count across every instance sharing it), else in each process
   * (exact with the memory store).
   */
  maxSessionsPerPrincipal?: number;
  /**
   * Most `resources/subscribe` URIs one session may hold; past it `-32602`. The earlier name of the
   * top-level {@link McpHandlerOptions.maxSubscriptions}, which wins when both are given; given
   * alone, it caps listen streams too.
   */
  maxSubscriptions?: number;
  /**
   * Most streams whose events one session keeps for `Last-Event-ID` resumption (default 64); past
   * it the oldest finished stream's events are forgotten.
   */
  maxStreamsPerSession?: number;
  /**
   * How long the events of a finished stream stay replayable with `Last-Event-ID` (default 5
   * minutes); then they are forgotten.
   */
  replayWindowMs?: number;
}

/** Options of {@link defineMcpHandler}. */
export interface McpHandlerOptions {
  /**
   * Builds what every handler shares (a database pool, a client): run once, lazily, on the first
   * request, so it also works on edge runtimes; its result is `event.context.mcp.lifespan`.
   */
  setup?: () => McpLifespan | Promise<McpLifespan>;
  /** Releases what `setup` built; called by `handler.close()` (wire it to your host's shutdown). */
  close?: (lifespan: McpLifespan) => void | Promise<void>;
  /** Instrumentation around every MCP request; see also `mcp-h3/otel`. */
  hooks?: McpHooks | McpHooks[];
  /**
   * Asked once per request, after the auth gate and before anything else: `principal` is the
   * caller's with auth on, undefined without (key by the client's address then). `{ ok: false,
   * retryAfterSeconds }` answers 429 with `Retry-After`. A hook that throws lets the request through
   * and is counted as a `callback_failure` incident.
   *
   * @example
   * const bucket = createTokenBucket({ capacity: 60, refillPerSecond: 1, maxKeys: 10_000 });
   * defineMcpHandler({ name: "app", version: "1.0.0", auth, rateLimit: (_event, principal) => bucket.take(principal ?? "anonymous") });
   */
  rateLimit?: (event: H3Event, principal: string | undefined) => RateLimitDecision | Promise<RateLimitDecision>;
  /**
   * Candidates of the next specification release (2026-12-15), each off until named here, shaped
   * after its proposal's current text and liable to change with it (docs: "What comes next").
   */
  experimental?: {
    /**
     * SEP-3304 (draft): a request the `rateLimit` option refuses gets the standard `-32023`
     * "RateLimited" error with `data: { retryAfterMs }` (and still HTTP 429 with `Retry-After`),
     * rather than `-32000` with `retryAfterSeconds`.
     */
    rateLimitErrors?: boolean;
  };
  /** `serverInfo.name`. */
  name: string;
  /** `serverInfo.version`. */
  version: string;
  title?: string;
  /** Shown to clients at initialize / discover. */
  instructions?: string;
  tools?: PerRequest<ToolDefinition>;
  resources?: PerRequest<ResourceDefinition | ResourceTemplateDefinition>;
  prompts?: PerRequest<PromptDefinition>;
  /** Declares the logging capability; without it `log()` is a no-op and `logging/setLevel` is not served. */
  logging?: boolean;
  /** Called when a legacy session sets its level; implies `logging: true`. */
  onLogLevelSet?: (level: LogLevel, event: H3Event) => void | Promise<void>;
  /** Legacy sessions; `false` turns the legacy session era off (GET and DELETE get 405). */
  sessions?: SessionOptions | false;
  /** Event log for `Last-Event-ID` resumption (default: in memory). */
  events?: EventStore;
  /** Publish/subscribe for change notifications across instances (default: in memory). */
  bus?: Bus;
  /**
   * Optional parts to plug in (see {@link McpExtension}), besides those the stores bring: e.g.
   * `sessionRouting` from `mcp-h3/shared` for a store and bus of your own that instances share.
   */
  extensions?: readonly McpExtension[];
  /**
   * Origins allowed to call the endpoint. Default: only loopback origins (`localhost`, `127.0.0.1`, `[::1]`).
   * `"*"` allows any. Also read from `MCP_ALLOWED_ORIGINS` (comma-separated).
   */
  allowedOrigins?: string[] | "*";
  /**
   * Host names (with or without port) allowed in the `Host` header. Default: loopback hosts only.
   * `"*"` allows any. Also read from `MCP_ALLOWED_HOSTS` (comma-separated).
   */
  allowedHosts?: string[] | "*";
  /** Largest request body read, in bytes (default 4 MiB); larger bodies get 413 unread. */
  maxBodyBytes?: number;
  /**
   * Deepest nesting of objects and arrays in a request body (default 64 levels, the whole JSON-RPC
   * message counted); a deeper body gets 400 with `-32602` before anything walks it.
   */
  maxJsonDepth?: number;
  /**
   * Longest URI accepted in `resources/read`, `resources/subscribe`, a listen's `resourceSubscriptions`
   * and completions (default 16,384 characters); a longer one gets `-32602` naming `maxUriLength`.
   */
  maxUriLength?: number;
  /**
   * Most resource URIs one subscriber holds (default 1,000): a legacy session's `resources/subscribe`
   * URIs, and the `resourceSubscriptions` of one `subscriptions/listen` stream (a URI named twice
   * counts once). Past it, `resources/subscribe` or the listen gets `-32602` naming the limit.
   * `sessions.maxSubscriptions`, its earlier name, is still read when this is not given.
   *
   * @example
   * defineMcpHandler({ name: "app", version: "1.0.0", resources, maxSubscriptions: 200 });
   */
  maxSubscriptions?: number;
  /**
   * Most bytes an SSE stream may hold for a client that does not read (default 1 MiB); past it the
   * connection is closed (a legacy client resumes from the event log with `Last-Event-ID`).
   */
  maxStreamBufferBytes?: number;
  /**
   * Called for what happens outside any request, so cannot be answered to a client: a background
   * task that failed, a client that disconnected mid-body. Default: failures are written to
   * `console.warn`, disconnects only counted. Counts are in `handler.incidents`.
   */
  onIncident?: (kind: IncidentKind, error?: unknown) => void;
  /** Interval of SSE keep-alive comments (default 8 s, under Bun's 10 s idle cut). */
  keepAliveMs?: number;
  /** SSE `retry:` advised to legacy clients for reconnection (default 1000 ms). */
  retryMs?: number;
  /** Default wait for a client's answer to a server→client request (default 10 minutes). */
  inputTimeoutMs?: number;
  /**
   * Most input rounds one call may take (default 8): server→client requests on a legacy session,
   * `input_required` round trips on the modern era. Past it the call fails with a clear error.
   */
  maxInputRounds?: number;
  /**
   * Legacy: while a server→client request waits for its answer, a call with a progress token sends a
   * progress heartbeat this often (default 5 s), so clients that reset their timeout on progress keep waiting.
   */
  progressHeartbeatMs?: number;
  /**
   * Modern multi round-trip requests: the secret `requestState` is sealed with and its lifetime (default
   * 10 min). The state is encrypted and authenticated (AES-256-GCM, a key derived from the secret with
   * HKDF): the client carries it but cannot read or change it.
   * `secret` (≥ 32 bytes) must be the same on every instance that serves the URL, or a retry that
   * reaches another instance fails; a list rotates keys: the first seals, any opens. Without it,
   * `MCP_REQUEST_STATE_SECRET` (comma-separated for several) is read on the first such request; without
   * either, each instance draws a random key and warns once.
   */
  requestState?: { secret?: string | Uint8Array | readonly (string | Uint8Array)[]; ttlMs?: number };
  /** Modern cache hints per cacheable method (`tools/list`, `resources/read`, …); default `0` / `"private"`. */
  cacheHints?: Partial<Record<CacheableMethod, CacheHints>>;
  /** Most `subscriptions/listen` streams open at once in this process (default 1024). */
  maxListens?: number;
  /**
   * With auth on, most `subscriptions/listen` streams one principal may hold open at once in this
   * process (default a tenth of `maxListens`: 102); past it a listen gets `-32603` like one over
   * `maxListens`. Counted per instance, even with shared stores: a listen is a connection one
   * instance holds, so N instances let a principal hold N times this.
   */
  maxListensPerPrincipal?: number;
  /**
   * Bearer-token authorization for every request of both eras (401/403 with `WWW-Authenticate`);
   * sessions, `requestState` and `notifySession` are then bound to the caller's principal.
   */
  auth?: AuthOptions;
}

/**
 * Methods whose modern results carry cache hints: those whose descriptor says `cacheable`
 * (`server/discover`, `tools/list`, `prompts/list`, `resources/list`, `resources/templates/list`,
 * `resources/read`).
 */
export type CacheableMethod = CacheableMethodName;
