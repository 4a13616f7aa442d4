/**
 * `notifySession`: a notification to one legacy session's GET stream, held by this instance or
 * by another one sharing the stores. The GET stream's log is the way between instances: what is
 * sent to a stream held elsewhere is kept there first, so it outlives the instance that holds it.
 */
import type { JsonRpcNotification } from "../../protocol/jsonrpc.ts";
import { sessionBusMessage } from "./session-bus.ts";
import { GET_STREAM_ID, type LegacySessions } from "../state/sessions.ts";
import { stored } from "../state/store-failure.ts";

/**
 * Sends a notification to a session's GET stream, here or on the instance that holds it.
 * False when the session is unknown, has no GET stream, or belongs to another principal.
 */
export async function notifySession(
  sessions: LegacySessions,
  sessionId: string,
  message: JsonRpcNotification,
  principal: string | undefined,
): Promise<boolean> {
  // With a principal, a session of another principal is left untouched (not even its idle timer).
  const session = await sessions.find(sessionId, principal);
  if (!session) return false;
  const stream = sessions.live.get(sessionId)?.getStream;
  if (stream?.connected) {
    await stream.send(message);
    return true;
  }
  // A stream held here without a connection may have been taken over by another instance whose word
  // has not arrived yet (its client resumed there, after the replay was read): the event goes to
  // whoever holds the stream once it is kept, as for a stream held elsewhere.
  if (stream) return notifyHolder(sessions, sessionId, message);
  if (session.streamInstance === undefined || session.streamInstance === sessions.instance) return false;
  return notifyHolder(sessions, sessionId, message);
}

/**
 * The GET stream is held by another instance, or may be (see above): the event is kept in the
 * stream's log first, so it survives that instance (a resumption anywhere replays it), then the
 * holder is told to write it. The holder is looked up again after the event is kept: one that took
 * the stream over meanwhile either read the log after it, or is the one told.
 */
async function notifyHolder(
  sessions: LegacySessions,
  sessionId: string,
  message: JsonRpcNotification,
): Promise<boolean> {
  const eventId = await stored(() => sessions.events.append(sessionId, GET_STREAM_ID, message));
  const session = await stored(() => sessions.store.get(sessionId));
  const holder = session?.streamInstance;
  if (holder === undefined || holder === sessions.instance) {
    const stream = sessions.live.get(sessionId)?.getStream;
    if (stream) await stream.sendKept({ id: eventId, message });
    return stream !== undefined || holder !== undefined;
  }
  const told = sessionBusMessage.event(sessions.instance, sessionId, holder, eventId, message);
  await stored(() => sessions.router.publish(told));
  return true;
}
