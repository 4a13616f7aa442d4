/**
 * What a legacy session has in flight in this process: running requests (for cancellation),
 * open response streams (for resumption), its GET stream and the server→client requests waiting
 * for an answer. An entry exists only while something is live, and goes when the session ends
 * (DELETE, TTL, eviction) or the handler closes.
 */
import { McpError } from "../../protocol/errors.ts";
import { isObject, type JsonRpcId, type JsonRpcResponse } from "../../protocol/jsonrpc.ts";
import { abortRequest, channelOf, type RequestContext } from "../../context/request-context.ts";
import type { H3Event } from "h3";
import type { Caller } from "../../auth/gate.ts";
import type { ResponseChannel } from "../../stream/channel.ts";
import type { StoredEvent } from "../../types/stores.ts";
import { mayAnswer, type Answerer } from "../../auth/answerer.ts";

/** A server→client request waiting for the client's POSTed answer. */
export interface PendingInput {
  /** Whom it was asked for (the asking request's caller): only it, or a caller with its grant, answers (auth/answerer.ts). */
  readonly asker: Answerer | undefined;
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

/**
 * A POST response stream this instance serves to a client that resumed it here while its call runs
 * on another instance (see `bus/stream-follow.ts`); events reach it through the bus.
 */
export interface FollowedStream {
  /** Names this follower in the bus messages about it. */
  readonly claim: string;
  /** An event the call's instance kept and handed over. */
  deliver(event: StoredEvent): void;
  /** The call's instance answered the claim: events follow (`open`), or nothing more comes. */
  handover(open: boolean): void;
  /** Ends the stream here (the session ended, or a newer resumption replaced it). */
  end(): void;
}

/** Who reads a session's GET stream: the request of the connection it is written to, and its caller (auth on). */
export interface GetStreamReader {
  readonly event: H3Event;
  readonly caller: Caller | undefined;
}

export class LiveSession {
  readonly inflight = new Map<string, RequestContext>();
  readonly streams: StreamTable;
  readonly pending = new Map<string, PendingInput>();
  getStream: ResponseChannel | undefined;
  /** Who the GET stream's last connection came from: updates are checked against it. */
  getStreamReader: GetStreamReader | undefined;
  /** POST response streams followed here, by stream id. */
  readonly followed = new Map<string, FollowedStream>();

  constructor(streamFinished: (streamId: string) => void) {
    this.streams = new StreamTable(streamFinished);
  }

  get idle(): boolean {
    return (
      this.inflight.size === 0 &&
      this.streams.size === 0 &&
      this.pending.size === 0 &&
      this.followed.size === 0 &&
      !this.getStream
    );
  }

  /**
   * True while a client is served: a call in flight, a POST stream not finished, a server→client
   * request waiting, or a connected GET stream. Such a session is never ended to make room and
   * not expired by the idle TTL.
   */
  get busy(): boolean {
    return (
      this.inflight.size > 0 ||
      this.streams.size > 0 ||
      this.pending.size > 0 ||
      this.followed.size > 0 ||
      this.getStream?.connected === true
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

  /** The ids of the sessions with an open stream or a call in flight here, for a store to keep them from expiring. */
  *liveIds(): IterableIterator<string> {
    for (const [sessionId, live] of this.#sessions) if (live.busy) yield sessionId;
  }

  /**
   * Hands the client's answer, POSTed by `responder`, to the server→client request of this session
   * waiting for it here. False when none waits for that id (late, duplicate, forged, or waiting on
   * another instance), or when `responder` may not answer it (a weaker token of the session's
   * principal): that request goes on waiting for its own client.
   */
  answer(sessionId: string, response: JsonRpcResponse, responder: Answerer | undefined): boolean {
    const live = this.#sessions.get(sessionId);
    const pending = response.id === null ? undefined : live?.pending.get(String(response.id));
    if (!pending || !mayAnswer(pending.asker, responder)) return false;
    if ("result" in response) pending.resolve(response.result);
    else {
      const { code, message, data } = response.error;
      pending.reject(
        new McpError(code, `Client answered with an error: ${message}`, isObject(data) ? data : undefined),
      );
    }
    this.release(sessionId);
    return true;
  }

  /**
   * Aborts the request of this session running here with that id; its response is then not sent.
   * False when no such request runs here.
   */
  cancel(sessionId: string, requestId: JsonRpcId, reason: string | undefined): boolean {
    const context = this.#sessions.get(sessionId)?.inflight.get(idKey(requestId));
    if (!context) return false;
    abortRequest(context, new Error(reason ?? "Cancelled by the client"));
    this.#hooks.own(channelOf(context).finish(undefined));
    return true;
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
    for (const follower of live.followed.values()) follower.end();
    if (live.getStream) this.#hooks.own(live.getStream.finish(undefined));
  }

  /** Ends everything live in this process (the handler closes). */
  endAll(reason: Error): void {
    for (const sessionId of this.#sessions.keys()) this.end(sessionId, reason);
  }
}
