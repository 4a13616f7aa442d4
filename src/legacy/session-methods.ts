/** Methods that exist only on legacy sessions: `ping`, `logging/setLevel`, `resources/(un)subscribe`. */
import type { H3Event } from "h3";
import { INVALID_PARAMS } from "../protocol/errors.ts";
import { failure, success, type JsonObject, type JsonRpcRequest, type JsonRpcResponse } from "../protocol/jsonrpc.ts";
import { isLogLevel } from "../protocol/types.ts";
import type { Services } from "../services.ts";
import type { SessionData } from "../stores/types.ts";

/** The methods {@link serveSessionMethod} answers (when the capability behind them is declared). */
export const SESSION_METHODS: ReadonlySet<string> = new Set([
  "ping",
  "logging/setLevel",
  "resources/subscribe",
  "resources/unsubscribe",
]);

/** Methods that exist only on legacy sessions; undefined when the method is not one of them. */
export async function serveSessionMethod(
  services: Services,
  event: H3Event,
  session: SessionData | undefined,
  message: JsonRpcRequest,
): Promise<JsonRpcResponse | undefined> {
  const params: JsonObject = message.params ?? {};
  switch (message.method) {
    case "ping":
      return success(message.id, {});
    case "logging/setLevel": {
      if (!services.options.logging) return undefined;
      if (!isLogLevel(params.level)) {
        return failure(message.id, INVALID_PARAMS, `Invalid params: unknown log level ${JSON.stringify(params.level)}`);
      }
      if (session && services.sessions) {
        session.logLevel = params.level;
        await services.sessions.store.set(session);
      }
      await services.onLogLevelSet?.(params.level, event);
      return success(message.id, {});
    }
    case "resources/subscribe":
    case "resources/unsubscribe": {
      if (!services.capabilities.resources) return undefined;
      if (typeof params.uri !== "string") {
        return failure(message.id, INVALID_PARAMS, 'Invalid params: "uri" must be a string');
      }
      if (session && services.sessions) {
        const others = session.subscriptions.filter((uri) => uri !== params.uri);
        session.subscriptions = message.method === "resources/subscribe" ? [...others, params.uri] : others;
        await services.sessions.store.set(session);
      }
      return success(message.id, {});
    }
    default:
      return undefined;
  }
}
