/**
 * A GET with `Last-Event-ID`: the resumption of one stream of the session, its GET stream or a POST
 * response stream. Replay reads only the session's own log, so an id from another session replays
 * nothing; an id whose following events are no longer all kept (the log was trimmed, or the stream
 * dropped after the replay window) replays nothing either.
 *
 * The GET stream resumes on any instance sharing the stores: one that has no channel of it (it was
 * held by another instance, alive or not, or by a process that ended) takes it over, becoming its
 * holder before the replay is read so that every event kept afterwards is sent here, then replays
 * from the shared log and goes on with live events. A POST response stream whose call runs on
 * another instance is followed from here through the session routing.
 */
import type { Inbound } from "../../http/inbound.ts";
import { echoValue } from "../../protocol/echo.ts";
import { CONNECTION_CLOSED } from "../../protocol/errors.ts";
import { errorReply, type Reply } from "../../http/reply.ts";
import { sseReply, type SseSink } from "../../stream/sse.ts";
import type { ResponseChannel } from "../../stream/channel.ts";
import type { EventReplay, SessionData, StoredEvent } from "../../types/stores.ts";
import type { LegacyServices } from "../services.ts";
import { connectionSink, getStreamConflictReply, resumableChannel, touchOnClose } from "../serve/client-stream.ts";
import { sessionNotFoundReply } from "../serve/session-check.ts";
import { GET_STREAM_ID, type LegacySessions } from "../state/sessions.ts";
import type { GetStreamReader, LiveSession } from "../state/live.ts";
import { sessionHeaders } from "../state/session-headers.ts";
import { storeFailedReply } from "../state/store-failure.ts";
import { ResumeReplay, replayAfter } from "./resume-replay.ts";

/** One resumption: the request asking for it, its session (checked) and where it left off. */
export interface Resumption {
  services: LegacyServices;
  /** `services.sessions`, known to be on. */
  sessions: LegacySessions;
  inbound: Inbound;
  session: SessionData;
  /** The id of the last event the client has. */
  lastEventId: string;
  /** Who reads the stream from this connection on; the connection closes when its token expires. */
  reader: GetStreamReader;
}

/**
 * Resumes the stream `lastEventId` belongs to: the events after it, then live ones. 400 when the id is
 * unknown on the session or the events after it are no longer all kept, 409 when the GET stream has
 * a connection already.
 *
 * @example
 * const reply = await resumeStream({ services, sessions, inbound, session, lastEventId, reader });
 */
export async function resumeStream(resumption: Resumption): Promise<Reply> {
  const { sessions, session, lastEventId } = resumption;
  sessions.retention.dropDue();
  const found = await replayAfter(sessions, session.id, lastEventId);
  if (!found || found.gap) return notReplayable(lastEventId);
  return found.streamId === GET_STREAM_ID ? resumeGetStream(resumption) : resumePostStream(resumption, found);
}

/** One answer for an id never sent on this session and for events no longer kept: a guess learns nothing. */
function notReplayable(lastEventId: string): Reply {
  return errorReply(
    400,
    null,
    CONNECTION_CLOSED,
    `Bad Request: Last-Event-ID ${echoValue(lastEventId)} is unknown on this session, or the events after it are no longer available`,
  );
}

/**
 * The session's GET stream, on its channel here, else taken over. This instance holds the stream
 * first, also when its channel is here: another instance may have taken it over meanwhile, and
 * its word that it did may have been lost.
 */
async function resumeGetStream(resumption: Resumption): Promise<Reply> {
  const { services, sessions, inbound, session, lastEventId, reader } = resumption;
  if (sessions.live.get(session.id)?.getStream?.connected) return getStreamConflictReply();
  await sessions.holdStream(session);
  const live = sessions.live.ensure(session.id);
  // A resumption that raced this one may have connected meanwhile.
  if (live.getStream?.connected) return getStreamConflictReply();
  const takenOver = live.getStream === undefined;
  const channel = live.getStream ?? takeOver(resumption, live);
  live.getStreamReader = reader;
  const sink = connectionSink(services, inbound, reader.caller?.expiresAtMs);
  const replay = new ResumeReplay(sessions, session.id, lastEventId);
  await channel.resume(sink, replay.read);
  if (takenOver && (replay.gone || sink.isClosed)) {
    // The replay could not be read: nothing holds the stream here, the client may try again.
    if (live.getStream === channel) live.getStream = live.getStreamReader = undefined;
    services.incidents.own(channel.finish(undefined));
    sessions.live.release(session.id);
    return replay.gone ? notReplayable(lastEventId) : storeFailedReply(null);
  }
  if (replay.gone) return notReplayable(lastEventId);
  touchOnClose(sessions, session.id, sink.closed);
  // A DELETE racing this GET may have ended the session before the taken-over stream was
  // registered: look again now that it is, so that no stream outlives its session.
  if (takenOver && !(await sessions.find(session.id))) return sessionNotFoundReply(null);
  return sseReply(sink.stream, sessionHeaders(session.id));
}

/** A new channel here for the session's GET stream, written from the shared log after `lastEventId`. */
function takeOver(resumption: Resumption, live: LiveSession): ResponseChannel {
  const { services, sessions, inbound, session, lastEventId } = resumption;
  const log = sessions.getStreamLog(session);
  // The client has every event up to its Last-Event-ID: later ones from the log or the bus, never it again.
  log.written(lastEventId);
  const channel = resumableChannel(services, inbound, { headers: sessionHeaders(session.id), log });
  live.getStream = channel;
  return channel;
}

/** A POST response stream: on its channel here, else followed from the instance running its call. */
async function resumePostStream(resumption: Resumption, found: EventReplay): Promise<Reply> {
  const { services, sessions, inbound, session, lastEventId, reader } = resumption;
  const channel = sessions.live.get(session.id)?.streams.get(found.streamId);
  const sink = connectionSink(services, inbound, reader.caller?.expiresAtMs);
  if (channel) {
    const replay = new ResumeReplay(sessions, session.id, lastEventId);
    await channel.resume(sink, replay.read);
    return replay.gone ? notReplayable(lastEventId) : sseReply(sink.stream, sessionHeaders(session.id));
  }
  // The stream's call runs on another instance (or finished): follow it from here.
  if (!sessions.routing) return replayFinished(sink, session.id, found.events);
  const followed = await sessions.routing.follow({
    inbound,
    session,
    lastEventId,
    found,
    sink,
    channel: (log, onDone) => resumableChannel(services, inbound, { headers: sessionHeaders(session.id), log, onDone }),
    maxFollowed: services.options.sessions === false ? 0 : services.options.sessions.maxStreamsPerSession,
    keepAliveMs: services.options.keepAliveMs,
  });
  return followed ?? notReplayable(lastEventId);
}

/** A POST stream with no call running (and no other instance to run one): what was kept, then the end. */
function replayFinished(sink: SseSink, sessionId: string, events: StoredEvent[]): Reply {
  sink.replay(events);
  sink.close();
  return sseReply(sink.stream, sessionHeaders(sessionId));
}
