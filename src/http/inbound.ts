/**
 * The engine's view of an HTTP request: just what it reads, so that each host adapter can
 * supply it cheaply (a Web `Request` on h3 v2 and fetch runtimes, a Node request on h3 v1).
 */
export interface Inbound {
  /** Upper-case HTTP method. */
  readonly method: string;
  /** Full request URL (used for the `?lastEventId=` query). */
  readonly url: string;
  /** A header value by lower-case name, or null. */
  header(name: string): string | null;
  /**
   * Reads the body as text, stopping as soon as more than `maxBytes` arrived.
   * Returns `undefined` when the body is larger than that; rejects when the body cannot be read
   * (the client went away mid-body), which the engine answers and counts as `client_aborted`.
   */
  readText(maxBytes: number): Promise<string | undefined>;
  /** Aborts when the client goes away. */
  readonly disconnect: AbortSignal;
}

const decoder = new TextDecoder();

/** Reads a Web byte stream as UTF-8 text, giving up (and cancelling the stream) past `maxBytes`. */
export async function readStreamLimited(
  body: ReadableStream<Uint8Array> | null,
  maxBytes: number,
): Promise<string | undefined> {
  if (!body) return "";
  const reader = body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.byteLength;
    if (size > maxBytes) {
      // Stop reading: the rest of an oversized body is never buffered.
      await reader.cancel().catch(() => {});
      return undefined;
    }
    chunks.push(value);
  }
  return decodeChunks(chunks, size);
}

/** Decodes UTF-8 text that arrived in `chunks` of `size` bytes in all. */
export function decodeChunks(chunks: readonly Uint8Array[], size: number): string {
  if (chunks.length === 1) return decoder.decode(chunks[0]);
  const all = new Uint8Array(size);
  let offset = 0;
  for (const chunk of chunks) {
    all.set(chunk, offset);
    offset += chunk.byteLength;
  }
  return decoder.decode(all);
}

/** Header values by lower-case name, as Node's `IncomingMessage.headers` holds them. */
export type HeaderRecord = Readonly<Record<string, string | string[] | undefined>>;

/** A Web `Request` (h3 v2, Workers, Deno, Bun) as the engine reads it. */
class WebInbound implements Inbound {
  readonly method: string;
  #request: Request;
  #headers: HeaderRecord | undefined;
  #readBody: ((maxBytes: number) => Promise<string | undefined>) | undefined;

  constructor(
    request: Request,
    headers: HeaderRecord | undefined,
    readBody: ((maxBytes: number) => Promise<string | undefined>) | undefined,
  ) {
    this.#request = request;
    this.#headers = headers;
    this.#readBody = readBody;
    this.method = request.method;
  }

  // Read lazily: some hosts compute these on every access (undici serializes the URL each time)
  // or build them on first access (the abort signal), and most requests never need them.
  get url(): string {
    return this.#request.url;
  }

  get disconnect(): AbortSignal {
    return this.#request.signal;
  }

  header(name: string): string | null {
    const headers = this.#headers;
    if (headers === undefined) return this.#request.headers.get(name);
    const value = headers[name];
    if (value === undefined) return null;
    return typeof value === "string" ? value : value.join(", ");
  }

  readText(maxBytes: number): Promise<string | undefined> {
    if (this.#readBody) return this.#readBody(maxBytes);
    const request = this.#request;
    const declared = this.header("content-length");
    const length = declared === null ? Number.NaN : Number(declared);
    if (length > maxBytes) return Promise.resolve(undefined);
    // A declared length within the limit: the host reads and checks it natively, which is faster.
    if (length >= 0) return request.text();
    return readStreamLimited(request.body, maxBytes);
  }
}

/**
 * Adapts a Web `Request` (h3 v2, Workers, Deno, Bun). `headers`, when the host has them already
 * parsed (srvx on Node keeps the Node request's), are read instead of the `Request`'s: a plain
 * lookup where the `Headers` wrapper lower-cases and validates every name on every read.
 * `readBody`, when given, reads the body instead (the host's own request, e.g. Node's under srvx).
 */
export function fromWebRequest(
  request: Request,
  headers?: HeaderRecord,
  readBody?: (maxBytes: number) => Promise<string | undefined>,
): Inbound {
  return new WebInbound(request, headers, readBody);
}

/** True when the client accepts an SSE answer (no Accept header accepts anything). */
export function acceptsEventStream(inbound: Inbound): boolean {
  const accept = inbound.header("accept");
  return accept === null || accept.includes("text/event-stream") || accept.includes("*/*");
}
