/**
 * Legacy sessions: the store of session data, the event log behind `Last-Event-ID`, and what is
 * live in this process. Ending a session — by DELETE, TTL or the count limit — removes all three.
 * Every store call a request waits on is awaited, and a failure becomes a {@link StoreFailure}
 * (503 or `-32603` for the client); background store work is owned by the incident counter.
 */
import type { ChangeFeed } from "../../context/change-feed.ts";
import type { Incidents } from "../../http/incidents.ts";
import type { EventStore, SessionData, SessionStore } from "../../types/stores.ts";
import { LiveRegistry } from "./live.ts";
import { PrincipalSessions, createCounted, releaseEnded } from "./principal-sessions.ts";
import { FOREIGN, readSession } from "./session-read.ts";
import { StoreFailure, attempt, stored } from "./store-failure.ts";
import { GetStreamChanges } from "./change-delivery.ts";
import type { SessionRouting } from "./routing.ts";
import { OrderedStreamLog, SessionStreamLog, type StreamLogSource } from "../resume/stream-log.ts";
import { StreamRetention } from "../resume/stream-retention.ts";
import type { CatalogSource } from "../../define/catalog.ts";

/** How often {@link LegacySessions.change} reads a session again that others keep writing. */
const MAX_CHANGE_TRIES = 5;

/** Stream id of a session's standalone GET stream in the event log. */
export const GET_STREAM_ID = "get";

export interface LegacySessionsOptions {
  retryMs: number;
  replayWindowMs: number;
  maxStreamsPerSession: number;
  /** Most sessions one principal may hold (auth on). */
  maxSessionsPerPrincipal: number;
  /** Most sessions counted per principal in all (the larger of the option and the store's cap). */
  maxSessions: number;
  incidents: Incidents;
  /** The definitions, to check that a GET stream's reader may read a resource it is told about. */
  catalogs: CatalogSource;
  /**
   * What reaches other instances sharing the stores (the `sessionRouting` extension); absent, every
   * session lives in this process.
   */
  routing?: (sessions: LegacySessions) => SessionRouting;
}

export class LegacySessions implements StreamLogSource {
  readonly store: SessionStore;
  readonly events: EventStore;
  readonly live: LiveRegistry;
  readonly retention: StreamRetention;
  readonly retryMs: number;
  readonly incidents: Incidents;
  /** The definitions, to check what a GET stream's reader may be sent. */
  readonly catalogs: CatalogSource;
  /** Reaches what other instances hold live of a session; undefined when no other instance can. */
  readonly routing: SessionRouting | undefined;
  /** Change notifications for the GET streams of this process. */
  readonly #changes: GetStreamChanges;
  /** Sessions opened here, counted per principal (auth on). */
  readonly perPrincipal: PrincipalSessions;
  #instance: string | undefined;
  #streamPrefix: string | undefined;
  #streams = 0;
  /** The session whose GET connection is closing right now (see {@link LegacySessions.touch}). */
  #closing: string | undefined;

  /**
   * Names this process in `SessionData.streamInstance`. Drawn on first use, inside a request, then
   * kept: a Worker may not draw random values while its module loads or the handler is built.
   */
  get instance(): string {
    return (this.#instance ??= crypto.randomUUID());
  }

  constructor(store: SessionStore, events: EventStore, options: LegacySessionsOptions) {
    this.store = store;
    this.events = events;
    this.retryMs = options.retryMs;
    this.incidents = options.incidents;
    this.catalogs = options.catalogs;
    this.perPrincipal = new PrincipalSessions(options.maxSessionsPerPrincipal, options.maxSessions);
    const own = (work: Promise<unknown>): void => options.incidents.own(work);
    this.retention = new StreamRetention({
      replayWindowMs: options.replayWindowMs,
      maxStreamsPerSession: options.maxStreamsPerSession,
      drop: (sessionId, streamId) => own(attempt(() => events.dropStream(sessionId, streamId))),
    });
    this.live = new LiveRegistry({
      streamFinished: (sessionId, streamId) => this.retention.finished(sessionId, streamId),
      own,
    });
    this.#changes = new GetStreamChanges({
      live: this.live,
      store,
      incidents: options.incidents,
      catalogs: options.catalogs,
      hearOthers: () => this.routing?.start(),
    });
    this.routing = options.routing?.(this);
    store.onEvict?.((id) => this.#ended(id));
    store.addLiveCheck?.(
      (id) => id === this.#closing || this.live.isLive(id),
      () => this.live.liveIds(),
    );
  }

  /**
   * The session, or undefined when unknown, expired or deleted (and then nothing of it is kept
   * here). With `principal` (auth on), a session of another principal is undefined too, and is
   * left untouched when the store can read without refreshing (see session-read.ts).
   */
  async find(id: string, principal?: string): Promise<SessionData | undefined> {
    // Other instances may hold this session's streams and calls: hear from them from now on.
    this.routing?.ensure();
    let session: SessionData | typeof FOREIGN | undefined;
    try {
      session = await (principal === undefined ? this.store.get(id) : readSession(this.store, id, principal));
    } catch (error) {
      throw new StoreFailure(error);
    }
    if (session === FOREIGN) return undefined;
    if (!session) {
      this.perPrincipal.release(id);
      if (this.live.get(id)) this.#forget(id);
    } else if (principal !== undefined) this.perPrincipal.touch(id);
    return session;
  }

