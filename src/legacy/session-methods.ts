/** Methods that exist only on legacy sessions: `ping`, `logging/setLevel`, `resources/(un)subscribe`. */
import type { H3Event } from "h3";
import { uriTooLong } from "../dispatch/resources.ts";
import { echoValue } from "../protocol/echo.ts";
import { INTERNAL_ERROR, INVALID_PARAMS } from "../protocol/errors.ts";
import {
  failure,
  success,
  type JsonObject,
  type JsonRpcId,
  type JsonRpcRequest,
  type JsonRpcResponse,
} from "../protocol/jsonrpc.ts";
import { isLogLevel } from "../protocol/types.ts";
import type { Services } from "../engine/services.ts";
import type { SessionData } from "../types/stores.ts";
import type { LegacySessions } from "./sessions.ts";
import { StoreFailure } from "./store-failure.ts";
import { addSubscription, removeSubscription, subscriptionsOf } from "./subscriptions.ts";

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
      const level = params.level;
      if (!isLogLevel(level)) {
        return failure(message.id, INVALID_PARAMS, `Invalid params: unknown log level ${echoValue(level)}`);
      }
      if (session && services.sessions) {
        const previous = session.logLevel;
        const failed = await saved(services.sessions, session, message.id, "the log level", (copy) => {
          copy.logLevel = level;
        });
        if (failed) {
          session.logLevel = previous;
          return failed;
        }
      }
      await services.onLogLevelSet?.(level, event);
      return success(message.id, {});
    }
    case "resources/subscribe":
    case "resources/unsubscribe":
      return services.capabilities.resources ? subscription(services, session, message, params) : undefined;
    default:
      return undefined;
  }
}

/** `resources/(un)subscribe`: URIs are length-capped, and a session holds at most `sessions.maxSubscriptions`. */
async function subscription(
  services: Services,
  session: SessionData | undefined,
  message: JsonRpcRequest,
  params: JsonObject,
): Promise<JsonRpcResponse> {
  const uri = params.uri;
  if (typeof uri !== "string") return failure(message.id, INVALID_PARAMS, 'Invalid params: "uri" must be a string');
  const { maxUriLength, sessions: limits } = services.options;
  const tooLong = uriTooLong(uri, maxUriLength);
  if (tooLong) return failure(message.id, tooLong.code, tooLong.message, tooLong.data);
  const sessions = services.sessions;
  if (!session || !sessions) return success(message.id, {});
  const subscribe = message.method === "resources/subscribe";
  const max = limits ? limits.maxSubscriptions : Infinity;
  // Checked on each copy the change is made to: another instance may have added some meanwhile.
  const full = (copy: SessionData) => subscribe && copy.subscriptions.length >= max && !subscriptionsOf(copy).has(uri);
  let capped = full(session);
  let changed = false;
  const failed =
    !capped &&
    (await saved(sessions, session, message.id, "the subscription", (copy) => {
      capped = full(copy);
      changed = !capped && (subscribe ? addSubscription(copy, uri) : removeSubscription(copy, uri));
      return changed;
    }));
  if (failed) {
    // Not saved: undo, so the copy at hand says what the store says.
    if (subscribe) removeSubscription(session, uri);
    else addSubscription(session, uri);
    return failed;
  }
  if (capped) {
    return failure(
      message.id,
      INVALID_PARAMS,
      `Invalid params: this session already holds sessions.maxSubscriptions (${max}) subscriptions; unsubscribe first`,
      { limit: "sessions.maxSubscriptions", max },
    );
  }
  return success(message.id, {});
}

/** Makes `change` to the session and saves it; a `-32603` answer when the store failed, undefined when saved. */
async function saved(
  sessions: LegacySessions,
  session: SessionData,
  id: JsonRpcId,
  what: string,
  change: (copy: SessionData) => boolean | void,
): Promise<JsonRpcResponse | undefined> {
  try {
    await sessions.change(session, change);
    return undefined;
  } catch (error) {
    if (!(error instanceof StoreFailure)) throw error;
    return failure(id, INTERNAL_ERROR, `Internal error: the session store failed; ${what} was not saved`);
  }
}
