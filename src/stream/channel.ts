/**
 * The stream of one response. It starts as a plain JSON answer and upgrades to SSE the first time
 * the handler emits something for the request (progress, a log line, a server→client request).
 * With an event log (legacy sessions) every message gets an id and is kept, so a dropped
 * connection can be resumed with `Last-Event-ID` while the work goes on.
 *
 * Every path settles: the HTTP answer is given exactly once (JSON, the SSE upgrade, or an empty
 * answer when the client went away first), `onDone` runs exactly once, and no operation rejects —
 * a failing event log is reported to `incidents` and the message still goes to the live client.
 */
import type { Incidents } from "../incidents.ts";
import type { JsonRpcMessage, JsonRpcResponse } from "../protocol/jsonrpc.ts";
import { emptyReply, jsonReply, type Reply } from "../reply.ts";
import type { StoredEvent } from "../stores/types.ts";
import { startWaiting, stopWaiting, type Waiting } from "./keep-alive.ts";
import { SseSink, primingFrame, sseReply, type SinkLimits } from "./sse.ts";

/** Where a resumable stream keeps its events. */
export interface StreamLog {
  /** Appends a message (null: the priming event) and returns its event id. */
  append(message: JsonRpcMessage | null): Promise<string>;
  /** Send a priming event with `retry:` when the stream opens (2025-11-25 clients). */
  readonly priming: boolean;
  readonly retryMs: number;
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
}

type Task = () => void | Promise<void>;

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

/** Resolves after a turn of the event loop (I/O included). */
function nextTurn(): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, 0));
}

/** The reason given to watchers when the client went away. */
const CONNECTION_CLOSED = new Error("The client closed the connection");

export class ResponseChannel implements Waiting {
  readonly since: number = Date.now();
  readonly keepAliveMs: number;
  waitPrev: Waiting | undefined = undefined;
  waitNext: Waiting | undefined = undefined;
  waitListed = false;
  #state: ChannelState = "waiting";
  /** The HTTP answer, once given. */
  #reply: Reply | undefined;
  #replyPromise: Promise<Reply> | undefined;
  #resolveReply: ((reply: Reply) => void) | undefined;
  #options: ChannelOptions;
  #sink: SseSink | undefined;
  /** The sink of the original response; the request's disconnect closes only this one. */
  #originalSink: SseSink | undefined;
  // Signals are costly to create, so the connection is watched only once someone asks (hot path).
  #transport: AbortController | undefined;
  #transportClosed = false;
  #watchers: CloseWatcher[] | undefined;
  #watching = false;
  #tail: Promise<void> | undefined;
  /** Tasks enqueued and not yet finished. */
  #queued = 0;

  constructor(options: ChannelOptions) {
    this.#options = options;
    this.keepAliveMs = options.keepAliveMs;
    if (options.canStream && options.keepAliveMs > 0) startWaiting(this);
  }

  /** Where the channel is (see {@link ChannelState}). */
  get state(): ChannelState {
    return this.#state;
  }

