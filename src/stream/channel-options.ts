/** The contract of a response channel: what it is built with, and the states it goes through. */
import type { Incidents } from "../http/incidents.ts";
import type { JsonRpcMessage } from "../protocol/jsonrpc.ts";
import type { StoredEvent } from "../types/stores.ts";

/** Where a resumable stream keeps its events. */
export interface StreamLog {
  /** Appends a message (null: the priming event) and returns its event id. */
  append(message: JsonRpcMessage | null): Promise<string>;
  /** Send a priming event with `retry:` when the stream opens (2025-11-25 clients). */
  readonly priming: boolean;
  readonly retryMs: number;
  /**
   * Only for a log other instances append to as well (a session's GET stream): given the id of an
   * event about to be written, what to do with it (see {@link LogOrder}). Absent: every event is
   * written as it comes.
   */
  order?(id: string): Promise<LogOrder>;
  /** The channel wrote the event with this id without asking {@link StreamLog.order} (priming, replay). */
  written?(id: string): void;
}

/**
 * What a stream's log says of a kept event about to be written:
 * - the kept events this channel has not written yet that come before it (often none), to write
 *   first, so that the client sees the log's order;
 * - `"written"`: the channel wrote it already (it came by another way first): skip it;
 * - `"unreadable"`: events came before it that were not written, and the log could not be read
 *   (its store failed). Writing it would carry the client's `Last-Event-ID` past them, and they
 *   would never reach it: the connection is closed instead, without it, so that the client resumes
 *   from the last event it has and the replay brings every later one, in order.
 */
export type LogOrder = readonly StoredEvent[] | "written" | "unreadable";

/**
 * Where a resumable stream hands its events while its client is served by another instance (a POST
 * stream resumed elsewhere): each event once it is kept, with its id.
 */
export interface StreamForward {
  /** Names the follower: forwarding to the same key again changes nothing. */
  readonly key: string;
  event(id: string, message: JsonRpcMessage): void;
  /** Nothing more comes for this follower: the stream ended without a final message, or moved on. */
  end(): void;
}

export interface ChannelOptions {
  /** The request; its `disconnect` signal is read only when someone watches the connection. */
  inbound: { readonly disconnect: AbortSignal };
  keepAliveMs: number;
  /** False when the client did not accept `text/event-stream`: notifications are then dropped. */
  canStream: boolean;
  /** Extra response headers (the session id), or `NO_HEADERS` of `reply.ts`. */
  headers: Readonly<Record<string, string>>;
  log?: StreamLog;
  /** Called once when the stream has delivered its final message or was abandoned. */
  onDone?: () => void;
  /**
   * Aborted when the response connection closes before the final message (the client went away,
   * or did not read and passed `maxBufferBytes`): the request context when a disconnect cancels.
   */
  owner?: CloseWatcher;
  /** Bounds the bytes an SSE body holds for a client that does not read (`maxStreamBufferBytes`). */
  maxBufferBytes?: number;
  /** Where failures nobody awaits (the event log) and slow readers are counted. */
  incidents?: Incidents;
  /**
   * When the token of the request that opened the response expires (ms since the epoch): its
   * connection is closed then, as if the client had gone (see `ResponseChannel`). Absent: never.
   */
  expiresAtMs?: number;
}

/** Something to abort when the response connection closes (a request context). */
export interface CloseWatcher {
  abort(reason?: unknown): void;
}

/**
 * Where a channel is:
 * - `waiting`: no HTTP answer yet; a plain JSON answer is still possible;
 * - `streaming`: answered with an SSE body; messages flow (or go to the log while detached);
 * - `finished`: the final message went out, or the channel was abandoned. Nothing more is sent.
 *
 * Transitions: waiting → streaming (`#upgrade`), waiting → finished (`#answer`), streaming →
 * finished (`#finishStream`). Whether the response connection is still open is a separate fact
 * (`#transportClosed`): a resumable stream goes on without it.
 */
export type ChannelState = "waiting" | "streaming" | "finished";
