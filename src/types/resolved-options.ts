/** Options after defaults are applied: what `event.context.mcp.options` shows. */
import type { Implementation } from "../protocol/types.ts";
import type { CacheHints } from "./cache-hints.ts";

/** Options after defaults are applied; what `event.context.mcp.options` shows. */
export interface ResolvedOptions {
  readonly serverInfo: Implementation;
  readonly instructions: string | undefined;
  readonly logging: boolean;
  readonly sessions:
    | {
        readonly ttlMs: number;
        readonly maxSessions: number;
        readonly maxPendingSessions: number;
        readonly handshakeGraceMs: number;
        readonly maxSessionsPerPrincipal: number;
        readonly maxSubscriptions: number;
        readonly maxStreamsPerSession: number;
        readonly replayWindowMs: number;
      }
    | false;
  readonly allowedOrigins: readonly string[] | "*";
  readonly allowedHosts: readonly string[] | "*";
  readonly maxBodyBytes: number;
  readonly maxJsonDepth: number;
  readonly maxUriLength: number;
  /** Most resource URIs a legacy session or one listen stream holds (`sessions.maxSubscriptions` is the same number). */
  readonly maxSubscriptions: number;
  readonly maxStreamBufferBytes: number;
  readonly keepAliveMs: number;
  readonly retryMs: number;
  readonly inputTimeoutMs: number;
  readonly maxInputRounds: number;
  readonly progressHeartbeatMs: number;
  readonly cacheHints: Readonly<Partial<Record<string, CacheHints>>>;
  readonly maxListens: number;
  readonly maxListensPerPrincipal: number;
}
