/** What the lanes share: built once by `defineMcpHandler`, read by every request. */
import type { H3Event } from "h3";
import type { CatalogSource } from "../define/catalog.ts";
import type { MethodHandler } from "../dispatch/call.ts";
import type { LegacyInputBroker } from "../legacy/broker.ts";
import type { LegacySessions } from "../legacy/sessions.ts";
import type { ResolvedOptions } from "../types/options.ts";
import type { LogLevel, ServerCapabilities } from "../protocol/types.ts";
import type { ChangeFeed } from "../context/change-feed.ts";
import type { OriginGate } from "../gate/origin.ts";
import type { McpHooks } from "../types/hooks.ts";
import type { RateLimitHook } from "../auth/rate-limit.ts";
import type { Lifespan } from "./lifespan.ts";
import type { Notifier } from "./notifier.ts";
import type { ListenRegistry } from "../modern/listen-registry.ts";
import type { RequestStateCodec } from "../modern/request-state.ts";
import type { Incidents } from "./incidents.ts";
import type { AuthGate } from "../auth/gate.ts";

export interface Services {
  readonly options: ResolvedOptions;
  readonly catalogs: CatalogSource;
  readonly table: ReadonlyMap<string, MethodHandler>;
  readonly capabilities: ServerCapabilities;
  /** Legacy sessions, or undefined when they are off (legacy requests are then served statelessly). */
  readonly sessions: LegacySessions | undefined;
  /** Answers input requests on legacy sessions with server→client requests. */
  readonly legacyBroker: LegacyInputBroker;
  readonly changes: ChangeFeed;
  /** The bearer-token check, or undefined when the `auth` option is not set. */
  readonly auth: AuthGate | undefined;
  /** The Origin/Host check, with its remembered verdicts. */
  readonly originGate: OriginGate;
  /** What handlers publish through (`notify.*`, `notifySession`). */
  readonly notifier: Notifier;
  /** Instrumentation hooks, or undefined when there are none. */
  readonly hooks: McpHooks | undefined;
  /** What `setup` returned, once it ran. */
  readonly lifespan: Lifespan;
  /** Open `subscriptions/listen` streams. */
  readonly listens: ListenRegistry;
  /** Seals and opens MRTR `requestState`. */
  readonly requestStates: RequestStateCodec;
  /** Counts and reports what cannot be answered to a client; owns promises nobody awaits. */
  readonly incidents: Incidents;
  readonly onLogLevelSet: ((level: LogLevel, event: H3Event) => void | Promise<void>) | undefined;
  /** The `rateLimit` option: asked once per request when set. */
  readonly rateLimit: RateLimitHook | undefined;
}
