/**
 * Server-Sent Events: framing and a sink that writes frames into a `ReadableStream` body.
 * The sink notices the client going away both through `cancel()` (Web hosts) and through the
 * request's disconnect signal (h3 v1 on Node never cancels the body stream).
 */

import { Reply } from "../reply.ts";
import type { StoredEvent } from "../stores/types.ts";

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

/** An open SSE body. */
export class SseSink {
  readonly stream: ReadableStream<Uint8Array>;
  /** Aborts when the connection ends, for whatever reason. */
  readonly closed: AbortSignal;
  #controller!: ReadableStreamDefaultController<Uint8Array>;
  #closer = new AbortController();
  #keepAlive: ReturnType<typeof setInterval> | undefined;

  constructor(disconnect: AbortSignal | undefined, keepAliveMs: number) {
    this.closed = this.#closer.signal;
    this.stream = new ReadableStream<Uint8Array>({
      start: (controller) => {
        this.#controller = controller;
      },
      cancel: () => this.#end(),
    });
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

  /** True once the connection is gone or closed. */
  get isClosed(): boolean {
    return this.closed.aborted;
  }

  /** Writes raw SSE text; a no-op once closed. */
  write(text: string): void {
    if (this.closed.aborted) return;
    try {
      this.#controller.enqueue(encoder.encode(text));
    } catch {
      this.#end();
    }
  }

  /** Writes one JSON message as a `message` event, with its event id when it has one. */
  send(message: unknown, id?: string): void {
    this.write(messageFrame(message, id));
  }

  /** Writes stored events again (a resumption's replay); priming events carry no message and are skipped. */
  replay(events: readonly StoredEvent[]): void {
    for (const event of events) if (event.message !== null) this.send(event.message, event.id);
  }

  /** Ends the body. */
  close(): void {
    if (this.closed.aborted) return;
    try {
      this.#controller.close();
    } catch {
      // Already errored or cancelled by the consumer.
    }
    this.#end();
  }

  #end(): void {
    if (this.#keepAlive !== undefined) clearInterval(this.#keepAlive);
    this.#keepAlive = undefined;
    if (!this.closed.aborted) this.#closer.abort();
  }
}