  /**
   * The HTTP answer: the SSE upgrade, or the JSON result. Already there when the handler finished
   * synchronously, so the common case needs no promise of its own. Always settles.
   */
  get reply(): Reply | Promise<Reply> {
    if (this.#reply) return this.#reply;
    return (this.#replyPromise ??= new Promise((resolve) => (this.#resolveReply = resolve)));
  }

  #settleReply(reply: Reply): void {
    this.#reply = reply;
    this.#resolveReply?.(reply);
  }

  /** Fires when the response connection closes. */
  get transportSignal(): AbortSignal {
    if (!this.#transport) {
      this.#transport = new AbortController();
      if (this.#transportClosed) this.#transport.abort(CONNECTION_CLOSED);
      else this.#watch();
    }
    return this.#transport.signal;
  }

  /** Aborts `watcher` when the connection closes (at once if it already has). */
  onClose(watcher: CloseWatcher): void {
    if (this.#transportClosed) {
      watcher.abort(CONNECTION_CLOSED);
      return;
    }
    (this.#watchers ??= []).push(watcher);
    this.#watch();
  }

  /** True while a connection is attached to this stream. */
  get connected(): boolean {
    return this.#sink !== undefined && !this.#sink.isClosed;
  }

  /** True when messages can still reach the client now or later (by resumption). */
  get canSend(): boolean {
    return (
      this.#options.canStream &&
      this.#state !== "finished" &&
      (this.#options.log !== undefined || !this.#transportClosed)
    );
  }

  /** The response waited a keep-alive interval without a message: open the stream so it can carry keep-alives. */
  overdue(): void {
    if (this.#state === "waiting") void this.open();
  }

  /** Sends a notification or request related to this response; upgrades to SSE first. Never rejects. */
  send(message: JsonRpcMessage): Promise<void> {
    if (!this.canSend) return Promise.resolve();
    return this.#enqueue(async () => {
      if (this.#state === "finished") return;
      await this.#upgrade();
      await this.#deliver(message);
      // A handler emitting in a tight loop must let the host write to the socket: without a turn of
      // the event loop nothing drains, and a reading client would look like one that does not read.
      if (this.#sink?.pressed) await nextTurn();
    });
  }

  /** Opens the SSE stream now (a standalone GET stream, or before closing for polling). Never rejects. */
  open(): Promise<void> {
    return this.#enqueue(() => this.#upgrade());
  }

  /**
   * Ends the response with its final message; `undefined` ends it without one (cancelled).
   * `status` applies only when the answer is still a plain JSON response. Never rejects.
   */
  finish(message: JsonRpcResponse | undefined, status = 200): Promise<void> {
    if (this.#state === "finished") return Promise.resolve();
    // The common case, a plain JSON answer with nothing queued, needs no trip through the queue.
    if (this.#queued === 0 && this.#state === "waiting") {
      this.#answer(message, status);
      return Promise.resolve();
    }
    return this.#enqueue(async () => {
      if (this.#state === "waiting") this.#answer(message, status);
      else if (this.#state === "streaming") await this.#finishStream(message);
    });
  }

  /** waiting → finished: the JSON answer, or an empty one when there is no message. */
  #answer(message: JsonRpcResponse | undefined, status: number): void {
    this.#state = "finished";
    this.#settleReply(
      message === undefined ? this.#endedWithoutAnswer() : jsonReply(status, message, this.#options.headers),
    );
    this.#done();
  }

  /** streaming → finished: the final message (if any), then the end of the body. */
  async #finishStream(message: JsonRpcResponse | undefined): Promise<void> {
    this.#state = "finished";
    try {
      if (message !== undefined) await this.#deliver(message);
    } finally {
      this.#sink?.close();
      this.#done();
    }
  }

  /** Closes the connection but not the stream: the client resumes with `Last-Event-ID` (SSE polling). */
  closeConnection(): Promise<void> {
    if (!this.#options.log || this.#state === "finished") return Promise.resolve();
    return this.#enqueue(async () => {
      await this.#upgrade();
      this.#sink?.close();
    });
  }

  /**
   * Continues this stream on a new connection: writes the given replayed events, then every later
   * message. Runs in order with sends, so no event is lost or written twice. Never rejects: when
   * the replay cannot be read, the new connection is closed (the client may try again).
   */
  resume(sink: SseSink, replay: () => Promise<StoredEvent[]>): Promise<void> {
    return this.#enqueue(async () => {
      let events: StoredEvent[];
      try {
        events = await replay();
      } catch (error) {
        sink.close();
        throw error;
      }
      sink.replay(events);
      if (this.#state === "finished") {
        sink.close();
        return;
      }
      this.#sink?.close();
      this.#sink = sink;
      sink.closed.addEventListener("abort", () => this.#sinkClosed(sink), { once: true });
    });
  }

  /**
   * The HTTP answer of a request that ends without a response (cancelled, or its client went away
   * first). Clients expect JSON or SSE for a request, so a streaming client gets an empty event
   * stream; it carries no event id, so nothing invites a reconnection.
   */
  #endedWithoutAnswer(): Reply {
    return this.#options.canStream ? sseReply("", this.#options.headers) : emptyReply(204, this.#options.headers);
  }

