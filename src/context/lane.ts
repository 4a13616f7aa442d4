/**
 * What a lane lends the contexts of its requests (how their response stream opens, how their input
 * requests are answered), and everything a context is built from. Generic in the context's class,
 * as `AskClient` is: request-context.ts names them for `RequestContext` (`InputBroker`,
 * `ContextLane`, `ContextInit`), and this file need not import it back.
 */
import type { H3Event } from "h3";
import type { JsonObject } from "../protocol/jsonrpc.ts";
import type { ResponseChannel } from "../stream/channel.ts";
import type { McpContext } from "../types/context.ts";
import type { ChangePublisher } from "./change-publisher.ts";
import type { ContextData } from "./fields.ts";

/** How a lane answers the input requests of a handler (legacy: server→client requests; modern: MRTR). */
export interface InputBroker<C extends McpContext> {
  request(context: C, key: string, method: string, params: JsonObject, timeoutMs: number): Promise<unknown>;
}

/** What a lane lends the contexts of its requests. */
export interface ContextLane<C extends McpContext> {
  /** Opens the response stream the first time something needs it (a synchronous JSON answer never does). */
  openChannel(context: C): ResponseChannel;
  readonly broker: InputBroker<C>;
  /** Whether the response connection closing cancels the request (modern; legacy without resumption). */
  readonly cancelOnDisconnect: boolean;
}

/**
 * Everything a context is built from: its data, and what its lane lends it. The catalog is not
 * part of it: a context is built before its catalog, so that `enabled(event)` sees
 * `event.context.mcp` (see `useCatalog` in request-context.ts).
 */
export interface ContextInit<C extends McpContext> extends ContextData {
  lane: ContextLane<C>;
  event: H3Event;
  publisher: ChangePublisher;
}
