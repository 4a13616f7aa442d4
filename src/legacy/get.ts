/**
 * Legacy GET: the session's standalone stream, or the resumption of any stream of the session
 * with `Last-Event-ID` (header, or `?lastEventId=`). Replay reads only the session's own log, so an
 * id from another session replays nothing.
 */
import { acceptsEventStream, type Inbound } from "../inbound.ts";
import { CONNECTION_CLOSED } from "../protocol/errors.ts";
import { errorReply, type Reply } from "../reply.ts";
import type { Services } from "../services.ts";
import { ResponseChannel } from "../stream/channel.ts";
import { SseSink, sseReply } from "../stream/sse.ts";
import type { SessionData } from "../stores/types.ts";
import { checkSession, noSessionsReply } from "./session-check.ts";
import { GET_STREAM_ID, type LegacySessions } from "./sessions.ts";

function lastEventIdOf(inbound: Inbound): string | undefined {
  const header = inbound.header("last-event-id");
  if (header !== null && header !== "") return header;
  const query = inbound.url.indexOf("?");
  if (query === -1) return undefined;
  return new URLSearchParams(inbound.url.slice(query + 1)).get("lastEventId") ?? undefined;
}

const CONFLICT = "Conflict: Only one SSE stream is allowed per session";

export async function serveLegacyGet(services: Services, inbound: Inbound): Promise<Reply> {
  const sessions = services.sessions;
  if (!sessions) return noSessionsReply();
  if (!acceptsEventStream(inbound)) {
    return errorReply(406, null, CONNECTION_CLOSED, "Not Acceptable: GET needs Accept: text/event-stream");
  }
  const checked = await checkSession(sessions, inbound, null);
  if (!checked.ok) return checked.reply;
  const session = checked.session!;
  await sessions.forwardChanges(services.changes);
  const lastEventId = lastEventIdOf(inbound);
  return lastEventId === undefined
    ? openGetStream(services, sessions, inbound, session)
    : resume(services, sessions, inbound, session, lastEventId);
}

async function openGetStream(
  services: Services,
  sessions: LegacySessions,
  inbound: Inbound,
  session: SessionData,
): Promise<Reply> {
  const live = sessions.live.ensure(session.id);
  await sessions.holdStream(session);
  const existing = live.getStream;
  if (existing?.connected) return errorReply(409, null, CONNECTION_CLOSED, CONFLICT);
  if (existing) {
    // A new connection continues the session's GET stream from now on.
    const sink = new SseSink(inbound.disconnect, services.options.keepAliveMs);
    await existing.resume(sink, async () => []);
    return sseReply(sink.stream, { "mcp-session-id": session.id });
  }
  const channel = new ResponseChannel({
    inbound,
    keepAliveMs: services.options.keepAliveMs,
    canStream: true,
    headers: { "mcp-session-id": session.id },
    log: sessions.getStreamLog(session),
  });
  live.getStream = channel;
  await channel.open();
  return channel.reply;
}

async function resume(
  services: Services,
  sessions: LegacySessions,
  inbound: Inbound,
  session: SessionData,
  lastEventId: string,
): Promise<Reply> {
  const found = await sessions.events.replayAfter(session.id, lastEventId);
  if (!found) {
    return errorReply(
      400,
      null,
      CONNECTION_CLOSED,
      `Bad Request: unknown Last-Event-ID for this session: ${lastEventId}`,
    );
  }
  const live = sessions.live.get(session.id);
  const channel = found.streamId === GET_STREAM_ID ? live?.getStream : live?.streams.get(found.streamId);
  if (channel?.connected && found.streamId === GET_STREAM_ID) {
    return errorReply(409, null, CONNECTION_CLOSED, CONFLICT);
  }
  const sink = new SseSink(inbound.disconnect, services.options.keepAliveMs);
  if (channel) {
    // Replay is read again inside the stream's queue, so events sent meanwhile are neither lost nor doubled.
    await channel.resume(sink, async () => (await sessions.events.replayAfter(session.id, lastEventId))?.events ?? []);
  } else {
    // The stream finished (or lives elsewhere): replay what was kept and end.
    sink.replay(found.events);
    sink.close();
  }
  return sseReply(sink.stream, { "mcp-session-id": session.id });
}
