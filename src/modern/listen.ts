/**
 * `subscriptions/listen`: a long-lived SSE response that carries the change notifications the
 * client opted into, each stamped with the listen request's id as `subscriptionId`. Never progress
 * or log. The first frame acknowledges the honoured subset; a graceful end sends the listen result.
 */
import type { ChangeMessage } from "../context/change-feed.ts";
import type { Inbound } from "../engine/inbound.ts";
import { INTERNAL_ERROR, INVALID_PARAMS, messageOf } from "../protocol/errors.ts";
import { failure, isObject, notification, type JsonObject, type JsonRpcId } from "../protocol/jsonrpc.ts";
import { META_SUBSCRIPTION_ID } from "../protocol/meta-keys.ts";
import { jsonReply, type Reply } from "../engine/reply.ts";
import type { Services } from "../engine/services.ts";
import { SseSink, sseReply } from "../stream/sse.ts";

/** What a listen stream delivers. */
interface Filter {
  toolsListChanged?: true;
  promptsListChanged?: true;
  resourcesListChanged?: true;
  resourceSubscriptions?: string[];
}

const LIST_CHANGED: Record<string, keyof Filter> = {
  "notifications/tools/list_changed": "toolsListChanged",
  "notifications/prompts/list_changed": "promptsListChanged",
  "notifications/resources/list_changed": "resourcesListChanged",
};

/** The part of the requested filter this server can honour. */
function honour(requested: JsonObject, services: Services): Filter | undefined {
  const { tools, prompts, resources } = services.capabilities;
  const filter: Filter = {};
  for (const [key, enabled] of [
    ["toolsListChanged", tools?.listChanged],
    ["promptsListChanged", prompts?.listChanged],
    ["resourcesListChanged", resources?.listChanged],
  ] as const) {
    const value = requested[key];
    if (value !== undefined && typeof value !== "boolean") return undefined;
    if (value === true && enabled) filter[key] = true;
  }
  const uris = requested.resourceSubscriptions;
  if (uris !== undefined) {
    if (!Array.isArray(uris) || uris.some((uri) => typeof uri !== "string")) return undefined;
    if (resources?.subscribe && uris.length > 0) filter.resourceSubscriptions = [...new Set(uris as string[])];
  }
  return filter;
}

function wants(filter: Filter, change: ChangeMessage): boolean {
  const flag = LIST_CHANGED[change.method];
  if (flag) return filter[flag] === true;
  if (change.method === "notifications/resources/updated") {
    return filter.resourceSubscriptions?.includes(String(change.params?.uri)) ?? false;
  }
  return false;
}

export async function serveListen(
  services: Services,
  inbound: Inbound,
  id: JsonRpcId,
  params: JsonObject,
  principal: string | undefined,
  expiresAtMs?: number,
): Promise<Reply> {
  const requested = params.notifications;
  const filter = isObject(requested) ? honour(requested, services) : undefined;
  if (!filter) {
    return jsonReply(
      200,
      failure(id, INVALID_PARAMS, 'Invalid params: "notifications" must be a subscription filter object'),
    );
  }
  const registry = services.listens;
  const refused = registry.refusal(principal);
  if (refused === "full") return jsonReply(200, failure(id, INTERNAL_ERROR, "Subscription limit reached"));
  if (refused === "principal-full") {
    const max = registry.maxPerPrincipal;
    const message = `Subscription limit reached: this principal already holds ${max} listen streams (maxListensPerPrincipal)`;
    return jsonReply(200, failure(id, INTERNAL_ERROR, message, { limit: "maxListensPerPrincipal", max }));
  }
  const sink = new SseSink(inbound.disconnect, services.options.keepAliveMs, {
    maxBufferBytes: services.options.maxStreamBufferBytes,
    incidents: services.incidents,
  });
  // The slot is held from here and released on every path: a client gone before the stream started,
  // one that goes later, a stream closed by `handler.close()` or for not reading, a failing bus.
  const releaseSlot = registry.hold(sink, id, principal);
  // The stream ends when the token that opened it expires (a disconnect; the client listens again with a fresh one).
  sink.closeAt(expiresAtMs);
  let stop: (() => void) | undefined;
  const release = (): void => {
    stop?.();
    stop = undefined;
    releaseSlot();
  };
  if (sink.isClosed) {
    release();
    return sseReply(sink.stream);
  }
  sink.closed.addEventListener("abort", release, { once: true });
  const stamp = { [META_SUBSCRIPTION_ID]: id };
  sink.send(notification("notifications/subscriptions/acknowledged", { _meta: stamp, notifications: filter }));
  let unsubscribe: () => void;
  try {
    unsubscribe = await services.changes.listen((change) => {
      if (!wants(filter, change)) return;
      sink.send(notification(change.method, { ...change.params, _meta: stamp }));
    });
  } catch (error) {
    sink.close();
    return jsonReply(200, failure(id, INTERNAL_ERROR, `Could not listen for changes: ${messageOf(error)}`));
  }
  // The client may have gone while the subscription was being made.
  if (sink.isClosed) unsubscribe();
  else stop = unsubscribe;
  return sseReply(sink.stream);
}
