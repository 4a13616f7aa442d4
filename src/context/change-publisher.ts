/** Where a request context sends what goes beyond its own response: change notifications and other sessions. */
import type { JsonObject, JsonRpcNotification } from "../protocol/jsonrpc.ts";

/** Change notifications go to the bus (GET and listen streams); `notifySession` reaches another legacy session. */
export interface ChangePublisher {
  publish(method: string, params?: JsonObject): Promise<void>;
  notifySession(sessionId: string, message: JsonRpcNotification, principal: string | undefined): Promise<boolean>;
}
