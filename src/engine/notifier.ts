/** What handlers publish through: change notifications to every stream, and notifications to one session. */
import type { ChangeFeed } from "../context/change-feed.ts";
import type { LegacySessions } from "../legacy/sessions.ts";
import type { JsonObject, JsonRpcNotification } from "../protocol/jsonrpc.ts";
import type { ChangePublisher } from "../context/change-publisher.ts";

export class Notifier implements ChangePublisher {
  #changes: ChangeFeed;
  #sessions: LegacySessions | undefined;

  constructor(changes: ChangeFeed, sessions: LegacySessions | undefined) {
    this.#changes = changes;
    this.#sessions = sessions;
  }

  publish(method: string, params?: JsonObject): Promise<void> {
    return this.#changes.publish(method, params);
  }

  async notifySession(
    sessionId: string,
    message: JsonRpcNotification,
    principal: string | undefined,
  ): Promise<boolean> {
    if (!this.#sessions) return false;
    // The bus subscription that carries session notifications between instances starts with the first use.
    await this.#sessions.forwardChanges(this.#changes);
    return this.#sessions.notify(sessionId, message, principal, this.#changes.bus);
  }
}
