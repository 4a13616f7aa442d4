/** What handlers publish through: change notifications to every stream, and notifications to one session. */
import type { ChangeFeed } from "../context/change-feed.ts";
import type { LegacySessions } from "../legacy/state/sessions.ts";
import { notifySession } from "../legacy/serve/notify-session.ts";
import type { JsonObject, JsonRpcNotification } from "../protocol/jsonrpc.ts";
import type { ChangePublisher, SessionNotifyScope } from "../context/change-publisher.ts";

export class Notifier implements ChangePublisher {
  #changes: ChangeFeed;
  #sessions: LegacySessions | undefined;
  #crossPrincipal: boolean;

  /** `crossPrincipal` (`auth.crossPrincipalNotify`) lets `notifySession` reach other principals' sessions. */
  constructor(changes: ChangeFeed, sessions: LegacySessions | undefined, crossPrincipal = false) {
    this.#changes = changes;
    this.#sessions = sessions;
    this.#crossPrincipal = crossPrincipal;
  }

  publish(method: string, params?: JsonObject): Promise<void> {
    return this.#changes.publish(method, params);
  }

  async notifySession(sessionId: string, message: JsonRpcNotification, scope: SessionNotifyScope): Promise<boolean> {
    if (!this.#sessions) return false;
    // The bus subscription that carries session notifications between instances starts with the first use.
    await this.#sessions.forwardChanges(this.#changes);
    const only = this.#crossPrincipal ? undefined : scope.principal;
    return notifySession(this.#sessions, sessionId, message, { principal: only, forTool: scope.forTool });
  }
}
