/** The default event store: events per session and stream, in this process. */
import type { JsonRpcMessage } from "../protocol/jsonrpc.ts";
import type { EventStore, StoredEvent } from "./types.ts";

interface StreamLog {
  next: number;
  events: { seq: number; message: JsonRpcMessage | null }[];
}

/** Options of {@link MemoryEventStore}. */
export interface MemoryEventStoreOptions {
  /** Most events kept per stream; the oldest are dropped past it (default 1,000). */
  maxEventsPerStream?: number;
}

/**
 * Keeps SSE events for `Last-Event-ID` replay. Event ids are `<streamId>/<seq>`: unique within the
 * session and naming their stream. Lookups go through the session first, so an id taken from
 * another session finds nothing.
 */
export class MemoryEventStore implements EventStore {
  readonly maxEventsPerStream: number;
  #sessions = new Map<string, Map<string, StreamLog>>();

  constructor(options: MemoryEventStoreOptions = {}) {
    this.maxEventsPerStream = options.maxEventsPerStream ?? 1000;
  }

  /** Number of sessions with stored events. */
  get sessionCount(): number {
    return this.#sessions.size;
  }

  async append(sessionId: string, streamId: string, message: JsonRpcMessage | null): Promise<string> {
    let streams = this.#sessions.get(sessionId);
    if (!streams) this.#sessions.set(sessionId, (streams = new Map()));
    let log = streams.get(streamId);
    if (!log) streams.set(streamId, (log = { next: 1, events: [] }));
    const seq = log.next++;
    log.events.push({ seq, message });
    if (log.events.length > this.maxEventsPerStream) log.events.shift();
    return `${streamId}/${seq}`;
  }

  async replayAfter(
    sessionId: string,
    lastEventId: string,
  ): Promise<{ streamId: string; events: StoredEvent[] } | undefined> {
    const slash = lastEventId.lastIndexOf("/");
    if (slash <= 0) return undefined;
    const streamId = lastEventId.slice(0, slash);
    const seq = Number(lastEventId.slice(slash + 1));
    if (!Number.isSafeInteger(seq)) return undefined;
    const log = this.#sessions.get(sessionId)?.get(streamId);
    if (!log || seq >= log.next) return undefined;
    const events: StoredEvent[] = [];
    for (const event of log.events) {
      if (event.seq > seq) events.push({ id: `${streamId}/${event.seq}`, message: event.message });
    }
    return { streamId, events };
  }

  async dropStream(sessionId: string, streamId: string): Promise<void> {
    this.#sessions.get(sessionId)?.delete(streamId);
  }

  async dropSession(sessionId: string): Promise<void> {
    this.#sessions.delete(sessionId);
  }
}