  /** Runs `task` after the ones before it; a failure is reported, never passed on. */
  #enqueue(task: Task): Promise<void> {
    this.#queued += 1;
    const next = (this.#tail ?? Promise.resolve())
      .then(task)
      .catch((error: unknown) => this.#options.incidents?.record("background_failure", error))
      .finally(() => (this.#queued -= 1));
    this.#tail = next;
    return next;
  }

  /** waiting → streaming: the SSE answer, with the priming event of a resumable stream. */
  async #upgrade(): Promise<void> {
    if (this.#state !== "waiting") return;
    this.#state = "streaming";
    stopWaiting(this);
    const options = this.#options;
    const limits: SinkLimits | undefined =
      options.maxBufferBytes === undefined
        ? undefined
        : { maxBufferBytes: options.maxBufferBytes, incidents: options.incidents };
    const sink = new SseSink(undefined, options.keepAliveMs, limits);
    this.#sink = sink;
    this.#originalSink = sink;
    sink.closed.addEventListener("abort", () => this.#sinkClosed(sink), { once: true });
    this.#settleReply(sseReply(sink.stream, options.headers));
    const log = options.log;
    if (!log?.priming) return;
    try {
      sink.write(primingFrame(await log.append(null), log.retryMs));
    } catch (error) {
      // The stream still works; only its resumption from the very start is lost.
      options.incidents?.record("background_failure", error);
    }
  }

  /** Logs (when resumable) and writes one message; a failing log still lets the live client have it. */
  async #deliver(message: JsonRpcMessage): Promise<void> {
    const log = this.#options.log;
    if (!log) {
      this.#sink?.send(message);
      return;
    }
    let id: string | undefined;
    try {
      id = await log.append(message);
    } catch (error) {
      this.#options.incidents?.record("background_failure", error);
    }
    this.#sink?.send(message, id);
  }

  /** Starts listening for the request's disconnect (SSE bodies also notice it through `cancel()`). */
  #watch(): void {
    if (this.#watching) return;
    this.#watching = true;
    const disconnect = this.#options.inbound.disconnect;
    if (disconnect.aborted) this.#connectionClosed();
    else disconnect.addEventListener("abort", () => this.#connectionClosed(), { once: true });
  }

  #connectionClosed(): void {
    this.#originalSink?.close();
    this.#markTransportClosed();
    // Without a log nothing can reach the client any more: the channel is abandoned, and a reply
    // not given yet settles as an empty one (nobody reads it, but its promise must not hang).
    if (!this.#options.log) this.#abandon();
  }

  /** → finished without a final message. */
  #abandon(): void {
    if (this.#state === "finished") return;
    if (this.#state === "waiting") {
      this.#answer(undefined, 200);
      return;
    }
    this.#state = "finished";
    this.#sink?.close();
    this.#done();
  }

  #sinkClosed(sink: SseSink): void {
    if (this.#sink !== sink) return;
    this.#sink = undefined;
    this.#markTransportClosed();
    if (!this.#options.log) this.#abandon();
  }

  #markTransportClosed(): void {
    if (this.#transportClosed) return;
    this.#transportClosed = true;
    this.#transport?.abort(CONNECTION_CLOSED);
    if (this.#state !== "finished") this.#options.owner?.abort(CONNECTION_CLOSED);
    const watchers = this.#watchers;
    this.#watchers = undefined;
    if (watchers) for (const watcher of watchers) watcher.abort(CONNECTION_CLOSED);
  }

  #done(): void {
    stopWaiting(this);
    this.#options.onDone?.();
  }
}
