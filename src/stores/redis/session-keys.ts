/**
 * The Redis keys of {@link RedisSessionStore}'s sessions, under the connection's prefix: one key per
 * session, and three sorted sets over them (see session-store.ts and session-room.ts for how they
 * are kept in step).
 */
import type { RoomKeys } from "./session-room.ts";

export class SessionKeys implements RoomKeys {
  readonly #prefix: string;
  /** All sessions, by last use (exact to `INDEX_TOUCH_MS`, see index-touches.ts). */
  readonly index: string;
  /** The sessions that never sent `notifications/initialized`, by last use (also in {@link index}). */
  readonly pending: string;
  /** The same pending sessions by the time of their `initialize`: the start of their handshake grace. */
  readonly pendingSince: string;

  constructor(prefix: string) {
    this.#prefix = prefix;
    this.index = `${prefix}sessions`;
    this.pending = `${prefix}sessions:pending`;
    this.pendingSince = `${prefix}sessions:pending-since`;
  }

  /** The key of a session. */
  session(id: string): string {
    return `${this.#prefix}session:${id}`;
  }
}
