/**
 * `notifySession`: a notification to one legacy session's GET stream, held by this instance or —
 * when the session routing is plugged in — by another one sharing the stores (see
 * `SessionRouting.notifyHolder`: the stream's log is the way between instances).
 */
import type { SessionNotifyScope } from "../../context/change-publisher.ts";
import type { JsonRpcNotification } from "../../protocol/jsonrpc.ts";
import type { LegacySessions } from "../state/sessions.ts";
import { readerMayCall } from "../state/subscriptions.ts";

/**
 * Sends a notification to a session's GET stream, here or on the instance that holds it. False
 * when the session is unknown, has no GET stream, belongs to another principal than
 * `scope.principal` (when given), or its reader may not call `scope.forTool` (when given).
 */
export async function notifySession(
  sessions: LegacySessions,
  sessionId: string,
  message: JsonRpcNotification,
  scope: SessionNotifyScope,
): Promise<boolean> {
  // With a principal, a session of another principal is left untouched (not even its idle timer).
  const session = await sessions.find(sessionId, scope.principal);
  if (!session) return false;
  const live = sessions.live.get(sessionId);
  const stream = live?.getStream;
  const forTool = scope.forTool;
  if (stream?.connected) {
    if (forTool !== undefined && !(await readerMayCall(sessions.catalogs, live?.getStreamReader, forTool)))
      return false;
    await stream.send(message);
    return true;
  }
  if (sessions.routing)
    return sessions.routing.notifyHolder(session, message, { heldHere: stream !== undefined, forTool });
  // One instance: a stream without a connection keeps the event in its log, for the client's resumption
  // (a tool's notification only when the stream's last reader may call the tool).
  if (!stream) return false;
  if (forTool !== undefined && !(await readerMayCall(sessions.catalogs, live?.getStreamReader, forTool))) return false;
  await stream.send(message);
  return true;
}
