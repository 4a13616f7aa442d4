/**
 * The host adapter: turns an H3 event (h3 v2's Web `Request`, or h3 v1's Node request) into the
 * engine's view of a request, and the engine's reply into the host's response. It imports
 * nothing from h3 at runtime, so one build serves both majors.
 */
import type { H3Event } from "h3";
import type { IncomingMessage, ServerResponse } from "node:http";
import { createEngine, type Engine } from "./engine/engine.ts";
import { controlsOf, fetchWith } from "./fetch.ts";
import { fromWebRequest, type Inbound } from "./http/inbound.ts";
import type { McpEventHandler } from "./handler-types.ts";
import type { McpHandlerOptions } from "./types/options.ts";
import { NodeBody } from "./gate/node-body.ts";
import { Reply, toResponse } from "./http/reply.ts";

interface V1Event {
  node: { req: IncomingMessage & { body?: unknown }; res: ServerResponse };
  context: Record<string, unknown>;
  /** Set by h3 v1's `toWebHandler` (its way onto Workers, Deno and Bun): the Web request it serves. */
  web?: { request?: Request };
}

/** What srvx (h3 v2's server layer) exposes of the Node request it wraps. */
interface SrvxNode {
  req: IncomingMessage;
  res: ServerResponse;
}
type SrvxRequest = Request & { runtime?: { node?: Partial<SrvxNode> } };

function isV2Event(event: unknown): event is { req: SrvxRequest } {
  // A method of the prototype: srvx builds the `headers` wrapper on first access, which this skips.
  return typeof (event as { req?: Request }).req?.text === "function";
}

function fromNodeEvent(event: V1Event, body: NodeBody): Inbound {
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
    readText: (maxBytes) => body.read(maxBytes),
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

/** The headers of a refused body's answer: the connection is closed by the drain, not by Node at once. */
function keepConnection(headers: Record<string, string>): Record<string, string> {
  if (!("connection" in headers)) return headers;
  const { connection: _close, ...rest } = headers;
  return rest;
}

/**
 * Writes a reply straight to a Node response, flushing headers at once so SSE clients see them.
 * A stream is read only as fast as the socket drains, so a client that does not read makes the
 * body's own queue grow (which the SSE sink bounds) instead of Node's write buffer. Never rejects.
 */
async function writeNodeReply(res: ServerResponse, reply: Reply, headers: Record<string, string>): Promise<void> {
  res.writeHead(reply.status, headers);
  if (reply.body === null || typeof reply.body === "string") {
    res.end(reply.body ?? undefined);
    return;
  }
  res.flushHeaders();
  const reader = reply.body.getReader();
  let gone = false;
  let resume: (() => void) | undefined;
  const onClose = (): void => {
    gone = true;
    resume?.();
    reader.cancel().catch(() => {});
  };
  res.once("close", onClose);
  // A client gone before the answer: its `close` already fired.
  if (res.destroyed) onClose();
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done || gone) break;
      if (res.write(value)) continue;
      await new Promise<void>((resolve) => {
        resume = resolve;
        res.once("drain", resolve);
      });
      resume = undefined;
      if (gone) break;
    }
    res.end();
  } catch {
    // The body was errored (a client that did not read past `maxStreamBufferBytes`): drop the connection.
    res.destroy();
  } finally {
    res.off("close", onClose);
  }
}

/** h3 v1: the reply written to the Node response, or as a Web `Response` on a mocked one (edge presets). */
async function serveV1Event(engine: Engine, event: V1Event): Promise<unknown> {
  const web = event.web?.request;
  if (web && typeof web.text === "function" && !event.node.res.socket) {
    // Under toWebHandler the Node request is a mock without the body, which is the Web request's.
    return toResponse(await engine.handle(fromWebRequest(web), event as unknown as H3Event));
  }
  const body = new NodeBody(event.node.req);
  const reply = await engine.handle(fromNodeEvent(event, body), event as unknown as H3Event);
  const res = event.node.res;
  // A real socket: write directly (h3 v1 would not flush SSE headers before the first event).
  if (res.socket) {
    const refused = body.refused;
    engine.services.incidents.own(writeNodeReply(res, reply, refused ? keepConnection(reply.headers) : reply.headers));
    if (refused) body.drainAfter(res);
    return undefined;
  }
  return toResponse(reply);
}

/** True when the body of a Node request may be refused for its size: no declared length, or a larger one. */
function mayRefuse(req: IncomingMessage, maxBytes: number): boolean {
  return req.method !== "GET" && !(Number(req.headers["content-length"]) <= maxBytes);
}

/** h3 v2 on Node (srvx): a body that may be refused is read from the Node request, so it can be drained. */
function serveV2Node(engine: Engine, event: H3Event, request: SrvxRequest, node: SrvxNode): Promise<Reply> {
  const body = new NodeBody(node.req);
  const inbound = fromWebRequest(request, node.req.headers, (maxBytes) => body.read(maxBytes));
  return engine.handle(inbound, event).then((reply) => {
    if (!body.refused) return reply;
    body.drainAfter(node.res);
    return new Reply(reply.status, keepConnection(reply.headers), reply.body);
  });
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
    const node = request.runtime?.node;
    if (node?.req && node.res && mayRefuse(node.req, engine.services.options.maxBodyBytes)) {
      return serveV2Node(engine, event, request, node as SrvxNode);
    }
    return engine.handle(fromWebRequest(request, node?.req?.headers), event);
  };
  const served = Object.assign(handler, { __is_handler__: true as const, fetch: fetchWith(engine) });
  return Object.defineProperties(served, controlsOf(engine)) as McpEventHandler;
}
