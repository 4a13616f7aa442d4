/**
 * Routing of legacy session state between instances that share their stores: what one instance
 * holds live (a GET stream, a call, a server→client request waiting for its answer) is reached
 * from the others through the {@link SESSION_CHANNEL} messages of `session-bus.ts`. Nothing goes
 * on the bus while everything a request needs is live in the instance it reached, except the end
 * of a session, the takeover of its GET stream, and a POST response stream resumed away from its
 * call (`stream-follow.ts`), which the other instances must hear of.
 */
import type { Incidents } from "../../http/incidents.ts";
import type { ResponseChannel } from "../../stream/channel.ts";
import type { GetStreamReader, LiveRegistry, LiveSession } from "../state/live.ts";
import type { Bus, StoredEvent } from "../../types/stores.ts";
import { SESSION_CHANNEL, sessionBusMessage, type ClaimMessage, type SessionBusMessage } from "./session-bus.ts";
import { parseSessionBusMessage } from "./session-bus-parse.ts";

export interface SessionRouterOptions {
  bus: Bus;
  live: LiveRegistry;
  incidents: Incidents;
  /** This instance's name (`SessionData.streamInstance`), drawn on first use. */
  instance(): string;
  /** Forgets everything of a session in this instance (another one ended it). */
  forget(sessionId: string): void;
  /** Whether this instance opened the POST response stream of that id. */
  mintedHere(streamId: string): boolean;
  /** Whether a GET stream's reader may call the tool `name` (for events told with `forTool`). */
  readerMayCall(reader: GetStreamReader | undefined, name: string): Promise<boolean>;
}

export class SessionRouter {
  readonly #options: SessionRouterOptions;
  /** The subscription to the channel, made on first use; resolves with its unsubscribe. */
  #subscribed: Promise<() => void> | undefined;
  #closed = false;

  constructor(options: SessionRouterOptions) {
    this.#options = options;
  }

  /**
   * Subscribes to the channel (once; again after a failure). Requests call it without waiting,
   * so the first legacy request of the process starts it; what needs it to be there waits.
   */
  start(): Promise<void> {
    if (this.#closed) return Promise.resolve();
    this.#subscribed ??= this.#options.bus
      .subscribe(SESSION_CHANNEL, (value) => this.#receive(value))
      .catch((error: unknown) => {
        this.#subscribed = undefined;
        throw error;
      });
    return this.#subscribed.then(() => undefined);
  }

  /** Starts the subscription in the background (a failure is tried again by the next request). */
  ensure(): void {
    if (this.#subscribed === undefined) this.start().catch(() => {});
  }

  publish(message: SessionBusMessage): Promise<void> {
    return this.#options.bus.publish(SESSION_CHANNEL, message);
  }

  /** Publishes in the background (a failing bus is counted as an incident). */
  tell(message: SessionBusMessage): void {
    this.#options.incidents.own(this.publish(message));
  }

  /** Unsubscribes (the handler closes). */
  close(): void {
    this.#closed = true;
    const subscribed = this.#subscribed;
    this.#subscribed = undefined;
    subscribed?.then(
      (unsubscribe) => unsubscribe(),
      () => {},
    );
  }

  #receive(value: unknown): void {
    const message = parseSessionBusMessage(value);
    const { live, incidents } = this.#options;
    const instance = this.#options.instance();
    // Our own messages come back too: what they ask was already looked for here.
    if (!message || message.from === instance) return;
    const { sessionId } = message;
    switch (message.kind) {
      case "event": {
        if (message.to !== instance) return;
        const event = { id: message.eventId, message: message.message };
        if (message.streamId === undefined) {
          const entry = live.get(sessionId);
          if (entry?.getStream) incidents.own(this.#writeToGetStream(entry, event, message.forTool));
          return;
        }
        const follower = live.get(sessionId)?.followed.get(message.streamId);
        if (follower && follower.claim === message.claim) follower.deliver(event);
        return;
      }
      case "claim": {
        const channel = live.get(sessionId)?.streams.get(message.streamId);
        if (channel) incidents.own(this.#handOver(channel, message));
        // The call finished here (or was cancelled): what the log has is all there is.
        else if (this.#options.mintedHere(message.streamId)) this.tell(this.#answer(message, false));
        return;
      }
      case "unclaim":
        live.get(sessionId)?.streams.get(message.streamId)?.unforward(followerKey(message));
        return;
      case "handover": {
        if (message.to !== instance) return;
        const follower = live.get(sessionId)?.followed.get(message.streamId);
        if (follower?.claim === message.claim) follower.handover(message.open);
        return;
      }
      case "released": {
        // Another instance took the session's GET stream over: the one here must not go on as well.
        const entry = live.get(sessionId);
        const stream = entry?.getStream;
        if (!entry || !stream || message.holder === instance) return;
        entry.getStream = entry.getStreamReader = undefined;
        incidents.own(stream.finish(undefined));
        live.release(sessionId);
        return;
      }
      case "response":
        live.answer(sessionId, message.response, message.answerer);
        return;
      case "cancel":
        live.cancel(sessionId, message.requestId, message.reason);
        return;
      case "ended":
        this.#options.forget(sessionId);
    }
  }

  /** Writes an event kept by another instance to the GET stream here; with `forTool`, only for a reader that may call it. */
  async #writeToGetStream(entry: LiveSession, event: StoredEvent, forTool: string | undefined): Promise<void> {
    if (forTool !== undefined && !(await this.#options.readerMayCall(entry.getStreamReader, forTool))) return;
    await entry.getStream?.sendKept(event);
  }

  /**
   * Another instance serves the client of a POST stream whose call runs here: every event kept
   * from now on goes there, and the claim is answered (events kept meanwhile it reads from the log).
   */
  async #handOver(channel: ResponseChannel, claim: ClaimMessage): Promise<void> {
    const { sessionId, from: to } = claim;
    const instance = this.#options.instance();
    const taken = await channel.forwardTo({
      key: followerKey(claim),
      event: (id, message) => this.tell(sessionBusMessage.streamEvent(instance, sessionId, to, claim, id, message)),
      end: () => this.tell(this.#answer(claim, false)),
    });
    this.tell(this.#answer(claim, taken));
  }

  #answer(claim: ClaimMessage, open: boolean): SessionBusMessage {
    return sessionBusMessage.handover(this.#options.instance(), claim.sessionId, claim.from, claim, open);
  }
}

/** A follower among all instances': its instance and its claim. */
function followerKey(claim: { from: string; claim: string }): string {
  return `${claim.from}\n${claim.claim}`;
}
