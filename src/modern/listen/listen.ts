/**
 * `subscriptions/listen`: a long-lived SSE response that carries the change notifications the
 * client opted into, each stamped with the listen request's id as `subscriptionId`. Never progress
 * or log. The first frame acknowledges the honoured subset; a graceful end sends the listen result,
 * at once when nothing asked for is honoured.
 */
import { subscriptionRefusal } from "../../auth/definition-scopes.ts";
import { requestAccess } from "../../auth/tool-access.ts";
import type { Catalog } from "../../define/catalog.ts";
import { resourceNotFound } from "../../define/read-resource.ts";
import { INTERNAL_ERROR, isMcpError, messageOf } from "../../protocol/errors.ts";
import { notification, success, type JsonObject } from "../../protocol/jsonrpc.ts";
import { META_SUBSCRIPTION_ID } from "../../protocol/meta-keys.ts";
import { Reply } from "../../http/reply.ts";
import { refuse, type Refusal } from "../../http/refusal.ts";
import type { Caller } from "../../auth/gate.ts";
import type { ModernServices } from "../services.ts";
import { enterModernContext, type ModernRequest } from "../request.ts";
import { SseSink, sseReply } from "../../stream/sse.ts";
import { acknowledged, readFilter, wants, type Filter } from "./listen-filter.ts";
import {
  acceptSources,
  acknowledgedSources,
  asksSources,
  openSources,
  type AcceptedSources,
} from "./listen-sources.ts";
import { listenResult, type ListenRegistry } from "./listen-registry.ts";

/** What a listen was granted: the notifications it honours, and the sources that accepted it. */
interface Admission {
  readonly filter: Filter;
  readonly sources: AcceptedSources;
}

/** Serves one `subscriptions/listen` request (its envelope and headers already checked). */
export async function serveListen(request: ModernRequest): Promise<Reply> {
  const { services, inbound, caller } = request;
  const id = request.message.id;
  const principal = caller?.principal;
  const registry = services.listens;
  const admitted = await admitListen(request);
  if (admitted instanceof Reply) return admitted;
  if ("code" in admitted) return refuse(id, admitted);
  // Again, right before the slot is taken: others may have taken slots while this one awaited, and
  // nothing may come between the check of a cap and the slot taken under it.
  const capped = capRefusal(registry, principal);
  if (capped) return refuse(id, capped);
  const { filter, sources } = admitted;
  const sink = new SseSink(inbound.disconnect, services.options.keepAliveMs, {
    maxBufferBytes: services.options.maxStreamBufferBytes,
    incidents: services.incidents,
  });
  const stamp = { [META_SUBSCRIPTION_ID]: id };
  const honoured = { ...acknowledged(filter), ...acknowledgedSources(sources) };
  const ack = { _meta: stamp, notifications: honoured };
  if (Object.keys(honoured).length === 0) {
    // Nothing asked for is served (the working group's subscription lifecycle guidance): the empty
    // acknowledgement, then the listen's completion result, and the stream ends; no slot is taken.
    sink.sendEcho(notification("notifications/subscriptions/acknowledged", ack));
    sink.send(success(id, listenResult(services.options.serverInfo, id)));
    sink.close();
    return sseReply(sink.stream);
  }
  // The slot is held from here and released on every path: a client gone before the stream started,
  // one that goes later, a stream closed by `handler.close()` or for not reading, a failing bus.
  const releaseSlot = registry.hold(sink, id, principal);
  // The stream ends when the token that opened it expires (a disconnect; the client listens again with a fresh one).
  sink.closeAt(caller?.expiresAtMs);
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
  sink.sendEcho(notification("notifications/subscriptions/acknowledged", ack));
  let unsubscribe: () => void;
  try {
    const stopChanges = await services.changes.listen((change) => {
      if (!wants(filter, change)) return;
      sink.send(notification(change.method, { ...change.params, _meta: stamp }));
    });
    let stopSources: () => void;
    try {
      stopSources = await openSources(sources, principal, (method, notice) =>
        sink.send(notification(method, { ...notice, _meta: stamp })),
      );
    } catch (error) {
      stopChanges();
      throw error;
    }
    unsubscribe = () => {
      stopChanges();
      stopSources();
    };
  } catch (error) {
    sink.close();
    return refuse(id, {
      status: 200,
      code: INTERNAL_ERROR,
      message: `Could not listen for changes: ${messageOf(error)}`,
    });
  }
  // The client may have gone while the subscription was being made.
  if (sink.isClosed) unsubscribe();
  else stop = unsubscribe;
  return sseReply(sink.stream);
}

