/**
 * The Redis keys of {@link RedisSessionStore}'s sessions, under the connection's prefix: a session's
 * record and its subscription set share its slot (`{session:<id>}`, as its event logs do, see
 * slot-keys.ts), and the three sorted sets over all sessions share another (`{sessions}`). See
 * session-store.ts and session-room.ts for how the two slots are kept in step.
 */
import type { RoomKeys } from "./session-room.ts";
import { slotTag } from "./slot-keys.ts";

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
    this.index = `${prefix}{sessions}`;
    this.pending = `${prefix}{sessions}:pending`;
    this.pendingSince = `${prefix}{sessions}:pending-since`;
  }

  /** The key of a session's record. */
  session(id: string): string {
    return `${this.#prefix}${slotTag("session", id)}`;
  }

  /** The key of a session's `resources/subscribe` URIs (see subscriptions.ts). */
  subscriptions(id: string): string {
    return `${this.#prefix}${slotTag("session", id)}:subscriptions`;
  }
}
