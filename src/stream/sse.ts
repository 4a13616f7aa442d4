/**
 * Server-Sent Events: framing and a sink that writes frames into a `ReadableStream` body.
 * The sink notices the client going away both through `cancel()` (Web hosts) and through the
 * request's disconnect signal (h3 v1 on Node never cancels the body stream).
 *
 * A sink holds at most `maxBufferBytes` that its client has not read: the hosts read the body only
 * as fast as the socket drains, so a client that stops reading makes the queue grow, and past the
 * bound the stream is errored (the queue is dropped at once and the host closes the connection).
 *
 * Writes are batched per turn of the event loop: the first write after a quiet turn goes out at
 * once, and what follows it in the same turn is joined into one chunk, handed over when the turn
 * ends. Each chunk costs an allocation and a host write, whatever its size: a tool emitting
 * progress in a loop went from about 170,000 to 280,000 notifications/s with batching (`npm run
 * bench`, streaming), and the host writes to its socket once per turn instead of once per event.
 */

import type { Incidents } from "../http/incidents.ts";
import { Reply } from "../http/reply.ts";
import type { StoredEvent } from "../types/stores.ts";
import { afterTurn } from "./turns.ts";
import { armExpiry } from "./expiry.ts";

const encoder = new TextEncoder();

/** Headers of every SSE response. */
const SSE_HEADERS: Readonly<Record<string, string>> = {
  "content-type": "text/event-stream",
  "cache-control": "no-cache, no-transform",
  connection: "keep-alive",
  "x-accel-buffering": "no",
};

/** A 200 answer with an SSE body (`""`: an event stream with no event); `headers` are added to the SSE ones. */
export function sseReply(body: ReadableStream<Uint8Array> | "", headers?: Readonly<Record<string, string>>): Reply {
  return new Reply(200, { ...SSE_HEADERS, ...headers }, body);
}

/** One `message` event carrying a JSON message: one `data:` line, as JSON text has no line breaks. */
export function messageFrame(message: unknown, id?: string): string {
  return `event: message\n${id === undefined ? "" : `id: ${id}\n`}data: ${JSON.stringify(message)}\n\n`;
}

/** The priming event of 2025-11-25 streams: an id, the reconnection delay and empty data. */
export function primingFrame(id: string, retryMs: number): string {
  return `id: ${id}\nretry: ${retryMs}\ndata: \n\n`;
}

/** The bound of a sink's unread bytes when its creator gives none (the `maxStreamBufferBytes` default). */
export const DEFAULT_MAX_BUFFER_BYTES = 1024 * 1024;

/** How much a sink may hold for a client that does not read, and where a slow reader is counted. */
export interface SinkLimits {
  readonly maxBufferBytes: number;
  readonly incidents?: Incidents;
}

/** The queue counts bytes; a high-water mark of 0 makes `desiredSize` the negated bytes queued. */
const BYTES_QUEUED: QueuingStrategy<Uint8Array> = { highWaterMark: 0, size: (chunk) => chunk.byteLength };

/** An open SSE body. */
export class SseSink {
  readonly stream: ReadableStream<Uint8Array>;
  /** Aborts when the connection ends, for whatever reason. */
  readonly closed: AbortSignal;
  #controller!: ReadableStreamDefaultController<Uint8Array>;
  #closer = new AbortController();
  #keepAlive: ReturnType<typeof setInterval> | undefined;
  /** Clears the timer that closes this connection when its token expires (see {@link SseSink.closeAt}). */
  #clearExpiry: (() => void) | undefined;
  /** Most unread bytes; grows by what a replay writes (the event log holds those anyway). */
  #maxQueued: number;
  #incidents: Incidents | undefined;
  /** Text written in this turn after its first write, handed over when the turn ends. */
  #pending = "";
  /** True while a turn that wrote is not over: later writes of it wait in `#pending`. */
  #batching = false;

