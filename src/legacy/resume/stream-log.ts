/**
 * The event log of one stream of a legacy session, behind `Last-Event-ID` resumption. Appending
 * never fails: an event store that fails costs the resumability of that event, not the stream.
 */
import type { Incidents } from "../../http/incidents.ts";
import { formatEventId, isFrameableEventId, parseEventId, unframeableEventId } from "../../protocol/event-id.ts";
import type { JsonRpcMessage } from "../../protocol/jsonrpc.ts";
import { supportsSsePriming } from "../../protocol/versions.ts";
import type { LogOrder, StreamLog } from "../../stream/channel-options.ts";
import type { EventStore, SessionData, StoredEvent } from "../../types/stores.ts";
import { attempt } from "../state/store-failure.ts";
import type { SessionLogs, StreamRetention } from "./stream-retention.ts";

/** What a stream log needs of the session registry. */
export interface StreamLogSource {
  readonly events: EventStore;
  readonly retention: StreamRetention;
  readonly retryMs: number;
  readonly incidents: Incidents;
  nextStreamId(): string;
}

export class SessionStreamLog implements StreamLog {
  readonly priming: boolean;
  readonly retryMs: number;
  protected readonly source: StreamLogSource;
  protected readonly sessionId: string;
  #streamId: string | undefined;
  #onOpen: ((streamId: string) => void) | undefined;
  /** The session's log bookkeeping, looked up with the first event (most calls never stream). */
  #logs: SessionLogs | undefined;

  /** `streamId` is given for the GET stream; a POST stream gets one with its first event. */
  constructor(
    source: StreamLogSource,
    session: SessionData,
    streamId: string | undefined,
    onOpen?: (streamId: string) => void,
  ) {
    this.source = source;
    this.sessionId = session.id;
    this.#streamId = streamId;
    this.#onOpen = onOpen;
    this.priming = supportsSsePriming(session.protocolVersion);
    this.retryMs = source.retryMs;
  }

  /** The stream's id, once it has one. */
  get streamId(): string | undefined {
    return this.#streamId;
  }

  append(message: JsonRpcMessage | null): Promise<string> {
    let streamId = this.#streamId;
    let logs = this.#logs;
    if (!logs) {
      logs = this.#logs = this.source.retention.logsOf(this.sessionId);
      if (streamId === undefined) {
        this.#streamId = streamId = this.source.nextStreamId();
        this.#onOpen?.(streamId);
        this.source.retention.opened(this.sessionId, logs, streamId);
      } else {
        logs.hasGetLog = true;
      }
    }
    // A message sent while its session was ending is not kept: nothing would ever drop it.
    if (logs.ended) return Promise.resolve(unkeptId(streamId!));
    const sessionId = this.sessionId;
    return attempt(() => this.source.events.append(sessionId, streamId!, message)).then(
      (id) => (isFrameableEventId(id) ? id : this.#failed(streamId!, unframeableEventId(id))),
      (error: unknown) => this.#failed(streamId!, error),
    );
  }

  /**
   * The log failed (or gave an id that cannot go on an SSE line), not the stream: the message still goes to the connected client, only it cannot
   * be replayed (a resumption from it gets 400). Counted, so the operator learns of it.
   */
  #failed(streamId: string, error: unknown): string {
    this.source.incidents.record("background_failure", error);
    return unkeptId(streamId);
  }
}

/**
 * The log of a stream whose events reach this channel from more than one place, so possibly out of
 * the log's order: a session's GET stream (other instances append to it as well), and a POST
 * response stream followed here while its call runs on another instance.
 */
export class OrderedStreamLog extends SessionStreamLog {
  /** Sequence number of the last event of the log this channel wrote (0: none yet). */
  #lastSeq = 0;

  /**
   * What to do with the kept event `id` about to be written (see {@link LogOrder}): the events
   * before it not written yet are read from the log. Ids of another form than the library's stores
   * give are written as they come.
   */
  async order(id: string): Promise<LogOrder> {
    const streamId = this.streamId!;
    const seq = sequenceOf(id, streamId);
    if (seq === undefined) return NONE_BEFORE;
    const last = this.#lastSeq;
    if (seq <= last) return "written";
    // The channel is past this event from now on: it writes it, or closes the connection and the
    // client's resumption replays it (with the events before it) from the client's Last-Event-ID.
    this.#lastSeq = seq;
    if (last === 0 || seq === last + 1) return NONE_BEFORE;
    const missed = await this.#after(last);
    if (missed === undefined) return "unreadable";
    return missed.filter((event) => {
      const before = sequenceOf(event.id, streamId);
      return before !== undefined && before < seq;
    });
  }

  written(id: string): void {
    const seq = sequenceOf(id, this.streamId!);
    if (seq !== undefined && seq > this.#lastSeq) this.#lastSeq = seq;
  }

  /** The kept events after the last one written (none when nothing was written yet, or they cannot be read). */
  async missed(): Promise<StoredEvent[]> {
    return this.#lastSeq === 0 ? [] : ((await this.#after(this.#lastSeq)) ?? []);
  }

  /**
   * The kept events after `seq`; none when some of them are gone (the log was trimmed: waiting
   * brings them back no more), undefined when the log could not be read (its store failed, or gave
   * an id with a line break).
   */
  async #after(seq: number): Promise<StoredEvent[] | undefined> {
    try {
      const found = await attempt(() =>
        this.source.events.replayAfter(this.sessionId, formatEventId(this.streamId!, seq)),
      );
      if (!found || found.gap) return [];
      // Written with their ids: one that cannot go on an SSE line makes the log unreadable, as a failing store does.
      const unframeable = found.events.find((event) => !isFrameableEventId(event.id));
      if (unframeable !== undefined) throw unframeableEventId(unframeable.id);
      return found.events;
    } catch (error) {
      this.source.incidents.record("background_failure", error);
      return undefined;
    }
  }
}

/** No events to write before this one. */
const NONE_BEFORE: LogOrder = [];

/**
 * A kept event's sequence number within `streamId`, when its id has the `<streamId>/<seq>` form of
 * the library's stores; undefined for other forms (a store of your own) and for unkept events.
 */
function sequenceOf(id: string, streamId: string): number | undefined {
  const parsed = parseEventId(id);
  return parsed?.streamId === streamId ? parsed.seq : undefined;
}

/** The id of an event that was sent but not kept: sequence 0 is never given to a kept one. */
function unkeptId(streamId: string): string {
  return formatEventId(streamId, 0);
}
