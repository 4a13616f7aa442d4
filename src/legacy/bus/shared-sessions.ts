/**
 * The session routing of instances sharing their stores (see `state/routing.ts`): what one instance
 * holds live of a legacy session — its GET stream, a call, a server→client request waiting for an
 * answer — is reached from the others through the bus ({@link SessionRouter}). Imported only by
 * the entries that bring it (`mcp-h3/shared`, `mcp-h3/redis`), so a server on the memory stores
 * does not carry it.
 */
import type { Answerer } from "../../auth/answerer.ts";
import type { JsonRpcId, JsonRpcNotification, JsonRpcResponse } from "../../protocol/jsonrpc.ts";
import type { Reply } from "../../http/reply.ts";
import type { McpExtension } from "../../types/extensions.ts";
import type { Bus, SessionData } from "../../types/stores.ts";
import type { FollowRequest, HolderDelivery, SessionRouting } from "../state/routing.ts";
import { readerMayCall } from "../state/subscriptions.ts";
import { ROUTES_SESSIONS, type SessionRoutingPart } from "../state/routing-part.ts";
import type { LegacySessions } from "../state/sessions.ts";
import { GET_STREAM_ID } from "../state/sessions.ts";
import { stored } from "../state/store-failure.ts";
import { followPostStream } from "./stream-follow.ts";
import { mintedBy, sessionBusMessage } from "./session-bus.ts";
import { SessionRouter } from "./session-routing.ts";

export class SharedSessionRouting implements SessionRouting {
  readonly #sessions: LegacySessions;
  readonly #router: SessionRouter;

  constructor(sessions: LegacySessions, bus: Bus) {
    this.#sessions = sessions;
    this.#router = new SessionRouter({
      bus,
      live: sessions.live,
      incidents: sessions.incidents,
      instance: () => sessions.instance,
      forget: (id) => sessions.forgetHere(id),
      mintedHere: (streamId) => sessions.mintedHere(streamId),
      readerMayCall: (reader, tool) => readerMayCall(sessions.catalogs, reader, tool),
    });
  }

  ensure(): void {
    this.#router.ensure();
  }

  start(): Promise<void> {
    return this.#router.start();
  }

  async holdStream(session: SessionData): Promise<void> {
    const sessions = this.#sessions;
    const previous = session.streamInstance;
    if (previous === sessions.instance) return;
    await sessions.change(session, (copy) => void (copy.streamInstance = sessions.instance));
    // The instance that held it ends its own GET stream of the session (a resumption moved here).
    if (previous !== undefined) this.#router.tell(sessionBusMessage.released(sessions.instance, session.id));
  }

  ended(sessionId: string): void {
    this.#router.tell(sessionBusMessage.ended(this.#sessions.instance, sessionId));
  }

  cancel(sessionId: string, requestId: JsonRpcId, reason: string | undefined): void {
    this.#router.tell(sessionBusMessage.cancel(this.#sessions.instance, sessionId, requestId, reason));
  }

  /**
   * The instance that minted the id (`srv-<prefix>-<uuid>`) waits for the answer: the bus takes it
   * there, with who answered (that instance knows whom it asked, and checks).
   */
  async deliverResponse(
    sessionId: string,
    response: JsonRpcResponse,
    responder: Answerer | undefined,
  ): Promise<boolean> {
    const sessions = this.#sessions;
    const minter = mintedBy(response.id);
    if (minter === undefined || minter === sessions.instance.slice(0, 8)) return false;
    const message = sessionBusMessage.response(sessions.instance, sessionId, response, responder);
    await stored(() => this.#router.publish(message));
    return true;
  }

  /**
   * The GET stream is held by another instance, or may be (a stream held here without a connection
   * may have been taken over by an instance whose word has not arrived yet: its client resumed
   * there, after the replay was read). The event is kept in the stream's log first, so it survives
   * that instance (a resumption anywhere replays it), then the holder is told to write it. The
   * holder is looked up again after the event is kept: one that took the stream over meanwhile
   * either read the log after it, or is the one told.
   */
  async notifyHolder(session: SessionData, message: JsonRpcNotification, delivery: HolderDelivery): Promise<boolean> {
    const sessions = this.#sessions;
    const { heldHere, forTool } = delivery;
    const known = session.streamInstance;
    if (!heldHere && (known === undefined || known === sessions.instance)) return false;
    const sessionId = session.id;
    const eventId = await stored(() => sessions.events.append(sessionId, GET_STREAM_ID, message));
    const holder = (await stored(() => sessions.store.get(sessionId)))?.streamInstance;
    if (holder === undefined || holder === sessions.instance) {
      const live = sessions.live.get(sessionId);
      const stream = live?.getStream;
      if (
        stream &&
        (forTool === undefined || (await readerMayCall(sessions.catalogs, live?.getStreamReader, forTool)))
      ) {
        await stream.sendKept({ id: eventId, message });
      }
      return stream !== undefined || holder !== undefined;
    }
    const told = sessionBusMessage.event(sessions.instance, sessionId, holder, eventId, message);
    if (forTool !== undefined) told.forTool = forTool;
    await stored(() => this.#router.publish(told));
    return true;
  }

  follow(request: FollowRequest): Promise<Reply | undefined> {
    return followPostStream(this.#sessions, this.#router, request);
  }

  close(): void {
    this.#router.close();
  }
}

/** The routing as the engine finds it (the public type says only that it is an extension). */
const routing: SessionRoutingPart = {
  name: "mcp-h3/session-routing",
  // Nothing to plug through the seam: the engine builds the routing with the legacy sessions.
  plug() {},
  [ROUTES_SESSIONS]: (sessions, bus) => new SharedSessionRouting(sessions, bus),
};
/**
 * Routes legacy sessions between instances that share their session store, event store and bus:
 * initialize on one, call on another, stream on a third, resume anywhere. The `mcp-h3/redis`
 * stores bring it; a store or bus of your own that several instances share must bring it too
 * (`extensions: [sessionRouting]` on the store, the bus, or the handler's options).
 *
 * @example
 * import { sessionRouting } from "mcp-h3/shared";
 * defineMcpHandler({ name: "app", version: "1.0.0", sessions: { store }, events, bus, extensions: [sessionRouting] });
 */
export const sessionRouting: McpExtension = routing;
