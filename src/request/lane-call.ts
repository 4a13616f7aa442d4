/**
 * One request as its lane hands it to the shared sequence (sequence.ts): the request itself, and
 * what only the lane's wire knows, asked for at each step. Each lane has its subclass
 * (`legacy/serve/request.ts`, `modern/request.ts`).
 */
import type { H3Event } from "h3";
import type { Caller } from "../auth/gate.ts";
import type { ContextLane, InputBroker, RequestContext } from "../context/request-context.ts";
import type { WireFacts } from "../context/fields.ts";
import type { Catalog } from "../define/catalog.ts";
import type { Inbound } from "../http/inbound.ts";
import type { Reply } from "../http/reply.ts";
import type { JsonObject, JsonRpcRequest, JsonRpcResponse } from "../protocol/jsonrpc.ts";
import type { ResponseChannel } from "../stream/channel.ts";
import { PendingReply } from "./pending-reply.ts";
import type { Services } from "./services.ts";

/** What the method table gives: the response, or none when the request was cancelled; pending when the handler is. */
export type Work = JsonRpcResponse | undefined | Promise<JsonRpcResponse | undefined>;

/** The fields of a request every lane hands over. */
export interface LaneRequest<S extends Services> {
  services: S;
  inbound: Inbound;
  event: H3Event;
  message: JsonRpcRequest;
  /** Who sent it (auth on). */
  caller: Caller | undefined;
}

/**
 * A lane's request. It is also what the lane lends the request's context ({@link ContextLane}): how
 * the response stream opens (legacy: with the session's resumable log; modern: cancelled by a
 * disconnect) and how input requests are answered.
 */
export abstract class LaneCall<S extends Services = Services> implements ContextLane {
  readonly services: S;
  readonly inbound: Inbound;
  readonly event: H3Event;
  readonly message: JsonRpcRequest;
  /** `message.params`, or `{}`. */
  readonly params: JsonObject;
  /** Who sent the request (auth on). */
  readonly caller: Caller | undefined;

  /** The answer of a pending call until its stream is built (see pending-reply.ts). */
  #pending: PendingReply | undefined;

  constructor(request: LaneRequest<S>) {
    this.services = request.services;
    this.inbound = request.inbound;
    this.event = request.event;
    this.message = request.message;
    this.params = request.message.params ?? {};
    this.caller = request.caller;
  }

  /** The headers of every answer (legacy: the session's id). */
  abstract readonly headers: Readonly<Record<string, string>>;
  abstract readonly broker: InputBroker;
  abstract readonly cancelOnDisconnect: boolean;

  /**
   * The lane's checks that need the catalog, after the scope check (modern: `Mcp-Param-*` headers,
   * `inputResponses`, opening a retry's `requestState`): a reply ends the request there.
   */
  abstract check(catalog: Catalog): Reply | undefined | Promise<Reply | undefined>;

  /** What the request's wire says of it, for its context (built before the catalog and the checks). */
  abstract facts(): WireFacts;

  /** What the lane's checks found that the context starts with (modern: the state `requestState` held). */
  adopt(_context: RequestContext): void {}

  /** Builds the response stream (legacy: with the session's resumable log; modern: cancelled by a disconnect). */
  protected abstract buildChannel(context: RequestContext): ResponseChannel;

  /** Builds the response stream the first time something needs it; a pending call's answer is the stream's from then on. */
  openChannel(context: RequestContext): ResponseChannel {
    const channel = this.buildChannel(context);
    const pending = this.#pending;
    // Answered as JSON already (work going on after its request, a task's): nothing more can
    // reach the client, so the stream starts finished and its sends are dropped, as they were.
    if (pending?.answered) this.services.incidents.own(channel.finish(undefined));
    else pending?.streamBuilt(channel);
    return channel;
  }

  /** The call went pending with no stream: its answer waits for the outcome or for the stream. */
  awaitStream(context: RequestContext): PendingReply {
    return (this.#pending = new PendingReply(context, this.services.options.keepAliveMs));
  }

  /** Runs the request: through the shared method table, or the lane's own (modern: `server/discover`). */
  abstract run(context: RequestContext): Work;

  /** A response of a synchronous call as the client gets it (modern: stamped, with its cache hints). */
  abstract answer(context: RequestContext, response: JsonRpcResponse): JsonRpcResponse;

  /** The HTTP status of a response answered before anything streamed. */
  abstract status(response: JsonRpcResponse): number;

  /**
   * The response of a pending call once its outcome is in, as the client gets it (legacy: the call
   * can be cancelled by id meanwhile; modern: an input round may end it first).
   */
  abstract outcome(
    context: RequestContext,
    work: Promise<JsonRpcResponse | undefined>,
  ): Promise<JsonRpcResponse | undefined>;

  /** The answer went to the response stream: what the lane kept for the call goes (legacy: its cancellation entry). */
  abstract release(context: RequestContext): void;
}
