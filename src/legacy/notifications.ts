/** Client notifications on a legacy session. */
import { abortRequest, channelOf } from "../context/request-context.ts";
import type { JsonRpcNotification } from "../protocol/jsonrpc.ts";
import type { Services } from "../engine/services.ts";
import type { SessionData } from "../types/stores.ts";
import { idKey } from "./live.ts";

/**
 * Handles a notification; all are accepted (202). `notifications/initialized` marks the session
 * initialized (it then no longer counts against `sessions.maxPendingSessions`); the store write is
 * awaited, so a failing store is answered (503) rather than lost. `notifications/cancelled` aborts
 * the named request of the same session (never `initialize`), and its response is then not sent.
 */
export async function handleNotification(
  services: Services,
  session: SessionData | undefined,
  message: JsonRpcNotification,
): Promise<void> {
  const sessions = services.sessions;
  if (!session || !sessions) return;
  if (message.method === "notifications/initialized") {
    if (!session.initialized) {
      session.initialized = true;
      try {
        await sessions.save(session);
      } catch (error) {
        session.initialized = false; // Not saved: the copy at hand must not say otherwise.
        throw error;
      }
    }
    return;
  }
  if (message.method === "notifications/cancelled") {
    const requestId = message.params?.requestId;
    if (typeof requestId !== "string" && typeof requestId !== "number") return;
    const context = sessions.live.get(session.id)?.inflight.get(idKey(requestId));
    if (!context) return;
    const reason = message.params?.reason;
    abortRequest(context, new Error(typeof reason === "string" ? reason : "Cancelled by the client"));
    services.incidents.own(channelOf(context).finish(undefined));
  }
}
