/**
 * `notifySession`: a notification to one legacy session's GET stream, held by this instance or —
 * when the session routing is plugged in — by another one sharing the stores (see
 * `SessionRouting.notifyHolder`: the stream's log is the way between instances).
 */
import type { JsonRpcNotification } from "../../protocol/jsonrpc.ts";
import type { LegacySessions } from "../state/sessions.ts";

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
  if (sessions.routing) return sessions.routing.notifyHolder(session, message, stream !== undefined);
  // One instance: a stream without a connection keeps the event in its log, for the client's resumption.
  if (!stream) return false;
  await stream.send(message);
  return true;
}
