/**
 * Legacy GET: the session's standalone stream, or, with `Last-Event-ID` (header, or
 * `?lastEventId=`), the resumption of any stream of the session (`legacy/resume/resume-stream.ts`).
 */
import type { H3Event } from "h3";
import { acceptsEventStream, type Inbound } from "../../http/inbound.ts";
import { CONNECTION_CLOSED } from "../../protocol/errors.ts";
import { errorReply, type Reply } from "../../http/reply.ts";
import type { LegacyServices } from "../services.ts";
import { sseReply } from "../../stream/sse.ts";
import { connectionSink, getStreamConflictReply, resumableChannel, touchOnClose } from "./client-stream.ts";
import type { SessionData } from "../../types/stores.ts";
import { checkSession, noSessionsReply, sessionNotFoundReply } from "./session-check.ts";
import { resumeStream } from "../resume/resume-stream.ts";
import type { LegacySessions } from "../state/sessions.ts";
import { answeringStoreFailure } from "../state/store-failure.ts";
import type { Caller } from "../../auth/gate.ts";
import { refuse } from "../../http/refusal.ts";
import type { GetStreamReader } from "../state/live.ts";
import { sessionHeaders } from "../state/session-headers.ts";

/** The id a resumption leaves off at: the `Last-Event-ID` header, else the `lastEventId` query parameter. */
function lastEventIdOf(inbound: Inbound): string | undefined {
  const header = inbound.header("last-event-id");
  if (header !== null && header !== "") return header;
  const query = inbound.url.indexOf("?");
  if (query === -1) return undefined;
  return new URLSearchParams(inbound.url.slice(query + 1)).get("lastEventId") ?? undefined;
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
    const checked = await checkSession(sessions, inbound, caller);
    if (!checked.ok) return refuse(null, checked.refusal);
    const session = checked.session!;
    await sessions.forwardChanges(services.changes);
    const lastEventId = lastEventIdOf(inbound);
    // Every connection this request opens closes when its token expires (the client reconnects with a fresh one).
    const reader: GetStreamReader = { event, caller };
    return lastEventId === undefined
      ? openGetStream(services, sessions, inbound, session, reader)
      : resumeStream({ services, sessions, inbound, session, lastEventId, reader });
  });
}

/** Opens the session's GET stream, or continues it on a new connection (what was sent before is not replayed). */
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
  if (existing?.connected) return getStreamConflictReply();
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
    const channel = resumableChannel(services, inbound, { headers, log, expiresAtMs: reader.caller?.expiresAtMs });
    live.getStream = channel;
    await channel.open();
    channel.onClose({ abort: () => sessions.touch(session.id) });
    reply = await channel.reply;
  }
  // A DELETE racing this GET may have ended the session before the stream was registered: look
  // again now that it is, so that no stream outlives its session.
  if (!(await sessions.find(session.id))) return sessionNotFoundReply(null);
  return reply;
}
