/**
 * What a legacy session has in flight in this process: running requests (for cancellation),
 * open response streams (for resumption), its GET stream and the server→client requests waiting
 * for an answer. An entry exists only while something is live, and goes when the session ends
 * (DELETE, TTL, eviction) or the handler closes.
 */
import type { JsonRpcId } from "../protocol/jsonrpc.ts";
import { abortRequest, type RequestContext } from "../context/request-context.ts";
import type { ResponseChannel } from "../stream/channel.ts";

/** A server→client request waiting for the client's POSTed answer. */
export interface PendingInput {
  resolve(result: unknown): void;
  reject(error: unknown): void;
}

/** What the registry tells its owner, and how it hands over promises nobody awaits. */
export interface LiveHooks {
  /** A POST response stream with an event log finished: its events now wait out the replay window. */
  streamFinished(sessionId: string, streamId: string): void;
  /** Gives a background promise an owner (a rejection is counted, never left unhandled). */
  own(work: Promise<unknown>): void;
}

/** The open POST response streams of a session by stream id; removing one reports it finished. */
export class StreamTable {
  #channels = new Map<string, ResponseChannel>();
  #finished: (streamId: string) => void;

  constructor(finished: (streamId: string) => void) {
    this.#finished = finished;
  }

  get size(): number {
    return this.#channels.size;
  }

  get(streamId: string): ResponseChannel | undefined {
    return this.#channels.get(streamId);
  }

  set(streamId: string, channel: ResponseChannel): this {
    this.#channels.set(streamId, channel);
    return this;
  }

  /** Removes a stream that finished; returns whether it was here. */
  delete(streamId: string): boolean {
    if (!this.#channels.delete(streamId)) return false;
    this.#finished(streamId);
    return true;
  }

  values(): IterableIterator<ResponseChannel> {
    return this.#channels.values();
  }
}

export class LiveSession {
  readonly inflight = new Map<string, RequestContext>();
  readonly streams: StreamTable;
  readonly pending = new Map<string, PendingInput>();
  getStream: ResponseChannel | undefined;

  constructor(streamFinished: (streamId: string) => void) {
    this.streams = new StreamTable(streamFinished);
  }

  get idle(): boolean {
    return this.inflight.size === 0 && this.streams.size === 0 && this.pending.size === 0 && !this.getStream;
  }

  /**
   * True while a client is served: a call in flight, a POST stream not finished, a server→client
   * request waiting, or a connected GET stream. Such a session is never ended to make room and
   * not expired by the idle TTL.
   */
  get busy(): boolean {
    return (
      this.inflight.size > 0 || this.streams.size > 0 || this.pending.size > 0 || this.getStream?.connected === true
    );
  }
}

/** Key of a JSON-RPC id in maps: `1` and `"1"` are different requests. */
export function idKey(id: JsonRpcId): string {
  return typeof id === "number" ? `n:${id}` : `s:${id}`;
}

export class LiveRegistry {
  #sessions = new Map<string, LiveSession>();
  #hooks: LiveHooks;

  constructor(hooks: LiveHooks) {
    this.#hooks = hooks;
  }

  /** Number of sessions with something live here. */
  get size(): number {
    return this.#sessions.size;
  }

  get(sessionId: string): LiveSession | undefined {
    return this.#sessions.get(sessionId);
  }

  /** Whether the session has an open stream or a call in flight here (see {@link LiveSession.busy}). */
  isLive(sessionId: string): boolean {
    return this.#sessions.get(sessionId)?.busy === true;
  }

  ensure(sessionId: string): LiveSession {
    let live = this.#sessions.get(sessionId);
    if (!live) {
      live = new LiveSession((streamId) => this.#hooks.streamFinished(sessionId, streamId));
      this.#sessions.set(sessionId, live);
    }
    return live;
  }

  /** Forgets the entry once nothing is live in it. */
  release(sessionId: string): void {
    if (this.#sessions.get(sessionId)?.idle) this.#sessions.delete(sessionId);
  }

  /** Each session with something live here. */
  entries(): IterableIterator<[string, LiveSession]> {
    return this.#sessions.entries();
  }

  /**
   * Ends everything of a session here: requests aborted, waiting inputs rejected, streams ended
   * (a GET stream gracefully: its body is closed, without an error).
   */
  end(sessionId: string, reason: Error): void {
    const live = this.#sessions.get(sessionId);
    if (!live) return;
    this.#sessions.delete(sessionId);
    for (const context of live.inflight.values()) abortRequest(context, reason);
    for (const pending of live.pending.values()) pending.reject(reason);
    for (const channel of live.streams.values()) this.#hooks.own(channel.finish(undefined));
    if (live.getStream) this.#hooks.own(live.getStream.finish(undefined));
  }

  /** Ends everything live in this process (the handler closes). */
  endAll(reason: Error): void {
    for (const sessionId of this.#sessions.keys()) this.end(sessionId, reason);
  }
}
