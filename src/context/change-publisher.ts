/** Where a request context sends what goes beyond its own response: change notifications and other sessions. */
import type { JsonObject, JsonRpcNotification } from "../protocol/jsonrpc.ts";

/** Who a session notification is for: the sender's principal (undefined: any), and the tool its reader must be allowed to call. */
export interface SessionNotifyScope {
  readonly principal?: string | undefined;
  readonly forTool?: string | undefined;
}

/** Change notifications go to the bus (GET and listen streams); `notifySession` reaches another legacy session. */
export interface ChangePublisher {
  publish(method: string, params?: JsonObject): Promise<void>;
  notifySession(sessionId: string, message: JsonRpcNotification, scope: SessionNotifyScope): Promise<boolean>;
}
