/**
 * Bodies `fetch` cannot send the way an attacker does: a huge body written chunk by chunk (with or
 * without a Content-Length), one trickled byte by byte, one cut off mid-way.
 */
import { request as httpRequest, type ClientRequest, type IncomingMessage } from "node:http";

/** What came back for a raw POST. */
export interface RawAnswer {
  status: number;
  headers: IncomingMessage["headers"];
  text: string;
  /** Body bytes written before the answer arrived (or the connection broke). */
  written: number;
}

export interface RawPostOptions {
  headers: Record<string, string>;
  /** Total body size to write. */
  totalBytes: number;
  /** Declares the size in Content-Length; otherwise the body goes chunked. */
  contentLength: boolean;
  /** Size of each write (one buffer, reused: the client holds no more than this). */
  chunkBytes?: number;
  /** Wait between writes, in ms (0: as fast as the socket drains). */
  delayMs?: number;
  /** Gives up (rejecting) past this time. */
  timeoutMs?: number;
  /** Character that fills the body (default a space: JSON whitespace). */
  fill?: string;
  /** Text written after the fill (e.g. a JSON-RPC message after leading whitespace). */
  tail?: string;
}

/** POSTs a body of `totalBytes`, stopping the writes as soon as the server answers. */
export function rawPost(url: string, options: RawPostOptions): Promise<RawAnswer> {
  const { totalBytes, contentLength, chunkBytes = 64 * 1024, delayMs = 0, timeoutMs = 30_000 } = options;
  const headers: Record<string, string> = { ...options.headers };
  const tail = Buffer.from(options.tail ?? "");
  if (contentLength) headers["content-length"] = String(totalBytes + tail.byteLength);
  else headers["transfer-encoding"] = "chunked";
  const chunk = Buffer.alloc(chunkBytes, options.fill ?? " ");
  return new Promise((resolve, reject) => {
    let written = 0;
    let answered = false;
    const timer = setTimeout(() => {
      request.destroy();
      reject(new Error(`no answer within ${timeoutMs} ms (${written} bytes written)`));
    }, timeoutMs);
    const request: ClientRequest = httpRequest(url, { method: "POST", headers }, (response) => {
      answered = true;
      const chunks: Buffer[] = [];
      response.on("data", (data: Buffer) => chunks.push(data));
      response.on("end", () => {
        clearTimeout(timer);
        request.destroy();
        resolve({
          status: response.statusCode ?? 0,
          headers: response.headers,
          text: Buffer.concat(chunks).toString(),
          written,
        });
      });
      response.on("error", () => {});
    });
    // A server that answers early and closes makes later writes fail: that is the point, not an error.
    request.on("error", (error) => {
      if (!answered) {
        clearTimeout(timer);
        reject(error);
      }
    });
    const writeMore = (): void => {
      while (!answered && written < totalBytes) {
        const size = Math.min(chunkBytes, totalBytes - written);
        const ok = request.write(size === chunkBytes ? chunk : chunk.subarray(0, size));
        written += size;
        if (delayMs > 0) {
          setTimeout(writeMore, delayMs);
          return;
        }
        if (!ok) {
          request.once("drain", writeMore);
          return;
        }
      }
      if (!answered) request.end(tail);
    };
    writeMore();
  });
}

/** Starts a POST declaring `declaredBytes`, writes `sentBytes` of it, then drops the connection. */
export function abortMidBody(
  url: string,
  headers: Record<string, string>,
  declaredBytes: number,
  sentBytes: number,
): Promise<void> {
  return new Promise((resolve) => {
    const request = httpRequest(url, {
      method: "POST",
      headers: { ...headers, "content-length": String(declaredBytes) },
    });
    request.on("error", () => {});
    request.write(Buffer.alloc(sentBytes, " "), () => {
      setTimeout(() => {
        request.destroy();
        resolve();
      }, 50);
    });
  });
}
