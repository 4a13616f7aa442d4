/**
 * The stream of one response. It starts as a plain JSON answer and upgrades to SSE the first time
 * the handler emits something for the request (progress, a log line, a server→client request).
 * With an event log (legacy sessions) every message gets an id and is kept, so a dropped
 * connection can be resumed with `Last-Event-ID` while the work goes on.
 */
import type { JsonRpcMessage, JsonRpcResponse } from "../protocol/jsonrpc.ts";
import { emptyReply, jsonReply, type Reply } from "../reply.ts";
import type { StoredEvent } from "../stores/types.ts";
import { startWaiting, stopWaiting, type Waiting } from "./keep-alive.ts";
import { SseSink, primingFrame, sseReply } from "./sse.ts";

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
}

type Task = () => void | Promise<void>;

/** Something to abort when the response connection closes (a request context). */
export interface CloseWatcher {
  abort(reason?: unknown): void;
}

/** The reason given to watchers when the client went away. */
const CONNECTION_CLOSED = new Error("The client closed the connection");

export class ResponseChannel implements Waiting {
  readonly since: number = Date.now();
  readonly keepAliveMs: number;
  waitPrev: Waiting | undefined = undefined;
  waitNext: Waiting | undefined = undefined;
  waitListed = false;
  /** Resolves with the HTTP answer: on the SSE upgrade, or with the JSON result. */
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
  #replied = false;
  #finished = false;

  constructor(options: ChannelOptions) {
    this.#options = options;
    this.keepAliveMs = options.keepAliveMs;
    if (options.canStream && options.keepAliveMs > 0) startWaiting(this);
  }

  /**
   * The HTTP answer: the SSE upgrade, or the JSON result. Already there when the handler finished
   * synchronously, so the common case needs no promise of its own.
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
    return this.#options.canStream && !this.#finished && (this.#options.log !== undefined || !this.#transportClosed);
  }

  /** The response waited a keep-alive interval without a message: open the stream so it can carry keep-alives. */
  overdue(): void {
    if (!this.#replied && !this.#finished) void this.open();
  }

  /** Sends a notification or request related to this response; upgrades to SSE first. */
  send(message: JsonRpcMessage): Promise<void> {
    if (!this.canSend) return Promise.resolve();
    return this.#enqueue(async () => {
      await this.#upgrade();
      await this.#deliver(message);
    });
  }

  /** Opens the SSE stream now (a standalone GET stream, or before closing for polling). */
  open(): Promise<void> {
    return this.#enqueue(() => this.#upgrade());
  }

  /**
   * Ends the response with its final message; `undefined` ends it without one (cancelled).
   * `status` applies only when the answer is still a plain JSON response.
   */
  finish(message: JsonRpcResponse | undefined, status = 200): Promise<void> {
    if (this.#finished) return Promise.resolve();
    // The common case, a plain JSON answer with nothing queued, needs no trip through the queue.
    if (this.#queued === 0 && !this.#replied) {
      this.#answerJson(message, status);
      return Promise.resolve();
    }
    return this.#enqueue(async () => {
      if (this.#finished) return;
      if (!this.#replied) {
        this.#answerJson(message, status);
        return;
      }
      this.#finished = true;
      if (message !== undefined) await this.#deliver(message);
      this.#sink?.close();
      this.#done();
    });
  }

  #answerJson(message: JsonRpcResponse | undefined, status: number): void {
    this.#finished = true;
    this.#replied = true;
    stopWaiting(this);
    this.#settleReply(
      message === undefined ? this.#endedWithoutAnswer() : jsonReply(status, message, this.#options.headers),
    );
    this.#done();
  }

  /** Closes the connection but not the stream: the client resumes with `Last-Event-ID` (SSE polling). */
  closeConnection(): Promise<void> {
    if (!this.#options.log || this.#finished) return Promise.resolve();
    return this.#enqueue(async () => {
      await this.#upgrade();
      this.#sink?.close();
    });
  }

  /**
   * Continues this stream on a new connection: writes the given replayed events, then every later
   * message. Runs in order with sends, so no event is lost or written twice.
   */
  resume(sink: SseSink, replay: () => Promise<StoredEvent[]>): Promise<void> {
    return this.#enqueue(async () => {
      const events = await replay();
      sink.replay(events);
      if (this.#finished) {
        sink.close();
        return;
      }
      this.#sink?.close();
      this.#sink = sink;
      sink.closed.addEventListener("abort", () => this.#sinkClosed(sink), { once: true });
    });
  }

  /**
   * The HTTP answer of a request that ends without a response (cancelled). Clients expect JSON or
   * SSE for a request, so a streaming client gets an empty event stream; it carries no event id,
   * so nothing invites a reconnection.
   */
  #endedWithoutAnswer(): Reply {
    return this.#options.canStream ? sseReply("", this.#options.headers) : emptyReply(204, this.#options.headers);
  }

  #enqueue(task: Task): Promise<void> {
    this.#queued += 1;
    const next = (this.#tail ?? Promise.resolve()).then(task).finally(() => (this.#queued -= 1));
    this.#tail = next.catch(() => {});
    return next;
  }

  async #upgrade(): Promise<void> {
    if (this.#replied) return;
    this.#replied = true;
    stopWaiting(this);
    const sink = new SseSink(undefined, this.#options.keepAliveMs);
    this.#sink = sink;
    this.#originalSink = sink;
    sink.closed.addEventListener("abort", () => this.#sinkClosed(sink), { once: true });
    this.#settleReply(sseReply(sink.stream, this.#options.headers));
    const log = this.#options.log;
    if (log?.priming) sink.write(primingFrame(await log.append(null), log.retryMs));
  }

  async #deliver(message: JsonRpcMessage): Promise<void> {
    const log = this.#options.log;
    if (log) {
      const id = await log.append(message);
      this.#sink?.send(message, id);
    } else {
      this.#sink?.send(message);
    }
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
    if (!this.#options.log && !this.#finished) {
      this.#finished = true;
      this.#done();
    }
  }

  #sinkClosed(sink: SseSink): void {
    if (this.#sink !== sink) return;
    this.#sink = undefined;
    this.#markTransportClosed();
  }

  #markTransportClosed(): void {
    if (this.#transportClosed) return;
    this.#transportClosed = true;
    this.#transport?.abort(CONNECTION_CLOSED);
    const watchers = this.#watchers;
    this.#watchers = undefined;
    if (watchers) for (const watcher of watchers) watcher.abort(CONNECTION_CLOSED);
  }

  #done(): void {
    stopWaiting(this);
    this.#options.onDone?.();
  }
}
