/**
 * The three small interfaces behind sessions, resumability and cross-instance delivery.
 * In-memory implementations are the default; `mcp-h3/redis` implements all three on one Redis.
 */
import type { JsonRpcMessage } from "../protocol/jsonrpc.ts";
import type { ClientCapabilities, Implementation, LogLevel } from "../protocol/types.ts";

/** What a legacy session remembers between requests. Plain data, so any store can keep it. */
export interface SessionData {
  id: string;
  protocolVersion: string;
  clientInfo?: Implementation;
  clientCapabilities: ClientCapabilities;
  logLevel?: LogLevel;
  /** The principal the session was opened by (auth on). */
  principal?: string;
  /** URIs of `resources/subscribe`. */
  subscriptions: string[];
  /** Whether `notifications/initialized` arrived. */
  initialized: boolean;
  /** The instance holding the session's GET stream, for notifications sent from other instances. */
  streamInstance?: string;
  createdAt: number;
}

/** Where legacy sessions live. Implementations expire sessions idle longer than their TTL. */
export interface SessionStore {
  /** The session, refreshing its idle timer; undefined when unknown, expired or deleted. */
  get(id: string): Promise<SessionData | undefined>;
  /** Stores a new session or replaces an existing one's data. */
  set(session: SessionData): Promise<void>;
  /** Ends a session; returns whether it existed. */
  delete(id: string): Promise<boolean>;
  /** Called with the id of every session the store ends on its own (TTL, count limit). */
  onEvict?(listener: (id: string) => void): void;
}

/** One stored SSE event. */
export interface StoredEvent {
  id: string;
  message: JsonRpcMessage | null;
}

/** The log behind `Last-Event-ID`: events per session and stream. */
export interface EventStore {
  /** Appends a message to one stream of one session and returns its event id, unique within the session. */
  append(sessionId: string, streamId: string, message: JsonRpcMessage | null): Promise<string>;
  /**
   * Events of the stream named by `lastEventId` that come after it, only when that stream belongs
   * to `sessionId`; undefined when the id is unknown or belongs to another session.
   */
  replayAfter(sessionId: string, lastEventId: string): Promise<{ streamId: string; events: StoredEvent[] } | undefined>;
  /** Forgets one finished stream. */
  dropStream(sessionId: string, streamId: string): Promise<void>;
  /** Forgets everything of a session. */
  dropSession(sessionId: string): Promise<void>;
}

/** Publish/subscribe for messages that must reach streams on any instance. */
export interface Bus {
  publish(channel: string, message: unknown): Promise<void>;
  /** Subscribes and returns the function that unsubscribes. */
  subscribe(channel: string, listener: (message: unknown) => void): Promise<() => void>;
}
