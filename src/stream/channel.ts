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
import type { JsonRpcMessage, JsonRpcResponse } from "../protocol/jsonrpc.ts";
import type { Reply } from "../http/reply.ts";
import { endedWithoutAnswer, jsonAnswer, OnceReply } from "./answers.ts";
import { appendOrReport, markStart, responseSink, sendMessage, writeInLogOrder } from "./delivery.ts";
import type { StoredEvent } from "../types/stores.ts";
import { startWaiting, stopWaiting, type Waiting } from "./keep-alive.ts";
import type { ChannelOptions, ChannelState, CloseWatcher, StreamForward } from "./channel-options.ts";
import { sseReply, type SseSink } from "./sse.ts";
import { ForwardSlot } from "./forward-slot.ts";
import { TaskQueue } from "./task-queue.ts";
import { nextTurn } from "./turns.ts";
import { CONNECTION_CLOSED, Transport } from "./transport.ts";

export class ResponseChannel implements Waiting {
  readonly since: number = Date.now();
  readonly keepAliveMs: number;
  waitPrev: Waiting | undefined = undefined;
  waitNext: Waiting | undefined = undefined;
  waitListed = false;
  #state: ChannelState = "waiting";
  /** The HTTP answer, given once. */
  readonly #reply = new OnceReply();
  #options: ChannelOptions;
  #sink: SseSink | undefined;
  /** The sink of the original response; the request's disconnect closes only this one. */
  #originalSink: SseSink | undefined;
  /** The response connection; a resumable stream goes on without it. */
  #transport: Transport;
  /** Sends, the upgrade and the end, in order; a failing event log is reported, never passed on. */
  readonly #queue: TaskQueue;
  /** Another instance serving this stream's client, which every kept event goes to. */
  readonly #forward = new ForwardSlot();

