/**
 * Stores that fail when told: real implementations of the public `SessionStore`, `EventStore` and
 * `Bus` interfaces, each backed by the in-memory default, whose chosen methods reject (as a
 * networked store does when its server is down) or throw before returning a promise.
 */
import {
  MemoryBus,
  MemoryEventStore,
  MemorySessionStore,
  type Bus,
  type EventReplay,
  type EventStore,
  type JsonRpcMessage,
  type SessionData,
  type SessionStore,
  type SubscribeOutcome,
} from "../../src/index.ts";

/** How a failing method fails. */
export type FailureMode = "reject" | "throw";

/** The switch every failing store shares: which methods fail now, and how. */
export class Faults {
  readonly failing = new Map<string, FailureMode>();
  /** Calls that failed, by method. */
  readonly failed: string[] = [];

  /** Makes `methods` fail (all calls from now on) until {@link Faults.heal}. */
  fail(mode: FailureMode, ...methods: string[]): void {
    for (const method of methods) this.failing.set(method, mode);
  }

  heal(): void {
    this.failing.clear();
  }

  /** Runs `call`, or fails as configured for `method`. */
  run<T>(method: string, call: () => Promise<T>): Promise<T> {
    const mode = this.failing.get(method);
    if (mode === undefined) return call();
    this.failed.push(method);
    const error = new Error(`store down (${method})`);
    if (mode === "throw") throw error;
    return Promise.reject(error);
  }
}

export class FailingSessionStore implements SessionStore {
  readonly inner: MemorySessionStore;
  readonly faults: Faults;

  constructor(faults: Faults, inner = new MemorySessionStore()) {
    this.faults = faults;
    this.inner = inner;
  }

  get(id: string): Promise<SessionData | undefined> {
    return this.faults.run("sessions.get", () => this.inner.get(id));
  }

  create(session: SessionData): Promise<"created" | "full"> {
    return this.faults.run("sessions.create", () => this.inner.create(session));
  }

  set(session: SessionData): Promise<void> {
    return this.faults.run("sessions.set", () => this.inner.set(session));
  }

  delete(id: string): Promise<boolean> {
    return this.faults.run("sessions.delete", () => this.inner.delete(id));
  }

  subscribe(id: string, uri: string, max: number): Promise<SubscribeOutcome> {
    return this.faults.run("sessions.subscribe", () => this.inner.subscribe(id, uri, max));
  }

  unsubscribe(id: string, uri: string): Promise<void> {
    return this.faults.run("sessions.unsubscribe", () => this.inner.unsubscribe(id, uri));
  }

  isSubscribed(id: string, uri: string): Promise<boolean> {
    return this.faults.run("sessions.isSubscribed", () => this.inner.isSubscribed(id, uri));
  }

  onEvict(listener: (id: string) => void): void {
    this.inner.onEvict(listener);
  }

  addLiveCheck(isLive: (id: string) => boolean): void {
    this.inner.addLiveCheck(isLive);
  }
}

/**
 * A shared store whose sessions another writer keeps changing: while `changing`, every save is
 * refused as out of date (`"conflict"`). It hands out copies, as a networked store does.
 */
export class KeptChanging implements SessionStore {
  readonly inner = new MemorySessionStore();
  changing = false;
  /** Saves refused while `changing`. */
  refused = 0;

  async get(id: string): Promise<SessionData | undefined> {
    return structuredClone(await this.inner.get(id));
  }

  create(session: SessionData): Promise<"created" | "full"> {
    return this.inner.create(structuredClone(session));
  }

  async set(session: SessionData): Promise<void | "conflict"> {
    if (!this.changing) return this.inner.set(structuredClone(session));
    this.refused++;
    return "conflict";
  }

  delete(id: string): Promise<boolean> {
    return this.inner.delete(id);
  }

  subscribe(id: string, uri: string, max: number): Promise<SubscribeOutcome> {
    return this.inner.subscribe(id, uri, max);
  }

  unsubscribe(id: string, uri: string): Promise<void> {
    return this.inner.unsubscribe(id, uri);
  }

  isSubscribed(id: string, uri: string): Promise<boolean> {
    return this.inner.isSubscribed(id, uri);
  }
}

export class FailingEventStore implements EventStore {
  readonly inner: MemoryEventStore;
  readonly faults: Faults;

  constructor(faults: Faults, inner = new MemoryEventStore()) {
    this.faults = faults;
    this.inner = inner;
  }

  append(sessionId: string, streamId: string, message: JsonRpcMessage | null): Promise<string> {
    return this.faults.run("events.append", () => this.inner.append(sessionId, streamId, message));
  }

  replayAfter(sessionId: string, lastEventId: string): Promise<EventReplay | undefined> {
    return this.faults.run("events.replayAfter", () => this.inner.replayAfter(sessionId, lastEventId));
  }

  dropStream(sessionId: string, streamId: string): Promise<void> {
    return this.faults.run("events.dropStream", () => this.inner.dropStream(sessionId, streamId));
  }

  dropSession(sessionId: string): Promise<void> {
    return this.faults.run("events.dropSession", () => this.inner.dropSession(sessionId));
  }
}

export class FailingBus implements Bus {
  readonly inner = new MemoryBus();
  readonly faults: Faults;

  constructor(faults: Faults) {
    this.faults = faults;
  }

  publish(channel: string, message: unknown): Promise<void> {
    return this.faults.run("bus.publish", () => this.inner.publish(channel, message));
  }

  subscribe(channel: string, listener: (message: unknown) => void): Promise<() => void> {
    return this.faults.run("bus.subscribe", () => this.inner.subscribe(channel, listener));
  }
}
