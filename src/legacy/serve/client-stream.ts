/**
 * The two halves of a legacy stream a client reads: the resumable channel of a session's stream
 * (written from its event log, so a dropped connection resumes with `Last-Event-ID`), and the SSE
 * sink of one connection to it, which holds at most `maxStreamBufferBytes` for a client that does
 * not read (then it is closed); and the rules of the GET stream's connections.
 */
import type { Inbound } from "../../http/inbound.ts";
import type { LegacyServices } from "../services.ts";
import { ResponseChannel } from "../../stream/channel.ts";
import type { StreamLog } from "../../stream/channel-options.ts";
import { SseSink } from "../../stream/sse.ts";
import { CONNECTION_CLOSED } from "../../protocol/errors.ts";
import { errorReply, type Reply } from "../../http/reply.ts";
import type { LegacySessions } from "../state/sessions.ts";

/** What a resumable channel is written from: its stream's headers and event log. */
export interface ResumableStream {
  headers: Record<string, string>;
  log: StreamLog;
  /** Runs once when the channel finishes. */
  onDone?: () => void;
  /** When the token of the request that opened it expires: its connection closes then. */
  expiresAtMs?: number;
}

/** A resumable channel for a session's stream. */
export function resumableChannel(services: LegacyServices, inbound: Inbound, stream: ResumableStream): ResponseChannel {
  return new ResponseChannel({
    inbound,
    keepAliveMs: services.options.keepAliveMs,
    canStream: true,
    headers: stream.headers,
    log: stream.log,
    maxBufferBytes: services.options.maxStreamBufferBytes,
    incidents: services.incidents,
    onDone: stream.onDone,
    expiresAtMs: stream.expiresAtMs,
  });
}

/**
 * The SSE sink of the request's connection: closed when the client disconnects, or when the token
 * of the request expires (`expiresAtMs`); the stream goes on in its log, to be resumed with a fresh one.
 */
export function connectionSink(services: LegacyServices, inbound: Inbound, expiresAtMs: number | undefined): SseSink {
  const sink = new SseSink(inbound.disconnect, services.options.keepAliveMs, {
    maxBufferBytes: services.options.maxStreamBufferBytes,
    incidents: services.incidents,
  });
  sink.closeAt(expiresAtMs);
  return sink;
}

/** 409 for a second connection to the session's GET stream: one at a time. */
export function getStreamConflictReply(): Reply {
  return errorReply(409, null, CONNECTION_CLOSED, "Conflict: Only one SSE stream is allowed per session");
}

/** The session's idle time counts from when a GET connection closes (the TTL spares it while open). */
export function touchOnClose(sessions: LegacySessions, sessionId: string, closed: AbortSignal): void {
  closed.addEventListener("abort", () => sessions.touch(sessionId), { once: true });
}