  constructor(options: ChannelOptions) {
    this.#options = options;
    this.keepAliveMs = options.keepAliveMs;
    this.#queue = new TaskQueue((error) => options.incidents?.record("background_failure", error));
    this.#transport = new Transport(
      () => options.inbound.disconnect,
      () => this.#connectionClosed(),
    );
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
      this.#options.canStream &&
      this.#state !== "finished" &&
      (this.#options.log !== undefined || !this.#transport.closed)
    );
  }

  /** The response waited a keep-alive interval without a message: open the stream so it can carry keep-alives. */
  overdue(): void {
    if (this.#state === "waiting") this.#queue.post(() => this.#upgrade());
  }

  /** Sends a notification or request related to this response; upgrades to SSE first. Never rejects. */
  send(message: JsonRpcMessage): Promise<void> {
    if (!this.canSend) return Promise.resolve();
    return this.#queue.run(async () => {
      if (this.#state === "finished") return;
      await this.#upgrade();
      await this.#deliver(message);
      // A handler emitting in a tight loop must let the host write to the socket: without a turn of
      // the event loop nothing drains, and a reading client would look like one that does not read.
      if (this.#sink?.pressed) await nextTurn();
    });
  }

  /**
   * Sends an event another instance already kept in this stream's log, with its id (it is not
   * logged again). Runs in order with sends. Never rejects.
   */
  sendKept(event: StoredEvent): Promise<void> {
    if (!this.canSend || event.message === null) return Promise.resolve();
    const message = event.message;
    return this.#queue.run(async () => {
      if (this.#state === "finished") return;
      await this.#upgrade();
      await this.#write(event.id, message);
    });
  }

  /**
   * From now on hands every event to `forward` (the stream was resumed on another instance); the
   * connection here, if any, closes, and a former follower is told that nothing more comes. False
   * when the stream has finished. Never rejects.
   */
  async forwardTo(forward: StreamForward): Promise<boolean> {
    let taken = false;
    await this.#queue.run(() => {
      if (this.#state === "finished") return;
      taken = true;
      this.#forward.take(forward);
      this.#sink?.close();
    });
    return taken;
  }

  /** True while another instance serves this stream's client (see {@link ResponseChannel.forwardTo}). */
  get forwarded(): boolean {
    return this.#forward.active;
  }

  /** Stops handing events to the follower named `key` (its client went away); they stay in the log. */
  unforward(key: string): void {
    this.#forward.release(key);
  }

  /** Opens the SSE stream now (a standalone GET stream, or before closing for polling). Never rejects. */
  open(): Promise<void> {
    return this.#queue.run(() => this.#upgrade());
  }

  /**
   * Ends the response with its final message; `undefined` ends it without one (cancelled).
   * `status` applies only when the answer is still a plain JSON response. Never rejects.
   */
  finish(message: JsonRpcResponse | undefined, status = 200): Promise<void> {
    if (this.#state === "finished") return Promise.resolve();
    // The common case, a plain JSON answer with nothing queued, needs no trip through the queue.
    if (this.#queue.pending === 0 && this.#state === "waiting") {
      this.#answer(message, status);
      return Promise.resolve();
    }
    return this.#queue.run(async () => {
      if (this.#state === "waiting") this.#answer(message, status);
      else if (this.#state === "streaming") await this.#finishStream(message);
    });
  }

  /** waiting → finished: the JSON answer, or an empty one when there is no message. */
  #answer(message: JsonRpcResponse | undefined, status: number): void {
    this.#state = "finished";
    const { canStream, headers } = this.#options;
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
      // A final message went to the follower like any event; without one it must hear of the end.
      this.#forward.letGo(message === undefined);
      this.#done();
    }
  }

  /** Closes the connection but not the stream: the client resumes with `Last-Event-ID` (SSE polling). */
  closeConnection(): void {
    if (!this.#options.log || this.#state === "finished") return;
    this.#queue.post(async () => {
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
    return this.#queue.run(async () => {
      let events: StoredEvent[];
      try {
        events = await replay();
      } catch (error) {
        sink.close();
        throw error;
      }
      sink.replay(events);
      // The client is back here: a follower elsewhere gets nothing more.
      this.#forward.letGo(true);
      const last = events.at(-1);
      if (last) this.#options.log?.written?.(last.id);
      if (this.#state === "finished") {
        sink.close();
        return;
      }
      if (this.#state === "waiting") this.#adopt(sink);
      this.#sink?.close();
      this.#sink = sink;
      sink.closed.addEventListener("abort", () => this.#sinkClosed(sink), { once: true });
    });
  }

  /**
   * waiting → streaming on a resuming connection's sink (a stream taken over from another
   * instance): the sink's body is the answer, and no priming event is written before the replay.
   */
  #adopt(sink: SseSink): void {
    this.#state = "streaming";
    stopWaiting(this);
    this.#originalSink = sink;
    this.#reply.settle(sseReply(sink.stream, this.#options.headers));
  }

  /** waiting → streaming: the SSE answer, with the start of a resumable stream (see `markStart`). */
  async #upgrade(): Promise<void> {
    if (this.#state !== "waiting") return;
    this.#state = "streaming";
    stopWaiting(this);
    const options = this.#options;
    const sink = responseSink(options);
    this.#sink = sink;
    this.#originalSink = sink;
    sink.closed.addEventListener("abort", () => this.#sinkClosed(sink), { once: true });
    // The token that opened this response expiring ends its connection as a disconnect would: a
    // resumable stream goes on in its log (a fresh token resumes it), any other one is abandoned
    // and its call cancelled. Queued, so that a priming event being kept is written first.
    sink.closeAt(options.expiresAtMs, () => this.#queue.post(() => sink.close()));
    this.#reply.settle(sseReply(sink.stream, options.headers));
    if (options.log) await markStart(sink, options.log, options.incidents);
    // Opened after the expiry (a call's first message, or its keep-alive): nothing more goes out on it.
    if (options.expiresAtMs !== undefined && options.expiresAtMs <= Date.now()) sink.close();
  }

  /** Logs (when resumable) and writes one message; a failing log still lets the live client have it. */
  async #deliver(message: JsonRpcMessage): Promise<void> {
    const log = this.#options.log;
    // Without a log the message is written in this turn, with no await in between.
    const id = log && (await appendOrReport(log, message, this.#options.incidents));
    if (id !== undefined) this.#forward.event(id, message);
    if (id !== undefined && log!.order) return this.#write(id, message);
    if (this.#sink) sendMessage(this.#sink, message, id);
  }

  #write(id: string, message: JsonRpcMessage): Promise<void> {
    return writeInLogOrder(this.#options.log, id, message, () => this.#sink);
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
    this.#forward.letGo(true);
    this.#done();
  }

  #sinkClosed(sink: SseSink): void {
    if (this.#sink !== sink) return;
    this.#sink = undefined;
    this.#markTransportClosed();
    if (!this.#options.log) this.#abandon();
  }

  #markTransportClosed(): void {
    if (this.#transport.closed) return;
    if (this.#state !== "finished") this.#options.owner?.abort(CONNECTION_CLOSED);
    this.#transport.markClosed();
  }

  #done(): void {
    stopWaiting(this);
    this.#options.onDone?.();
  }
}
