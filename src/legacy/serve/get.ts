/**
 * Legacy GET: the session's standalone stream, or the resumption of any stream of the session
 * with `Last-Event-ID` (header, or `?lastEventId=`). Replay reads only the session's own log, so an
 * id from another session replays nothing; an id whose following events are no longer all kept
 * (the log was trimmed, or the stream dropped after the replay window) replays nothing either.
 * The GET stream resumes on any instance sharing the stores: one that does not hold it replays
 * from the shared log and holds it from then on (see `takeOver`).
 */
import type { H3Event } from "h3";
import { acceptsEventStream, type Inbound } from "../../http/inbound.ts";
import { echoValue } from "../../protocol/echo.ts";
import { CONNECTION_CLOSED, SESSION_NOT_FOUND_CODE } from "../../protocol/errors.ts";
import { errorReply, type Reply } from "../../http/reply.ts";
import type { LegacyServices } from "../services.ts";
import { sseReply, type SseSink } from "../../stream/sse.ts";
import { connectionSink, resumableChannel } from "./client-stream.ts";
import type { SessionData, StoredEvent } from "../../types/stores.ts";
import { checkSession, noSessionsReply } from "./session-check.ts";
import { ResumeReplay, replayAfter } from "../resume/resume-replay.ts";
import { GET_STREAM_ID, type LegacySessions } from "../state/sessions.ts";
import { answeringStoreFailure, storeFailedReply } from "../state/store-failure.ts";
import type { Caller } from "../../auth/gate.ts";
import type { GetStreamReader } from "../state/live.ts";
import { sessionHeaders } from "../state/session-headers.ts";

function lastEventIdOf(inbound: Inbound): string | undefined {
  const header = inbound.header("last-event-id");
  if (header !== null && header !== "") return header;
  const query = inbound.url.indexOf("?");
  if (query === -1) return undefined;
  return new URLSearchParams(inbound.url.slice(query + 1)).get("lastEventId") ?? undefined;
}

const CONFLICT = "Conflict: Only one SSE stream is allowed per session";

/** One answer for an id never sent on this session and for events no longer kept: a guess learns nothing. */
function notReplayable(lastEventId: string): Reply {
  return errorReply(
    400,
    null,
    CONNECTION_CLOSED,
    `Bad Request: Last-Event-ID ${echoValue(lastEventId)} is unknown on this session, or the events after it are no longer available`,
  );
}

export async function serveLegacyGet(
  services: LegacyServices,
  inbound: Inbound,
  event: H3Event,
  caller: Caller | undefined,
): Promise<Reply> {
  const sessions = services.sessions;
  if (!sessions) return noSessionsReply();
  if (!acceptsEventStream(inbound)) {
    return errorReply(406, null, CONNECTION_CLOSED, "Not Acceptable: GET needs Accept: text/event-stream");
  }
  return answeringStoreFailure(null, async () => {
    const checked = await checkSession(sessions, inbound, null, caller);
    if (!checked.ok) return checked.reply;
    const session = checked.session!;
    await sessions.forwardChanges(services.changes);
    const lastEventId = lastEventIdOf(inbound);
    // Every connection this request opens closes when its token expires (the client reconnects with a fresh one).
    const reader: GetStreamReader = { event, caller };
    return lastEventId === undefined
      ? openGetStream(services, sessions, inbound, session, reader)
      : resume(services, sessions, inbound, session, lastEventId, reader);
  });
}

/** The session's idle time counts from when a GET connection closes (the TTL spares it while open). */
function touchOnClose(sessions: LegacySessions, sessionId: string, closed: AbortSignal): void {
  closed.addEventListener("abort", () => sessions.touch(sessionId), { once: true });
}

async function openGetStream(
  services: LegacyServices,
  sessions: LegacySessions,
  inbound: Inbound,
  session: SessionData,
  reader: GetStreamReader,
): Promise<Reply> {
  await sessions.holdStream(session);
  const live = sessions.live.ensure(session.id);
  const existing = live.getStream;
  if (existing?.connected) return errorReply(409, null, CONNECTION_CLOSED, CONFLICT);
  live.getStreamReader = reader;
  const headers = sessionHeaders(session.id);
  let reply: Reply;
  if (existing) {
    // A new connection continues the session's GET stream from now on.
    const sink = connectionSink(services, inbound, reader.caller?.expiresAtMs);
    await existing.resume(sink, async () => []);
    touchOnClose(sessions, session.id, sink.closed);
    reply = sseReply(sink.stream, headers);
  } else {
    const log = sessions.getStreamLog(session);
    const channel = resumableChannel(services, inbound, headers, log, undefined, reader.caller?.expiresAtMs);
    live.getStream = channel;
    await channel.open();
    channel.onClose({ abort: () => sessions.touch(session.id) });
    reply = await channel.reply;
  }
  // A DELETE racing this GET may have ended the session before the stream was registered: look
  // again now that it is, so that no stream outlives its session.
  if (!(await sessions.find(session.id))) {
    return errorReply(404, null, SESSION_NOT_FOUND_CODE, "Session not found");
  }
  return reply;
}

