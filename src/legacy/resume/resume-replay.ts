/**
 * The replay of a resumption, read inside the stream's queue (so events sent meanwhile are neither
 * lost nor doubled). The channel's `resume` never rejects, so what the read found is kept here for
 * the caller to look at afterwards.
 */
import type { StoredEvent } from "../../types/stores.ts";
import type { LegacySessions } from "../state/sessions.ts";
import { stored } from "../state/store-failure.ts";

/** The events after the Last-Event-ID are no longer all kept (trimmed, or the stream dropped). */
class ReplayGone extends Error {}

export class ResumeReplay {
  /** True when the events after the id were no longer all kept: the client gets 400, nothing was written. */
  gone = false;
  /** The events written, once read. */
  events: StoredEvent[] | undefined;
  readonly #sessions: LegacySessions;
  readonly #sessionId: string;
  readonly #lastEventId: string;

  constructor(sessions: LegacySessions, sessionId: string, lastEventId: string) {
    this.#sessions = sessions;
    this.#sessionId = sessionId;
    this.#lastEventId = lastEventId;
  }

  /** For `ResponseChannel.resume`: the events after the id; throws (the resume writes nothing) when they are gone. */
  readonly read = async (): Promise<StoredEvent[]> => {
    const found = await stored(() => this.#sessions.events.replayAfter(this.#sessionId, this.#lastEventId));
    if (!found || found.gap) {
      this.gone = true;
      throw new ReplayGone("The events after the Last-Event-ID are no longer all kept");
    }
    return (this.events = found.events);
  };
}
