/**
 * The `Last-Event-ID` log in a Durable Object's SQLite storage: the memory store's log (ids
 * `<streamId>/<seq>`, a counter per stream, the oldest events dropped past a cap) kept in tables,
 * so a client whose stream was cut while the object was evicted or restarted still resumes it.
 */
import { positiveOption } from "../../protocol/positive-option.ts";
import { formatEventId, parseEventId } from "../../protocol/event-id.ts";
import type { JsonRpcMessage } from "../../protocol/jsonrpc.ts";
import type { EventReplay, EventStore } from "../../types/stores.ts";
import { firstRow, rows, type SqlStorage } from "./sql.ts";

/** Options of {@link DurableEventStore}. */
export interface DurableEventStoreOptions {
  /** Most events kept per stream; the oldest are dropped past it (default 1,000). */
  maxEventsPerStream?: number;
}

const SCHEMA = [
  `CREATE TABLE IF NOT EXISTS mcp_streams (session_id TEXT NOT NULL, stream_id TEXT NOT NULL, next INTEGER NOT NULL,
    PRIMARY KEY (session_id, stream_id))`,
  `CREATE TABLE IF NOT EXISTS mcp_events (session_id TEXT NOT NULL, stream_id TEXT NOT NULL, seq INTEGER NOT NULL,
    message TEXT, PRIMARY KEY (session_id, stream_id, seq))`,
];

/**
 * Keeps SSE events for `Last-Event-ID` replay in the object's storage. A stream's counter lives
 * as long as its log, so its ids never repeat (the engine never reuses a stream id); a look-up goes
 * through the session, so an id taken from another session finds nothing.
 *
 * @example
 * const events = new DurableEventStore(ctx.storage.sql, { maxEventsPerStream: 500 });
 */
export class DurableEventStore implements EventStore {
  readonly maxEventsPerStream: number;
  readonly #sql: SqlStorage;

  constructor(sql: SqlStorage, options: DurableEventStoreOptions = {}) {
    this.#sql = sql;
    this.maxEventsPerStream = positiveOption(
      "mcp-h3: DurableEventStore maxEventsPerStream",
      options.maxEventsPerStream,
      {
        fallback: 1000,
      },
    );
    for (const statement of SCHEMA) sql.exec(statement);
  }

  async append(sessionId: string, streamId: string, message: JsonRpcMessage | null): Promise<string> {
    const seq = this.#next(sessionId, streamId) ?? 1;
    this.#sql.exec(
      `INSERT INTO mcp_streams (session_id, stream_id, next) VALUES (?, ?, ?)
        ON CONFLICT (session_id, stream_id) DO UPDATE SET next = excluded.next`,
      sessionId,
      streamId,
      seq + 1,
    );
    this.#sql.exec(
      "INSERT INTO mcp_events (session_id, stream_id, seq, message) VALUES (?, ?, ?, ?)",
      sessionId,
      streamId,
      seq,
      message === null ? null : JSON.stringify(message),
    );
    // The kept events are the last `maxEventsPerStream` numbers: at most one falls out per append.
    this.#sql.exec(
      "DELETE FROM mcp_events WHERE session_id = ? AND stream_id = ? AND seq = ?",
      sessionId,
      streamId,
      seq - this.maxEventsPerStream,
    );
    return formatEventId(streamId, seq);
  }

  async replayAfter(sessionId: string, lastEventId: string): Promise<EventReplay | undefined> {
    const parsed = parseEventId(lastEventId);
    if (!parsed) return undefined;
    const { streamId, seq } = parsed;
    const next = this.#next(sessionId, streamId);
    if (next === undefined || seq >= next) return undefined;
    const events = rows<{ seq: number; message: string | null }>(
      this.#sql,
      "SELECT seq, message FROM mcp_events WHERE session_id = ? AND stream_id = ? AND seq > ? ORDER BY seq",
      sessionId,
      streamId,
      seq,
    );
    // Sequence numbers are consecutive: a first kept event past `seq + 1` means some were dropped.
    if ((events[0]?.seq ?? next) > seq + 1) return { streamId, events: [], gap: true };
    return {
      streamId,
      events: events.map((event) => ({
        id: formatEventId(streamId, event.seq),
        message: event.message === null ? null : (JSON.parse(event.message) as JsonRpcMessage),
      })),
    };
  }

  async dropStream(sessionId: string, streamId: string): Promise<void> {
    this.#sql.exec("DELETE FROM mcp_events WHERE session_id = ? AND stream_id = ?", sessionId, streamId);
    this.#sql.exec("DELETE FROM mcp_streams WHERE session_id = ? AND stream_id = ?", sessionId, streamId);
  }

  async dropSession(sessionId: string): Promise<void> {
    this.#sql.exec("DELETE FROM mcp_events WHERE session_id = ?", sessionId);
    this.#sql.exec("DELETE FROM mcp_streams WHERE session_id = ?", sessionId);
  }

  /** The next sequence number of a stream, undefined when it has no log. */
  #next(sessionId: string, streamId: string): number | undefined {
    return firstRow<{ next: number }>(
      this.#sql,
      "SELECT next FROM mcp_streams WHERE session_id = ? AND stream_id = ?",
      sessionId,
      streamId,
    )?.next;
  }
}