  constructor(disconnect: AbortSignal | undefined, keepAliveMs: number, limits?: SinkLimits) {
    this.closed = this.#closer.signal;
    this.#maxQueued = limits?.maxBufferBytes ?? DEFAULT_MAX_BUFFER_BYTES;
    this.#incidents = limits?.incidents;
    this.stream = new ReadableStream<Uint8Array>(
      {
        start: (controller) => {
          this.#controller = controller;
        },
        cancel: () => this.#end(),
      },
      BYTES_QUEUED,
    );
    if (disconnect) {
      if (disconnect.aborted) this.#end();
      else disconnect.addEventListener("abort", () => this.close(), { once: true });
    }
    // A first byte at once: hosts that send the head with the first body chunk (srvx on Node) send it now.
    this.write(": open\n\n");
    if (keepAliveMs > 0 && !this.closed.aborted) {
      this.#keepAlive = setInterval(() => this.write(": keepalive\n\n"), keepAliveMs);
      // Do not keep a Node process alive for an idle stream's timer.
      (this.#keepAlive as { unref?: () => void }).unref?.();
    }
  }

  /** Bytes written that the host has not taken yet. */
  get queuedBytes(): number {
    // `desiredSize` is minus the bytes queued (high-water mark 0); null once errored.
    // Pending text is counted by its length (its UTF-8 size for ASCII, which JSON mostly is).
    return this.closed.aborted ? 0 : this.#pending.length - (this.#controller.desiredSize ?? 0);
  }

  /**
   * True when half the bound is waiting: a writer that can wait should let the host run (one turn
   * of the event loop) before writing more. A client that reads keeps the queue below the bound
   * that way, however fast its handler emits; one that does not read still reaches it.
   */
  get pressed(): boolean {
    return this.queuedBytes * 2 > this.#maxQueued;
  }

  /** True once the connection is gone or closed. */
  get isClosed(): boolean {
    return this.closed.aborted;
  }

  /** Writes raw SSE text; a no-op once closed. Past the unread-bytes bound the stream is closed. */
  write(text: string): void {
    if (this.closed.aborted) return;
    if (this.#batching) {
      this.#pending += text;
    } else {
      this.#batching = true;
      afterTurn(() => this.#endOfTurn());
      this.#enqueue(text);
    }
    if (this.queuedBytes > this.#maxQueued) this.#overflow();
  }

  /** The turn that wrote is over: its later writes go out as one chunk. */
  #endOfTurn(): void {
    this.#batching = false;
    this.#flush();
  }

  #flush(): void {
    if (this.#pending === "") return;
    const text = this.#pending;
    this.#pending = "";
    this.#enqueue(text);
  }

  #enqueue(text: string): void {
    if (this.closed.aborted) return;
    try {
      this.#controller.enqueue(encoder.encode(text));
    } catch {
      this.#end();
    }
  }

  /** The client does not read: drop what is queued and end the connection. */
  #overflow(): void {
    const error = new Error(
      `The client did not read its event stream: more than ${this.#maxQueued} bytes were waiting (maxStreamBufferBytes)`,
    );
    this.#incidents?.record("slow_reader_closed", error);
    try {
      this.#controller.error(error);
    } catch {
      // Already closed.
    }
    this.#end();
  }

  /** Writes one JSON message as a `message` event, with its event id when it has one. */
  send(message: unknown, id?: string): void {
    this.write(messageFrame(message, id));
  }

  /**
   * Writes a message that echoes what the client itself sent (a listen's acknowledgement, at most
   * `maxBodyBytes`): like a replay, its bytes are added to the bound, so a large filter is not taken
   * for a client that does not read. Everything after it is bounded as before.
   */
  sendEcho(message: unknown): void {
    const frame = messageFrame(message);
    // Its UTF-8 size, as the queue counts it (URIs may be non-ASCII); encoded once more, once per stream.
    this.#maxQueued += encoder.encode(frame).byteLength;
    this.write(frame);
  }

  /** Writes stored events again (a resumption's replay); priming events carry no message and are skipped. */
  replay(events: readonly StoredEvent[]): void {
    for (const event of events) {
      if (event.message === null) continue;
      const frame = messageFrame(event.message, event.id);
      // A replay is written at once; its bytes do not count against the bound (the log keeps them).
      this.#maxQueued += frame.length * 3;
      this.write(frame);
    }
  }

  /**
   * Closes this connection at `atMs` (ms since the epoch: the expiry of the token that opened it),
   * by `close` (default: at once); undefined sets no timer. One timer per connection, cleared on
   * every way it closes.
   */
  closeAt(atMs: number | undefined, close: () => void = () => this.close()): void {
    if (atMs === undefined || this.closed.aborted) return;
    this.#clearExpiry?.();
    this.#clearExpiry = armExpiry(atMs, () => {
      this.#clearExpiry = undefined;
      close();
    });
  }

  /** Ends the body. */
  close(): void {
    if (this.closed.aborted) return;
    this.#flush();
    try {
      this.#controller.close();
    } catch {
      // Already errored or cancelled by the consumer.
    }
    this.#end();
  }

  #end(): void {
    this.#pending = "";
    if (this.#keepAlive !== undefined) clearInterval(this.#keepAlive);
    this.#keepAlive = undefined;
    this.#clearExpiry?.();
    this.#clearExpiry = undefined;
    if (!this.closed.aborted) this.#closer.abort();
  }
}