  /**
   * Stores a new session; `"full"` when no session may make room (see `SessionStore`),
   * `"principal-full"` when its principal already holds `sessions.maxSessionsPerPrincipal`.
   */
  create(session: SessionData): Promise<"created" | "full" | "principal-full"> {
    return createCounted(this.store, this.perPrincipal, session, (work) => this.incidents.own(work));
  }

  /**
   * Makes `change` to the session and saves it. When another request wrote the session meanwhile
   * (the store answers "conflict"), reads it again and makes the change to the fresh copy, up to
   * {@link MAX_CHANGE_TRIES} times. `change` returns false when there is nothing to save. Resolves
   * with the copy the change was made to (a session that ended meanwhile stays ended: nothing is
   * stored for it), or undefined when it was found ended on reading it again; a failing store (or
   * a session that kept changing) rejects with a {@link StoreFailure}.
   */
  async change(session: SessionData, change: (copy: SessionData) => boolean | void): Promise<SessionData | undefined> {
    let copy = session;
    for (let tries = 1; ; tries++) {
      if (change(copy) === false) return copy;
      const changed = copy;
      if ((await stored(() => this.store.set(changed))) !== "conflict") return copy;
      if (tries === MAX_CHANGE_TRIES) throw new StoreFailure(new Error("The session kept changing under this request"));
      // A look, not a use: the request that reads it again has refreshed it already.
      const fresh = await stored(() => (this.store.peek ? this.store.peek(session.id) : this.store.get(session.id)));
      if (!fresh) return undefined;
      copy = fresh;
    }
  }

  /**
   * Ends a session; returns whether it existed. A store that counts sessions per principal stops
   * counting it for `principal` (its owner) before this resolves, so the principal's next
   * `initialize` finds the place free.
   */
  async end(id: string, principal?: string): Promise<boolean> {
    const existed = await stored(() => this.store.delete(id));
    this.#ended(id);
    if (principal !== undefined) await releaseEnded(this.store, principal, id, (work) => this.incidents.own(work));
    return existed;
  }

  /** Refreshes a session's idle time in the background (its GET stream closed: the idle time counts from now). */
  touch(id: string): void {
    // Live until this moment: a store that sweeps before it looks the session up must not expire it.
    this.#closing = id;
    try {
      this.incidents.own(attempt(() => this.store.get(id)));
    } finally {
      this.#closing = undefined;
    }
  }

  /** The event log of the session's GET stream: ordered, since other instances append to it as well. */
  getStreamLog(session: SessionData): OrderedStreamLog {
    return new OrderedStreamLog(this, session, GET_STREAM_ID);
  }

  /** The event log of a POST response stream; `onOpen` learns its id when the first event is kept. */
  postStreamLog(session: SessionData, onOpen: (streamId: string) => void): SessionStreamLog {
    return new SessionStreamLog(this, session, undefined, onOpen);
  }

  /** A new stream id, unique within a session (and across instances sharing one). */
  nextStreamId(): string {
    return `${this.#prefix}${++this.#streams}`;
  }

  /** Whether this instance opened the stream of that id (a POST stream; never the GET stream). */
  mintedHere(streamId: string): boolean {
    return streamId.startsWith(this.#prefix);
  }

  /** What begins the ids of the streams this instance opens. */
  get #prefix(): string {
    return (this.#streamPrefix ??= `${this.instance.slice(0, 8)}.`);
  }

  /**
   * Starts forwarding change notifications to the GET streams of this process, and hearing from
   * other instances (once; again after a failure, which rejects with a {@link StoreFailure}).
   */
  forwardChanges(feed: ChangeFeed): Promise<void> {
    return this.#changes.start(feed);
  }

  /** Records that this process holds the session's GET stream, for the other instances sharing the stores (if any). */
  holdStream(session: SessionData): Promise<void> {
    return this.routing ? this.routing.holdStream(session) : Promise.resolve();
  }

  /** Ends everything live in this process and releases timers and bus subscriptions (the handler closes). */
  close(): void {
    this.live.endAll(new Error("The server is closing"));
    this.perPrincipal.clear();
    this.retention.close();
    this.#changes.stop();
    this.routing?.close();
  }

  /** This instance ended the session (DELETE, eviction): its events go, and every instance forgets it. */
  #ended(id: string): void {
    this.#forget(id);
    this.routing?.ended(id);
  }

  #forget(id: string): void {
    this.forgetHere(id);
    this.incidents.own(attempt(() => this.events.dropSession(id)));
  }

  /** Ends what is live of the session here (another instance ended it, or this one forgets it). */
  forgetHere(id: string): void {
    this.perPrincipal.release(id);
    this.live.end(id, new Error("The session ended"));
    this.retention.forget(id);
  }
}
