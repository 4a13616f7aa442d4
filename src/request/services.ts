/**
 * What both lanes share: built once by `defineMcpHandler` (engine/engine.ts), read by every request.
 * Each lane adds its own part (`LegacyServices`, `ModernServices`) in its folder.
 */
import type { H3Event } from "h3";
import type { CatalogSource } from "../define/catalog.ts";
import type { MethodTables } from "../dispatch/table.ts";
import type { ResolvedOptions } from "../types/options.ts";
import type { LogLevel, ServerCapabilities } from "../protocol/types.ts";
import type { ChangeFeed } from "../context/change-feed.ts";
import type { OriginGate } from "../gate/origin.ts";
import type { McpHooks } from "../types/hooks.ts";
import type { RateLimitHook } from "../auth/rate-limit.ts";
import type { Lifespan } from "./lifespan.ts";
import type { ChangePublisher } from "../context/change-publisher.ts";
import type { Incidents } from "../http/incidents.ts";
import type { AuthGate } from "../auth/gate.ts";

export interface Services {
  readonly options: ResolvedOptions;
  readonly catalogs: CatalogSource;
  /** Each era's method table: a lane dispatches through its own era's only. */
  readonly tables: MethodTables;
  readonly capabilities: ServerCapabilities;
  readonly changes: ChangeFeed;
  /** The bearer-token check, or undefined when the `auth` option is not set. */
  readonly auth: AuthGate | undefined;
  /** The Origin/Host check, with its remembered verdicts. */
  readonly originGate: OriginGate;
  /** What handlers publish through (`notify.*`, `notifySession`). */
  readonly notifier: ChangePublisher;
  /** Instrumentation hooks, or undefined when there are none. */
  readonly hooks: McpHooks | undefined;
  /** What `setup` returned, once it ran. */
  readonly lifespan: Lifespan;
  /** Counts and reports what cannot be answered to a client; owns promises nobody awaits. */
  readonly incidents: Incidents;
  readonly onLogLevelSet: ((level: LogLevel, event: H3Event) => void | Promise<void>) | undefined;
  /** The `rateLimit` option: asked once per request when set. */
  readonly rateLimit: RateLimitHook | undefined;
  /** `experimental.rateLimitErrors`: a refusal is SEP-3304's `-32023` with `retryAfterMs`. */
  readonly rateLimitErrors: boolean;
}