/**
 * The checks of a listen, before its stream: the filter, the caps, and (when it names resources or
 * sources) the request's catalog, the scopes and `enabled` answers its resources need, and the
 * sources' acceptance. A refusal is the listen's own in-band error (200), as data; the 403 of a
 * missing scope is a whole reply of its own.
 */
async function admitListen(request: ModernRequest): Promise<Admission | Refusal | Reply> {
  const { services, caller } = request;
  const params: JsonObject = request.message.params ?? {};
  try {
    const filter = readFilter(params.notifications, services.capabilities, services.options);
    // Every cap before anything costs: a listen refused for one builds no catalog and reads no
    // store (a source may read one per id it is given: the tasks extension's 100 task ids).
    const capped = capRefusal(services.listens, caller?.principal);
    if (capped) return capped;
    const wantsSources = asksSources(services.listenSources, params.notifications);
    if (!filter.resourceSubscriptions && !wantsSources) return { filter, sources: new Map() };
    // The definitions' `enabled` may read the request's context, as on every other request.
    enterModernContext(request);
    const catalog = await services.catalogs.get(request.event, caller?.identity.scopes);
    const refused = filter.resourceSubscriptions && refuseResources(services, caller, catalog, filter);
    if (refused) return refused;
    if (!wantsSources) return { filter, sources: new Map() };
    // A source honours only what this request may call (its own token, its `enabled` answers).
    const access = requestAccess(catalog, caller?.identity);
    const sources = await acceptSources(services.listenSources, params.notifications, caller?.principal, access);
    return { filter, sources };
  } catch (error) {
    // A refused filter, or a catalog function that failed: the listen's own in-band error.
    if (isMcpError(error)) return { status: 200, code: error.code, message: error.message, data: error.data };
    return { status: 200, code: INTERNAL_ERROR, message: `Internal error: ${messageOf(error)}` };
  }
}

/** The refusal of a listen that a cap refuses (in all, or per principal), else undefined. */
function capRefusal(registry: ListenRegistry, principal: string | undefined): Refusal | undefined {
  const refused = registry.refusal(principal);
  if (refused === "full") return { status: 200, code: INTERNAL_ERROR, message: "Subscription limit reached" };
  if (refused !== "principal-full") return undefined;
  const max = registry.maxPerPrincipal;
  const message = `Subscription limit reached: this principal already holds ${max} listen streams (maxListensPerPrincipal)`;
  return { status: 200, code: INTERNAL_ERROR, message, data: { limit: "maxListensPerPrincipal", max } };
}

/**
 * Subscribing needs what reading needs: the 403 `resources/read` of a URI gets when the caller lacks
 * a scope its definition (resource or template) names, and the `-32602` "Resource not found" of an
 * unknown URI for one that no definition of this request's catalog serves, `enabled` saying no
 * included (so a disabled resource looks like an unknown one). Checked once, with this request's
 * catalog and token: the stream keeps only URIs that passed, so no update reaches a listener that
 * could not read it. Undefined when every URI passes.
 */
function refuseResources(
  services: ModernServices,
  caller: Caller | undefined,
  catalog: Catalog,
  filter: Filter,
): Reply | undefined {
  const refusal = subscriptionRefusal(services.auth, caller, catalog, filter.resourceSubscriptions!);
  if (refusal === undefined) return undefined;
  if (refusal.kind === "forbidden") return refuse(null, refusal.refusal);
  throw resourceNotFound(refusal.uri, "modern");
}
