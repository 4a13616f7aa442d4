/**
 * The two halves of a legacy stream a client reads: the resumable channel of a session's stream
 * (written from its event log, so a dropped connection resumes with `Last-Event-ID`), and the SSE
 * sink of one connection to it, which holds at most `maxStreamBufferBytes` for a client that does
 * not read (then it is closed).
 */
import type { Inbound } from "../../http/inbound.ts";
import type { LegacyServices } from "../services.ts";
import { ResponseChannel } from "../../stream/channel.ts";
import type { StreamLog } from "../../stream/channel-options.ts";
import { SseSink } from "../../stream/sse.ts";

/** A resumable channel for a session's stream; `onDone` runs once when it finishes. */
export function resumableChannel(
  services: LegacyServices,
  inbound: Inbound,
  headers: Record<string, string>,
  log: StreamLog,
  onDone?: () => void,
  expiresAtMs?: number,
): ResponseChannel {
  return new ResponseChannel({
    inbound,
    keepAliveMs: services.options.keepAliveMs,
    canStream: true,
    headers,
    log,
    maxBufferBytes: services.options.maxStreamBufferBytes,
    incidents: services.incidents,
    onDone,
    expiresAtMs,
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
