/** Client notifications on a legacy session. */
import type { JsonRpcNotification } from "../../protocol/jsonrpc.ts";
import type { LegacyServices } from "../services.ts";
import type { SessionData } from "../../types/stores.ts";

/**
 * Handles a notification; all are accepted (202). `notifications/initialized` marks the session
 * initialized (it then no longer counts against `sessions.maxPendingSessions`); the store write is
 * awaited, so a failing store is answered (503) rather than lost. `notifications/cancelled` aborts
 * the named request of the same session (never `initialize`), and its response is then not sent;
 * when that request does not run here, the session's other instances are told (the one running
 * it aborts it).
 */
export async function handleNotification(
  services: LegacyServices,
  session: SessionData | undefined,
  message: JsonRpcNotification,
): Promise<void> {
  const sessions = services.sessions;
  if (!session || !sessions) return;
  if (message.method === "notifications/initialized") {
    if (!session.initialized) {
      try {
        await sessions.change(session, (copy) => void (copy.initialized = true));
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
    const given = message.params?.reason;
    const reason = typeof given === "string" ? given : undefined;
    if (sessions.live.cancel(session.id, requestId, reason)) return;
    // Cancelling is best effort (the request may have finished already): a failing bus costs no error.
    sessions.routing?.cancel(session.id, requestId, reason);
  }
}
