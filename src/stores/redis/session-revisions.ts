/**
 * The revision of each copy of a session that {@link RedisSessionStore} handed out or stored: a
 * session's value is its revision, a line break, then its JSON, and `set` saves a copy only while
 * the stored revision is still the one that copy was read at (see `REPLACE` in session-scripts.ts).
 */
import type { SessionData } from "../../types/stores.ts";

/** The revision a session is created with. */
const FIRST_REVISION = 1;

export class SessionRevisions {
  readonly #ofCopy = new WeakMap<SessionData, number>();

  /** The stored value of a new session; the copy is at the first revision from now on. */
  created(session: SessionData): string {
    this.#ofCopy.set(session, FIRST_REVISION);
    return `${FIRST_REVISION}\n${JSON.stringify(session)}`;
  }

  /** A session from its stored value (a string, or a Buffer from a client of yours), with its revision kept. */
  decode(value: unknown): SessionData {
    const text = String(value);
    const newline = text.indexOf("\n");
    const session = JSON.parse(text.slice(newline + 1)) as SessionData;
    if (newline > 0) this.#ofCopy.set(session, Number(text.slice(0, newline)));
    return session;
  }

  /** The revision the copy was read or stored at; undefined for a copy this store never handed out. */
  of(session: SessionData): number | undefined {
    return this.#ofCopy.get(session);
  }

  /** The copy was saved at `revision`. */
  saved(session: SessionData, revision: number): void {
    this.#ofCopy.set(session, revision);
  }
}
