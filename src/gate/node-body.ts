/**
 * Request bodies on Node (h3 v1, and h3 v2 through srvx): read at most `maxBytes`, and when the
 * body is refused unread (413), let the answer reach the client before the connection closes.
 *
 * Closing a socket with request bytes still unread makes the kernel send a reset, which can throw
 * away the answer before the client has read it: the 413 would be lost. So the rest of a refused
 * body is read and dropped (never buffered) until it ends, within two bounds: at most
 * `maxBytes` + {@link DRAIN_EXTRA_BYTES} bytes, and {@link DRAIN_MAX_MS} after the answer went
 * out. Past either the connection is closed. A body that ends within them leaves the connection
 * open (or closes it cleanly, without a reset, when the request asked for `Connection: close`).
 */
import { decodeChunks } from "../http/inbound.ts";

/** Bytes of a refused body read and dropped beyond `maxBytes`, before the connection is closed. */
export const DRAIN_EXTRA_BYTES = 4 * 1024 * 1024;
/** Time after the answer during which the rest of a refused body may arrive, before the connection is closed. */
export const DRAIN_MAX_MS = 2000;

/** What went wrong when a body could not be read: the client went away (or the host failed). */
export class BodyReadError extends Error {
  constructor(cause: unknown) {
    super("The request body could not be read: the client closed the connection", { cause });
    this.name = "BodyReadError";
  }
}

/**
 * The members of Node's `IncomingMessage` this module uses, plus what mocked hosts (edge presets of
 * Nitro) attach. Typed by shape, so the core imports nothing of Node (architecture §1): only the
 * adapter (`h3.ts`) ever hands one in.
 */
export interface NodeRequest {
  body?: unknown;
  headers: Record<string, string | string[] | undefined>;
  readableEnded: boolean;
  destroyed: boolean;
  errored: Error | null;
  socket?: NodeSocket | null;
  on(event: "data", listener: (chunk: Uint8Array | string) => void): unknown;
  on(event: "end" | "close", listener: () => void): unknown;
  on(event: "error", listener: (error: Error) => void): unknown;
  off(event: "data", listener: (chunk: Uint8Array | string) => void): unknown;
  off(event: "end" | "close", listener: () => void): unknown;
  off(event: "error", listener: (error: Error) => void): unknown;
  pause(): unknown;
  resume(): unknown;
}

/** The members of Node's `Socket` this module uses. */
export interface NodeSocket {
  destroy(): void;
  end(): unknown;
  /** What Node's HTTP server calls once the last answer of a connection is written. */
  destroySoon?: () => void;
}

/** The members of Node's `ServerResponse` this module uses. */
export interface NodeResponse {
  writableFinished: boolean;
  once(event: "finish", listener: () => void): unknown;
  off(event: "finish", listener: () => void): unknown;
}

/** The body of one Node request. */
export class NodeBody {
  readonly #req: NodeRequest;
  /** True once the body was refused without being read to its end. */
  #refused = false;
  /** The limit the body was refused at. */
  #maxBytes = 0;

  constructor(req: NodeRequest) {
    this.#req = req;
  }

  /** True when the body was refused (too large) and part of it may still be on the wire. */
  get refused(): boolean {
    return this.#refused;
  }

  /** Reads the body as text; `undefined` past `maxBytes`. Rejects with a {@link BodyReadError}. */
  read(maxBytes: number): Promise<string | undefined> {
    const req = this.#req;
    // Mocked requests carry the body ready-made.
    const ready = req.body;
    if (typeof ready === "string") {
      return Promise.resolve(new TextEncoder().encode(ready).byteLength > maxBytes ? undefined : ready);
    }
    if (ready instanceof Uint8Array) {
      return Promise.resolve(ready.byteLength > maxBytes ? undefined : decodeChunks([ready], ready.byteLength));
    }
    this.#maxBytes = maxBytes;
    if (Number(req.headers["content-length"]) > maxBytes) {
      this.#refused = true;
      return Promise.resolve(undefined);
    }
    if (req.readableEnded) return Promise.resolve("");
    if (req.destroyed) return Promise.reject(new BodyReadError(req.errored));
    return this.#stream(maxBytes);
  }