async function resume(
  services: LegacyServices,
  sessions: LegacySessions,
  inbound: Inbound,
  session: SessionData,
  lastEventId: string,
  reader: GetStreamReader,
): Promise<Reply> {
  sessions.retention.dropDue();
  const found = await replayAfter(sessions, session.id, lastEventId);
  if (!found || found.gap) return notReplayable(lastEventId);
  const live = sessions.live.get(session.id);
  const isGet = found.streamId === GET_STREAM_ID;
  const channel = isGet ? live?.getStream : live?.streams.get(found.streamId);
  if (channel?.connected && isGet) return errorReply(409, null, CONNECTION_CLOSED, CONFLICT);
  if (!channel && isGet) return takeOver(services, sessions, inbound, session, lastEventId, reader);
  if (!channel) {
    // The POST stream's call runs on another instance (or finished): follow it from here.
    const sink = connectionSink(services, inbound, reader.caller?.expiresAtMs);
    if (!sessions.routing) return replayFinished(sink, session.id, found.events);
    const followed = await sessions.routing.follow({
      inbound,
      session,
      lastEventId,
      found,
      sink,
      channel: (log, onDone) => resumableChannel(services, inbound, sessionHeaders(session.id), log, onDone),
      maxFollowed: services.options.sessions === false ? 0 : services.options.sessions.maxStreamsPerSession,
      keepAliveMs: services.options.keepAliveMs,
    });
    return followed ?? notReplayable(lastEventId);
  }
  // This instance holds the stream again if another one took it over meanwhile (and its word was lost).
  if (isGet) {
    await sessions.holdStream(session);
    live!.getStreamReader = reader;
  }
  const sink = connectionSink(services, inbound, reader.caller?.expiresAtMs);
  const replay = new ResumeReplay(sessions, session.id, lastEventId);
  await channel.resume(sink, replay.read);
  if (replay.gone) return notReplayable(lastEventId);
  if (isGet) touchOnClose(sessions, session.id, sink.closed);
  return sseReply(sink.stream, sessionHeaders(session.id));
}

/** A POST stream with no call running (and no other instance to run one): what was kept, then the end. */
function replayFinished(sink: SseSink, sessionId: string, events: StoredEvent[]): Reply {
  sink.replay(events);
  sink.close();
  return sseReply(sink.stream, sessionHeaders(sessionId));
}

/**
 * Resumes the session's GET stream here when this instance has no channel of it (it was held by
 * another instance, alive or not, or by a process that ended): this instance becomes the holder
 * first, so that every event kept after the replay is read is sent here, then replays from the
 * shared log and goes on with live events. The former holder is told to let its channel go.
 */
async function takeOver(
  services: LegacyServices,
  sessions: LegacySessions,
  inbound: Inbound,
  session: SessionData,
  lastEventId: string,
  reader: GetStreamReader,
): Promise<Reply> {
  await sessions.holdStream(session);
  const live = sessions.live.ensure(session.id);
  // A resumption that raced this one took the stream first: continue it as a local resumption.
  if (live.getStream) return resume(services, sessions, inbound, session, lastEventId, reader);
  const headers = sessionHeaders(session.id);
  const log = sessions.getStreamLog(session);
  // The client has every event up to its Last-Event-ID: later ones from the log or the bus, never it again.
  log.written(lastEventId);
  const channel = resumableChannel(services, inbound, headers, log);
  live.getStream = channel;
  live.getStreamReader = reader;
  const sink = connectionSink(services, inbound, reader.caller?.expiresAtMs);
  const replay = new ResumeReplay(sessions, session.id, lastEventId);
  await channel.resume(sink, replay.read);
  if (replay.gone || sink.isClosed) {
    // The replay could not be read: nothing holds the stream here, the client may try again.
    if (live.getStream === channel) live.getStream = live.getStreamReader = undefined;
    services.incidents.own(channel.finish(undefined));
    sessions.live.release(session.id);
    return replay.gone ? notReplayable(lastEventId) : storeFailedReply(null);
  }
  touchOnClose(sessions, session.id, sink.closed);
  if (!(await sessions.find(session.id))) {
    return errorReply(404, null, SESSION_NOT_FOUND_CODE, "Session not found");
  }
  return sseReply(sink.stream, headers);
}
