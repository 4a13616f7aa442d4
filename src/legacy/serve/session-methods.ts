/** Methods that exist only on legacy sessions: `ping`, `logging/setLevel`, `resources/(un)subscribe`. */
import type { H3Event } from "h3";
import { requireString } from "../../dispatch/params.ts";
import { checkUriLength } from "../../dispatch/resources.ts";
import { echoValue } from "../../protocol/echo.ts";
import { INTERNAL_ERROR, INVALID_PARAMS } from "../../protocol/errors.ts";
import {
  failure,
  success,
  type JsonObject,
  type JsonRpcId,
  type JsonRpcRequest,
  type JsonRpcResponse,
} from "../../protocol/jsonrpc.ts";
import { methodsServedBy } from "../../protocol/methods.ts";
import { isLogLevel } from "../../protocol/types.ts";
import type { LegacyServices } from "../services.ts";
import type { SessionData, SubscribeOutcome } from "../../types/stores.ts";
import type { LegacySessions } from "../state/sessions.ts";
import { StoreFailure, stored } from "../state/store-failure.ts";
import type { Reply } from "../../http/reply.ts";
import type { Caller } from "../../auth/gate.ts";
import { subscriptionRefusal } from "../../auth/definition-scopes.ts";
import { refuse } from "../../http/refusal.ts";
import { resourceNotFound } from "../../define/read-resource.ts";

/**
 * The methods the legacy lane answers itself, read from their descriptors: {@link serveSessionMethod}
 * answers them (when the capability behind them is declared), except `initialize`, which the lane
 * answers before any session is looked up and so never comes here.
 */
export const SESSION_METHODS: ReadonlySet<string> = methodsServedBy("legacy", "lane");

/**
 * Methods that exist only on legacy sessions; undefined when the method is not one of them. A
 * `Reply` is an HTTP answer of its own (the 403 of a subscribe without the resource's scopes); an
 * `McpError` thrown is the request's error response, as from a dispatch function.
 */
export async function serveSessionMethod(
  services: LegacyServices,
  event: H3Event,
  session: SessionData | undefined,
  message: JsonRpcRequest,
  caller: Caller | undefined,
): Promise<JsonRpcResponse | Reply | undefined> {
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
      return services.capabilities.resources ? subscription(services, event, session, message, caller) : undefined;
    default:
      return undefined;
  }
}

/**
 * `resources/(un)subscribe`: URIs are length-capped, a session holds at most
 * `sessions.maxSubscriptions`, and subscribing needs what reading needs (the 403 or `-32002`
 * `resources/read` of the URI would get). The store keeps them beside the session (see
 * `SessionStore.subscribe`), so the session's own data is neither read again nor rewritten.
 */
async function subscription(
  services: LegacyServices,
  event: H3Event,
  session: SessionData | undefined,
  message: JsonRpcRequest,
  caller: Caller | undefined,
): Promise<JsonRpcResponse | Reply> {
  const uri = requireString(message.params ?? {}, "uri");
  const { maxUriLength, sessions: limits } = services.options;
  checkUriLength(uri, maxUriLength);
  const subscribe = message.method === "resources/subscribe";
  if (subscribe) {
    const refused = await subscribeRefusal(services, event, uri, caller);
    if (refused) return refused;
  }
  const store = services.sessions?.store;
  if (!session || !store) return success(message.id, {});
  const max = limits ? limits.maxSubscriptions : Infinity;
  let outcome: SubscribeOutcome | undefined;
  try {
    if (subscribe) outcome = await stored(() => store.subscribe!(session.id, uri, max));
    else await stored(() => store.unsubscribe!(session.id, uri));
  } catch (error) {
    if (!(error instanceof StoreFailure)) throw error;
    return failure(
      message.id,
      INTERNAL_ERROR,
      "Internal error: the session store failed; the subscription was not saved",
    );
  }
  if (outcome === "full") {
    return failure(
      message.id,
      INVALID_PARAMS,
      `Invalid params: this session already holds sessions.maxSubscriptions (${max}) subscriptions; unsubscribe first`,
      { limit: "sessions.maxSubscriptions", max },
    );
  }
  // "ended": a DELETE won the race; nothing was kept, and the next request gets 404.
  return success(message.id, {});
}

/** What `resources/read` of `uri` would answer when the caller may not read it: the 403, or (thrown) `-32002`. */
async function subscribeRefusal(
  services: LegacyServices,
  event: H3Event,
  uri: string,
  caller: Caller | undefined,
): Promise<Reply | undefined> {
  const found = services.catalogs.get(event, caller?.identity.scopes);
  const catalog = found instanceof Promise ? await found : found;
  const refusal = subscriptionRefusal(services.auth, caller, catalog, [uri]);
  if (refusal === undefined) return undefined;
  if (refusal.kind === "forbidden") return refuse(null, refusal.refusal);
  throw resourceNotFound(uri, "legacy");
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