  #stream(maxBytes: number): Promise<string | undefined> {
    const req = this.#req;
    return new Promise((resolve, reject) => {
      const chunks: Uint8Array[] = [];
      let size = 0;
      const cleanup = (): void => {
        req.off("data", onData);
        req.off("end", onEnd);
        req.off("error", onError);
        req.off("close", onClose);
      };
      const onData = (chunk: Uint8Array | string): void => {
        const bytes = typeof chunk === "string" ? new TextEncoder().encode(chunk) : chunk;
        size += bytes.byteLength;
        if (size > maxBytes) {
          // Stop buffering: the rest is drained once the 413 went out.
          cleanup();
          this.#refused = true;
          req.pause();
          resolve(undefined);
          return;
        }
        chunks.push(bytes);
      };
      const onEnd = (): void => {
        cleanup();
        resolve(decodeChunks(chunks, size));
      };
      const onError = (error: Error): void => {
        cleanup();
        reject(new BodyReadError(error));
      };
      // A connection that closes without `end` (and, on some Node versions, without `error`).
      const onClose = (): void => {
        cleanup();
        reject(new BodyReadError(req.errored));
      };
      req.on("data", onData);
      req.on("end", onEnd);
      req.on("error", onError);
      req.on("close", onClose);
    });
  }

  /**
   * After the answer to a refused body: drops the rest of the body as it arrives, and closes the
   * connection once the body ended, or past the bounds (`maxBytes` + {@link DRAIN_EXTRA_BYTES}
   * dropped, or {@link DRAIN_MAX_MS} after the answer was flushed). Call it before the answer is
   * written, or in the same tick.
   */
  drainAfter(res: NodeResponse): void {
    const req = this.#req;
    const socket = req.socket;
    if (!this.#refused || req.readableEnded || req.destroyed || !socket) return;
    const maxDropped = this.#maxBytes + DRAIN_EXTRA_BYTES;
    let dropped = 0;
    let stopped = false;
    let timer: ReturnType<typeof setTimeout> | undefined;
    // Node closes a connection whose request said `Connection: close` (or is HTTP/1.0) as soon as
    // the answer is written: with the body still arriving, that close is a reset, and the client,
    // still writing, may get EPIPE before it read the 413 (1 to 3 runs of 20 in
    // test/hostile/body-drain.test.ts). Until the drain is over that close only ends the writing
    // side (the client sees the answer, then the end); the drain closes the rest.
    const nodeClose = Object.hasOwn(socket, "destroySoon") ? socket.destroySoon : undefined;
    let closeAsked = false;
    socket.destroySoon = (): void => {
      closeAsked = true;
      socket.end();
    };
    const giveBackClose = (): void => {
      if (nodeClose) socket.destroySoon = nodeClose;
      else delete socket.destroySoon;
    };
    const close = (): void => {
      stop();
      socket.destroy();
    };
    const stop = (): void => {
      if (stopped) return;
      stopped = true;
      res.off("finish", arm);
      if (timer !== undefined) clearTimeout(timer);
      req.off("data", onData);
      req.off("end", onEnd);
      req.off("close", stop);
      req.off("error", stop);
      giveBackClose();
    };
    // The whole body was read: nothing is left unread, so the close Node asked for is clean.
    const onEnd = (): void => {
      stop();
      if (closeAsked) socket.destroySoon?.();
    };
    const onData = (chunk: Uint8Array | string): void => {
      dropped += chunk.length;
      if (dropped > maxDropped) close();
    };
    req.on("data", onData);
    req.on("end", onEnd);
    req.on("close", stop);
    req.on("error", stop);
    req.resume();
    function arm(): void {
      if (stopped) return;
      timer = setTimeout(close, DRAIN_MAX_MS);
      (timer as { unref?: () => void }).unref?.();
    }
    if (res.writableFinished) arm();
    else res.once("finish", arm);
  }
}
