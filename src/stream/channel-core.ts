/**
 * The answer of one response, as `ResponseChannel` (channel.ts) builds on it: it starts as a plain
 * JSON answer and upgrades to SSE the first time the handler emits something for the request
 * (progress, a log line, a server→client request). With an event log (legacy sessions) every
 * message gets an id and is kept; what a resumable stream adds (resumption on a new connection,
 * following on another instance) is in channel.ts.
 *
 * Every path settles: the HTTP answer is given exactly once (JSON, the SSE upgrade, or an empty
 * answer when the client went away first), `onDone` runs exactly once, and no operation rejects —
 * a failing event log is reported to `incidents` and the message still goes to the live client.
 */
import type { JsonRpcMessage, JsonRpcResponse } from "../protocol/jsonrpc.ts";
import type { Reply } from "../http/reply.ts";
import { endedWithoutAnswer, jsonAnswer, OnceReply } from "./answers.ts";
import { appendOrReport, markStart, responseSink, sendMessage, writeInLogOrder } from "./delivery.ts";
import { KeepAliveWatched } from "./keep-alive.ts";
import type { ChannelOptions, ChannelState, CloseWatcher } from "./channel-options.ts";
import { sseReply, type SseSink } from "./sse.ts";
import { SerialQueue } from "./serial-queue.ts";
import { nextTurn } from "./turns.ts";
import { CONNECTION_CLOSED, Transport } from "./transport.ts";

export abstract class ChannelCore extends KeepAliveWatched {
  protected readonly options: ChannelOptions;
  /** Sends, the upgrade and the end, in order; a failing event log is reported, never passed on. */
  protected readonly queue: SerialQueue;
  #state: ChannelState = "waiting";
  /** The HTTP answer, given once. */
  readonly #reply = new OnceReply();
  #sink: SseSink | undefined;
  /** The sink of the original response; the request's disconnect closes only this one. */
  #originalSink: SseSink | undefined;
  /** The response connection; a resumable stream goes on without it. */
  readonly #transport: Transport;

