/**
 * Request bodies on Node (h3 v1, and h3 v2 through srvx): read at most `maxBytes`, and when the
 * body is refused unread (413), let the answer reach the client before the connection closes.
 *
 * Closing a socket with request bytes still unread makes the kernel send a reset, which throws
 * away the answer the client has not read yet: the 413 would be lost. So the rest of a refused
 * body is read and dropped (never buffered) until it ends, or for a bounded number of bytes and
 * time after the answer went out; only then is the connection closed.
 */
import { decodeChunks } from "../engine/inbound.ts";

/** Time after the answer during which the rest of a refused body is always read (the client reads the answer). */
const DRAIN_GRACE_MS = 100;
/** Bytes of a refused body read and dropped, past the grace time, before the connection is closed. */
const DRAIN_MAX_BYTES = 4 * 1024 * 1024;
/** Time after the answer a refused body may keep arriving, before the connection is closed. */
const DRAIN_MAX_MS = 1000;

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
  socket?: { destroy(): void } | null;
  on(event: "data", listener: (chunk: Uint8Array | string) => void): unknown;
  on(event: "end" | "close", listener: () => void): unknown;
  on(event: "error", listener: (error: Error) => void): unknown;
  off(event: "data", listener: (chunk: Uint8Array | string) => void): unknown;
  off(event: "end" | "close", listener: () => void): unknown;
  off(event: "error", listener: (error: Error) => void): unknown;
  pause(): unknown;
  resume(): unknown;
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
   * connection once the answer is flushed and the drain passed its bounds (a short grace time and
   * some MiB, or at most a second). A body that ends within them leaves the connection open.
   */
  drainAfter(res: NodeResponse): void {
    const req = this.#req;
    if (!this.#refused || req.readableEnded || req.destroyed) return;
    let dropped = 0;
    let stopped = false;
    /** When the answer was flushed (0: not yet). */
    let flushedAt = 0;
    let timer: ReturnType<typeof setTimeout> | undefined;
    const close = (): void => {
      stop();
      req.socket?.destroy();
    };
    const stop = (): void => {
      stopped = true;
      res.off("finish", arm);
      if (timer !== undefined) clearTimeout(timer);
      req.off("data", onData);
      req.off("end", stop);
      req.off("close", stop);
      req.off("error", stop);
    };
    // A body whose declared length arrived ends by itself, leaving the connection usable.
    const declared = Number(req.headers["content-length"]);
    const pastBounds = (): boolean =>
      flushedAt > 0 && dropped > DRAIN_MAX_BYTES && Date.now() - flushedAt >= DRAIN_GRACE_MS && !(dropped >= declared);
    const onData = (chunk: Uint8Array | string): void => {
      dropped += chunk.length;
      if (pastBounds()) close();
    };
    req.on("data", onData);
    req.on("end", stop);
    req.on("close", stop);
    req.on("error", stop);
    req.resume();
    function arm(): void {
      if (stopped) return;
      flushedAt = Date.now();
      timer = setTimeout(close, DRAIN_MAX_MS);
      (timer as { unref?: () => void }).unref?.();
    }
    if (res.writableFinished) arm();
    else res.once("finish", arm);
  }
}
