/**
 * The replay of a resumption, read inside the stream's queue (so events sent meanwhile are neither
 * lost nor doubled). The channel's `resume` never rejects, so what the read found is kept here for
 * the caller to look at afterwards.
 */
import { isFrameableEventId, unframeableEventId } from "../../protocol/event-id.ts";
import type { EventReplay, StoredEvent } from "../../types/stores.ts";
import type { LegacySessions } from "../state/sessions.ts";
import { StoreFailure, stored } from "../state/store-failure.ts";

/**
 * The events after `lastEventId` in the session's event store. A replay with an id that cannot go on
 * an SSE `id:` line (a store of your own gave one with a line break) is refused as a failing store's
 * (a `StoreFailure`: the client gets 503 and nothing of it), and reported.
 */
export async function replayAfter(
  sessions: LegacySessions,
  sessionId: string,
  lastEventId: string,
): Promise<EventReplay | undefined> {
  const found = await stored(() => sessions.events.replayAfter(sessionId, lastEventId));
  const unframeable = found?.events.find((event) => !isFrameableEventId(event.id));
  if (unframeable === undefined) return found;
  const error = unframeableEventId(unframeable.id);
  sessions.incidents.record("background_failure", error);
  throw new StoreFailure(error);
}

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
    const found = await replayAfter(this.#sessions, this.#sessionId, this.#lastEventId);
    if (!found || found.gap) {
      this.gone = true;
      throw new ReplayGone("The events after the Last-Event-ID are no longer all kept");
    }
    return (this.events = found.events);
  };
}
