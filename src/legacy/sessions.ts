/**
 * Legacy sessions: the store of session data, the event log behind `Last-Event-ID`, and what is
 * live in this process. Ending a session — by DELETE, TTL or the count limit — removes all three.
 */
import { ChangeFeed, type ChangeMessage } from "../change-feed.ts";
import { notification, type JsonRpcNotification } from "../protocol/jsonrpc.ts";
import type { Bus, EventStore, SessionData, SessionStore } from "../stores/types.ts";
import { supportsSsePriming } from "../protocol/versions.ts";
import type { StreamLog } from "../stream/channel.ts";
import type { JsonRpcMessage } from "../protocol/jsonrpc.ts";
import { LiveRegistry } from "./live.ts";

/** Stream id of a session's standalone GET stream in the event log. */
export const GET_STREAM_ID = "get";

/** Bus channel of notifications for one session, delivered by the instance holding its GET stream. */
const SESSION_CHANNEL = "mcp-h3:session";

interface SessionMessage {
  sessionId: string;
  instance: string;
  message: JsonRpcNotification;
}

export class LegacySessions {
  readonly store: SessionStore;
  readonly events: EventStore;
  readonly live = new LiveRegistry();
  readonly retryMs: number;
  /** Names this process in `SessionData.streamInstance`. */
  readonly instance: string = crypto.randomUUID();
  #streamPrefix = `${this.instance.slice(0, 8)}.`;
  #streams = 0;
  #listening = false;

  constructor(store: SessionStore, events: EventStore, retryMs: number) {
    this.store = store;
    this.events = events;
    this.retryMs = retryMs;
    store.onEvict?.((id) => void this.#forget(id));
  }

  /** The session, or undefined when unknown, expired or deleted (and then nothing of it is kept here). */
  async find(id: string): Promise<SessionData | undefined> {
    const session = await this.store.get(id);
    if (!session && this.live.get(id)) await this.#forget(id);
    return session;
  }

  /** Ends a session; returns whether it existed. */
  async end(id: string): Promise<boolean> {
    const existed = await this.store.delete(id);
    await this.#forget(id);
    return existed;
  }

  /** The event log of the session's GET stream. */
  getStreamLog(session: SessionData): SessionStreamLog {
    return new SessionStreamLog(this, session, GET_STREAM_ID);
  }

  /** The event log of a POST response stream; `onOpen` learns its id when the first event is kept. */
  postStreamLog(session: SessionData, onOpen: (streamId: string) => void): SessionStreamLog {
    return new SessionStreamLog(this, session, undefined, onOpen);
  }

  /** A new stream id, unique within a session (and across instances sharing one). */
  nextStreamId(): string {
    return `${this.#streamPrefix}${++this.#streams}`;
  }

  /** Starts forwarding change notifications to the GET streams of this process (once). */
  async forwardChanges(feed: ChangeFeed): Promise<void> {
    if (this.#listening) return;
    this.#listening = true;
    await feed.listen((change) => void this.#deliverChange(change));
    await feed.bus.subscribe(SESSION_CHANNEL, (value) => {
      const { sessionId, instance, message } = value as SessionMessage;
      if (instance === this.instance) void this.live.get(sessionId)?.getStream?.send(message);
    });
  }

  /** Records that this process holds the session's GET stream, for notifications from other instances. */
  async holdStream(session: SessionData): Promise<void> {
    if (session.streamInstance === this.instance) return;
    session.streamInstance = this.instance;
    await this.store.set(session);
  }

  /**
   * Sends a notification to a session's GET stream, here or on the instance that holds it.
   * False when the session is unknown, has no GET stream, or belongs to another principal.
   */
  async notify(
    sessionId: string,
    message: JsonRpcNotification,
    principal: string | undefined,
    bus: Bus,
  ): Promise<boolean> {
    const session = await this.store.get(sessionId);
    if (!session || (principal !== undefined && session.principal !== principal)) return false;
    const stream = this.live.get(sessionId)?.getStream;
    if (stream) {
      await stream.send(message);
      return true;
    }
    if (session.streamInstance === undefined || session.streamInstance === this.instance) return false;
    await bus.publish(SESSION_CHANNEL, {
      sessionId,
      instance: session.streamInstance,
      message,
    } satisfies SessionMessage);
    return true;
  }

  async #deliverChange(change: ChangeMessage): Promise<void> {
    const message = notification(change.method, change.params);
    for (const [sessionId, live] of this.live.entries()) {
      const stream = live.getStream;
      if (!stream) continue;
      if (change.method === "notifications/resources/updated") {
        const session = await this.store.get(sessionId);
        if (!session?.subscriptions.includes(String(change.params?.uri))) continue;
      }
      await stream.send(message);
    }
  }

  async #forget(id: string): Promise<void> {
    this.live.end(id, new Error("The session ended"));
    await this.events.dropSession(id);
  }
}

/** The event log of one stream of a legacy session, behind `Last-Event-ID` resumption. */
export class SessionStreamLog implements StreamLog {
  readonly priming: boolean;
  readonly retryMs: number;
  #sessions: LegacySessions;
  #sessionId: string;
  #streamId: string | undefined;
  #onOpen: ((streamId: string) => void) | undefined;

  constructor(
    sessions: LegacySessions,
    session: SessionData,
    streamId: string | undefined,
    onOpen?: (streamId: string) => void,
  ) {
    this.#sessions = sessions;
    this.#sessionId = session.id;
    this.#streamId = streamId;
    this.#onOpen = onOpen;
    this.priming = supportsSsePriming(session.protocolVersion);
    this.retryMs = sessions.retryMs;
  }

  /** The stream's id, once it has one. */
  get streamId(): string | undefined {
    return this.#streamId;
  }

  append(message: JsonRpcMessage | null): Promise<string> {
    let streamId = this.#streamId;
    if (streamId === undefined) {
      this.#streamId = streamId = this.#sessions.nextStreamId();
      this.#onOpen?.(streamId);
    }
    return this.#sessions.events.append(this.#sessionId, streamId, message);
  }
}
