/** The options of {@link RedisSessionStore} (see session-store.ts). */
import type { RedisConnectionOptions } from "./connection.ts";

/** Options of {@link RedisSessionStore}. */
export interface RedisSessionStoreOptions extends RedisConnectionOptions {
  /** Idle time after which a session ends (default 30 minutes, as in memory). */
  ttlMs?: number;
  /** Most sessions kept across all instances (default 10,000). */
  maxSessions?: number;
  /**
   * Most sessions kept across all instances that never sent `notifications/initialized` (default
   * 1,000, at most `maxSessions`); they are ended first to make room.
   */
  maxPendingSessions?: number;
  /**
   * How long a new or just-used session is safe from being ended to make room (default 2,000 ms,
   * as in memory): a pending session for this long after its `initialize` (a request before
   * `notifications/initialized` does not extend it), an initialized one for this long after its
   * last request (to within the second the order of use is exact to). With nothing else to end, a
   * new `initialize` at the cap gets 503 with `Retry-After`. Judged on the instances' own clocks,
   * which must agree to well within it. 0 for none.
   */
  handshakeGraceMs?: number;
}
