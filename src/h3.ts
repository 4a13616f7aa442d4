/**
 * The host adapter: turns an H3 event (h3 v2's Web `Request`, or h3 v1's Node request) into the
 * engine's view of a request, and the engine's reply into the host's response. It imports
 * nothing from h3 at runtime, so one build serves both majors.
 */
import type { H3Event } from "h3";
import type { IncomingMessage, ServerResponse } from "node:http";
import { createEngine, type Engine } from "./engine.ts";
import { decodeChunks, fromWebRequest, type Inbound } from "./inbound.ts";
import type { IncidentCounts } from "./incidents.ts";
import type { McpHandlerOptions } from "./options.ts";
import { toResponse, type Reply } from "./reply.ts";

/** An H3 event handler serving MCP; also callable as a fetch handler. */
export interface McpEventHandler {
  (event: H3Event): Promise<unknown>;
  /** h3 v1 marks handlers with this flag; set so that no implicit conversion happens. */
  readonly __is_handler__: true;
  /** Serves a Web `Request` without h3 (Workers, Deno, Bun); handlers get a minimal event. */
  fetch(request: Request): Promise<Response>;
  /** The engine behind the handler (stores, resolved options). */
  readonly engine: Engine;
  /** How many incidents of each kind happened outside any request (see the `onIncident` option). */
  readonly incidents: IncidentCounts;
  /**
   * Ends open `subscriptions/listen` streams gracefully and runs the `close` option with what
   * `setup` built. Call it on shutdown, e.g. from a Nitro plugin's `close` hook.
   */
  close(): Promise<void>;
}

interface V1Event {
  node: { req: IncomingMessage & { body?: unknown }; res: ServerResponse };
  context: Record<string, unknown>;
}

/** What srvx (h3 v2's server layer) exposes of the Node request it wraps. */
type SrvxRequest = Request & { runtime?: { node?: { req?: IncomingMessage } } };

function isV2Event(event: unknown): event is { req: SrvxRequest } {
  // A method of the prototype: srvx builds the `headers` wrapper on first access, which this skips.
  return typeof (event as { req?: Request }).req?.text === "function";
}

/** Reads a Node request body, stopping past `maxBytes`. */
async function readNodeBody(req: IncomingMessage & { body?: unknown }, maxBytes: number): Promise<string | undefined> {
  // Mocked requests (edge presets of Nitro) carry the body ready-made.
  const ready = req.body;
  if (typeof ready === "string") return new TextEncoder().encode(ready).byteLength > maxBytes ? undefined : ready;
  if (ready instanceof Uint8Array)
    return ready.byteLength > maxBytes ? undefined : decodeChunks([ready], ready.byteLength);
  const length = Number(req.headers["content-length"]);
  if (length > maxBytes) return undefined;
  return new Promise((resolve, reject) => {
    const chunks: Uint8Array[] = [];
    let size = 0;
    const cleanup = (): void => {
      req.off("data", onData);
      req.off("end", onEnd);
      req.off("error", onError);
    };
    const onData = (chunk: Uint8Array | string): void => {
      const bytes = typeof chunk === "string" ? new TextEncoder().encode(chunk) : chunk;
      size += bytes.byteLength;
      if (size > maxBytes) {
        // Stop buffering but keep the socket: Node discards the rest, and the 413 still reaches the client.
        cleanup();
        req.resume();
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
      reject(error);
    };
    req.on("data", onData);
    req.on("end", onEnd);
    req.on("error", onError);
  });
}

function fromNodeEvent(event: V1Event): Inbound {
  const { req, res } = event.node;
  let disconnect: AbortController | undefined;
  const host = req.headers.host ?? "localhost";
  return {
    method: (req.method ?? "GET").toUpperCase(),
    url: `http://${host}${req.url ?? "/"}`,
    header: (name) => {
      const value = req.headers[name];
      if (value === undefined) return null;
      return Array.isArray(value) ? value.join(", ") : value;
    },
    readText: (maxBytes) => readNodeBody(req, maxBytes),
    // Built on first use: most requests never need it.
    get disconnect() {
      if (!disconnect) {
        disconnect = new AbortController();
        if (res.closed || res.destroyed) disconnect.abort();
        else res.once?.("close", () => disconnect!.abort());
      }
      return disconnect.signal;
    },
  };
}

/** Writes a reply straight to a Node response, flushing headers at once so SSE clients see them. */
async function writeNodeReply(res: ServerResponse, reply: Reply): Promise<void> {
  res.writeHead(reply.status, reply.headers);
  if (reply.body === null || typeof reply.body === "string") {
    res.end(reply.body ?? undefined);
    return;
  }
  res.flushHeaders();
  const reader = reply.body.getReader();
  res.once("close", () => void reader.cancel().catch(() => {}));
  for (;;) {
    const { done, value } = await reader.read().catch(() => ({ done: true, value: undefined }));
    if (done || !value) break;
    res.write(value);
  }
  res.end();
}

/** h3 v1: the reply written to the Node response, or as a Web `Response` on a mocked one (edge presets). */
async function serveV1Event(engine: Engine, event: V1Event): Promise<unknown> {
  const reply = await engine.handle(fromNodeEvent(event), event as unknown as H3Event);
  // A real socket: write directly (h3 v1 would not flush SSE headers before the first event).
  if (event.node.res.socket) {
    void writeNodeReply(event.node.res, reply);
    return undefined;
  }
  return toResponse(reply);
}

/**
 * Defines the MCP endpoint as an H3 handler: mount it on a route of an h3 v1 or v2 app, or
 * export it as a Nitro / Nuxt server route.
 *
 * @example
 * // server/routes/mcp.ts
 * export default defineMcpHandler({ name: "demo", version: "1.0.0", tools: [weather] });
 */
export function defineMcpHandler(options: McpHandlerOptions): McpEventHandler {
  const engine = createEngine(options);
  const handler = (event: H3Event): Promise<unknown> => {
    if (!isV2Event(event)) return serveV1Event(engine, event as unknown as V1Event);
    // h3 v2 takes the reply as it is (it carries h3's response marker, see reply.ts).
    const request = event.req;
    return engine.handle(fromWebRequest(request, request.runtime?.node?.req?.headers), event);
  };
  const fetch = async (request: Request): Promise<Response> => {
    const event = { req: request, url: new URL(request.url), context: {} } as unknown as H3Event;
    return toResponse(await engine.handle(fromWebRequest(request), event));
  };
  const incidents = engine.services.incidents;
  Object.defineProperty(handler, "incidents", { get: () => incidents.counts, enumerable: true });
  return Object.assign(handler as typeof handler & { readonly incidents: IncidentCounts }, {
    __is_handler__: true as const,
    fetch,
    engine,
    close: () => engine.close(),
  });
}