  constructor(options: ChannelOptions) {
    super();
    this.options = options;
    this.queue = new SerialQueue((error) => options.incidents?.record("background_failure", error));
    this.#transport = new Transport(
      () => options.inbound.disconnect,
      () => this.#connectionClosed(),
    );
    if (options.canStream && options.keepAliveMs > 0) this.startWaiting(options.keepAliveMs);
  }

  /** A kept event of the stream, with its id, once it is logged (see `ResponseChannel`). */
  protected abstract kept(id: string, message: JsonRpcMessage): void;

  /** The stream ended; `withoutFinal`: no final message went out (cancelled, abandoned). */
  protected abstract ended(withoutFinal: boolean): void;

  /** Where the channel is (see {@link ChannelState}). */
  get state(): ChannelState {
    return this.#state;
  }

  /**
   * The HTTP answer: the SSE upgrade, or the JSON result. Already there when the handler finished
   * synchronously, so the common case needs no promise of its own. Always settles.
   */
  get reply(): Reply | Promise<Reply> {
    return this.#reply.value;
  }

  /** Fires when the response connection closes. */
  get transportSignal(): AbortSignal {
    return this.#transport.signal;
  }

  /** Aborts `watcher` when the connection closes (at once if it already has). */
  onClose(watcher: CloseWatcher): void {
    this.#transport.onClose(watcher);
  }

  /** True while a connection is attached to this stream. */
  get connected(): boolean {
    return this.#sink !== undefined && !this.#sink.isClosed;
  }

  /** True when messages can still reach the client now or later (by resumption). */
  get canSend(): boolean {
    return (
      this.options.canStream &&
      this.#state !== "finished" &&
      (this.options.log !== undefined || !this.#transport.closed)
    );
  }

  /** Silent for a keep-alive interval: open the stream for keep-alives (a client taking no stream waits for JSON). */
  overdue(): void {
    if (this.#state === "waiting" && this.options.canStream) this.queue.post(() => this.upgrade());
  }

  /** Sends a notification or request related to this response; upgrades to SSE first. Never rejects. */
  send(message: JsonRpcMessage): Promise<void> {
    if (!this.canSend) return Promise.resolve();
    return this.queue.run(async () => {
      if (this.#state === "finished") return;
      await this.upgrade();
      await this.#deliver(message);
      // A handler emitting in a tight loop must let the host write to the socket: without a turn of
      // the event loop nothing drains, and a reading client would look like one that does not read.
      if (this.#sink?.pressed) await nextTurn();
    });
  }

  /** Opens the SSE stream now (a standalone GET stream, or before closing for polling). Never rejects. */
  open(): Promise<void> {
    return this.queue.run(() => this.upgrade());
  }

  /**
   * Ends the response with its final message; `undefined` ends it without one (cancelled).
   * `status` applies only when the answer is still a plain JSON response. Never rejects.
   */
  finish(message: JsonRpcResponse | undefined, status = 200): Promise<void> {
    if (this.#state === "finished") return Promise.resolve();
    // The common case, a plain JSON answer with nothing queued, needs no trip through the queue.
    if (this.queue.pending === 0 && this.#state === "waiting") {
      this.#answer(message, status);
      return Promise.resolve();
    }
    return this.queue.run(async () => {
      if (this.#state === "waiting") this.#answer(message, status);
      else if (this.#state === "streaming") await this.#finishStream(message);
    });
  }

  /** waiting → finished: the JSON answer, or an empty one when there is no message. */
  #answer(message: JsonRpcResponse | undefined, status: number): void {
    this.#state = "finished";
    const { canStream, headers } = this.options;
    this.#reply.settle(
      message === undefined ? endedWithoutAnswer(canStream, headers) : jsonAnswer(message, status, headers),
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
      this.ended(message === undefined);
      this.#done();
    }
  }

  /** Closes the current connection (the stream goes on: its client resumes, or another instance serves it). */
  protected closeSink(): void {
    this.#sink?.close();
  }

  /** From now on the stream goes to `sink` (a resuming connection); the former connection closes. */
  protected attach(sink: SseSink): void {
    this.#sink?.close();
    this.#sink = sink;
    sink.closed.addEventListener("abort", () => this.#sinkClosed(sink), { once: true });
  }

  /**
   * waiting → streaming on a resuming connection's sink (a stream taken over from another
   * instance): the sink's body is the answer, and no priming event is written before the replay.
   */
  protected adopt(sink: SseSink): void {
    this.#state = "streaming";
    this.stopWaiting();
    this.#originalSink = sink;
    this.#reply.settle(sseReply(sink.stream, this.options.headers));
  }

  /** waiting → streaming: the SSE answer, with the start of a resumable stream (see `markStart`). */
  protected async upgrade(): Promise<void> {
    if (this.#state !== "waiting") return;
    this.#state = "streaming";
    this.stopWaiting();
    const options = this.options;
    const sink = responseSink(options);
    this.#sink = sink;
    this.#originalSink = sink;
    sink.closed.addEventListener("abort", () => this.#sinkClosed(sink), { once: true });
    // The token that opened this response expiring ends its connection as a disconnect would: a
    // resumable stream goes on in its log (a fresh token resumes it), any other one is abandoned
    // and its call cancelled. Queued, so that a priming event being kept is written first.
    sink.closeAt(options.expiresAtMs, () => this.queue.post(() => sink.close()));
    this.#reply.settle(sseReply(sink.stream, options.headers));
    if (options.log) await markStart(sink, options.log, options.incidents);
    // Opened after the expiry (a call's first message, or its keep-alive): nothing more goes out on it.
    if (options.expiresAtMs !== undefined && options.expiresAtMs <= Date.now()) sink.close();
  }

  /** Logs (when resumable) and writes one message; a failing log still lets the live client have it. */
  async #deliver(message: JsonRpcMessage): Promise<void> {
    const log = this.options.log;
    // Without a log the message is written in this turn, with no await in between.
    const id = log && (await appendOrReport(log, message, this.options.incidents));
    if (id !== undefined) this.kept(id, message);
    if (id !== undefined && log!.order) return this.write(id, message);
    if (this.#sink) sendMessage(this.#sink, message, id);
  }

  /** Writes a kept event in the log's order, to whichever connection is current by then. */
  protected write(id: string, message: JsonRpcMessage): Promise<void> {
    return writeInLogOrder(this.options.log, id, message, () => this.#sink);
  }

  #connectionClosed(): void {
    this.#originalSink?.close();
    this.#markTransportClosed();
    // Without a log nothing can reach the client any more: the channel is abandoned, and a reply
    // not given yet settles as an empty one (nobody reads it, but its promise must not hang).
    if (!this.options.log) this.#abandon();
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
    this.ended(true);
    this.#done();
  }

  #sinkClosed(sink: SseSink): void {
    if (this.#sink !== sink) return;
    this.#sink = undefined;
    this.#markTransportClosed();
    if (!this.options.log) this.#abandon();
  }

  #markTransportClosed(): void {
    if (this.#transport.closed) return;
    if (this.#state !== "finished") this.options.owner?.abort(CONNECTION_CLOSED);
    this.#transport.markClosed();
  }

  #done(): void {
    this.stopWaiting();
    this.options.onDone?.();
  }
}
