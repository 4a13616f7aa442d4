/** Client notifications on a legacy session. */
import type { JsonRpcNotification } from "../protocol/jsonrpc.ts";
import type { Services } from "../services.ts";
import type { SessionData } from "../stores/types.ts";
import { idKey } from "./live.ts";

/**
 * Handles a notification; all are accepted (202). `notifications/cancelled` aborts the named
 * request of the same session (never `initialize`), and its response is then not sent.
 */
export function handleNotification(
  services: Services,
  session: SessionData | undefined,
  message: JsonRpcNotification,
): void {
  const sessions = services.sessions;
  if (!session || !sessions) return;
  if (message.method === "notifications/initialized") {
    if (!session.initialized) {
      session.initialized = true;
      void sessions.store.set(session);
    }
    return;
  }
  if (message.method === "notifications/cancelled") {
    const requestId = message.params?.requestId;
    if (typeof requestId !== "string" && typeof requestId !== "number") return;
    const context = sessions.live.get(session.id)?.inflight.get(idKey(requestId));
    if (!context) return;
    const reason = message.params?.reason;
    context.abort(new Error(typeof reason === "string" ? reason : "Cancelled by the client"));
    void context.channel.finish(undefined);
  }
}
