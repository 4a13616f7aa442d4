/** The default event store: events per session and stream, in this process. */
import { positiveOption } from "../../protocol/positive-option.ts";
import { formatEventId, parseEventId } from "../../protocol/event-id.ts";
import type { JsonRpcMessage } from "../../protocol/jsonrpc.ts";
import type { EventReplay, EventStore, StoredEvent } from "../../types/stores.ts";

interface StreamLog {
  /** Sequence number of the next event; the first is 1. */
  next: number;
  /** The kept events: consecutive sequence numbers, ending at `next - 1`. */
  events: { seq: number; message: JsonRpcMessage | null }[];
}

/** Options of {@link MemoryEventStore}. */
export interface MemoryEventStoreOptions {
  /** Most events kept per stream; the oldest are dropped past it (default 1,000). */
  maxEventsPerStream?: number;
}

/**
 * Keeps SSE events for `Last-Event-ID` replay. Event ids are `<streamId>/<seq>` (`protocol/event-id.ts`): unique within the
 * session and naming their stream. Lookups go through the session first, so an id taken from
 * another session finds nothing. Streams are dropped by the engine once their replay window has
 * passed, and sessions when they end; each stream keeps at most `maxEventsPerStream` events.
 * A stream's counter lives as long as its log and nothing expires it, so its ids never repeat: the
 * engine drops only finished streams, never reuses a stream id, and stores nothing after a session
 * ended (the Redis store, whose keys expire, starts a counter at its clock instead).
 */
export class MemoryEventStore implements EventStore {
  readonly maxEventsPerStream: number;
  #sessions = new Map<string, Map<string, StreamLog>>();

  constructor(options: MemoryEventStoreOptions = {}) {
    this.maxEventsPerStream = positiveOption(
      "mcp-h3: MemoryEventStore maxEventsPerStream",
      options.maxEventsPerStream,
      {
        fallback: 1000,
      },
    );
  }

  /** Number of sessions with stored events. */
  get sessionCount(): number {
    return this.#sessions.size;
  }

  /** Number of streams kept for one session. */
  streamCount(sessionId: string): number {
    return this.#sessions.get(sessionId)?.size ?? 0;
  }

  async append(sessionId: string, streamId: string, message: JsonRpcMessage | null): Promise<string> {
    let streams = this.#sessions.get(sessionId);
    if (!streams) this.#sessions.set(sessionId, (streams = new Map()));
    let log = streams.get(streamId);
    if (!log) streams.set(streamId, (log = { next: 1, events: [] }));
    const seq = log.next++;
    log.events.push({ seq, message });
    if (log.events.length > this.maxEventsPerStream) log.events.shift();
    return formatEventId(streamId, seq);
  }

  async replayAfter(sessionId: string, lastEventId: string): Promise<EventReplay | undefined> {
    const parsed = parseEventId(lastEventId);
    if (!parsed) return undefined;
    const { streamId, seq } = parsed;
    const log = this.#sessions.get(sessionId)?.get(streamId);
    if (!log || seq >= log.next) return undefined;
    const first = log.events[0];
    // Sequence numbers are consecutive, so the events after `seq` start at a known index.
    if (!first || first.seq > seq + 1) return { streamId, events: [], gap: true };
    const events: StoredEvent[] = [];
    for (let index = seq + 1 - first.seq; index < log.events.length; index++) {
      const event = log.events[index]!;
      events.push({ id: formatEventId(streamId, event.seq), message: event.message });
    }
    return { streamId, events };
  }

  async dropStream(sessionId: string, streamId: string): Promise<void> {
    const streams = this.#sessions.get(sessionId);
    if (!streams) return;
    streams.delete(streamId);
    if (streams.size === 0) this.#sessions.delete(sessionId);
  }

  async dropSession(sessionId: string): Promise<void> {
    this.#sessions.delete(sessionId);
  }
}
