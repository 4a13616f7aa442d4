/**
 * The Web-standard core: one inbound HTTP request in, one reply out. Runs the gate, classifies the
 * era and hands the message to its lane. Everything here is built once per handler.
 */
import type { H3Event } from "h3";
import { AuthGate, type Caller } from "../auth/gate.ts";
import { checkRateLimit, type RateLimitHook } from "../auth/rate-limit.ts";
import { ChangeFeed } from "../context/change-feed.ts";
import { classifyPost } from "./classify.ts";
import { CatalogSource } from "../define/catalog.ts";
import { buildMethodTable } from "../dispatch/table.ts";
import { checkJsonContentType, parseJsonBody } from "../gate/body.ts";
import { OriginGate } from "../gate/origin.ts";
import type { Inbound } from "../http/inbound.ts";
import { serveLegacyDelete } from "../legacy/serve/delete.ts";
import { serveLegacyGet } from "../legacy/serve/get.ts";
import { serveLegacyPost } from "../legacy/serve/post.ts";
import { LegacyInputBroker } from "../legacy/serve/broker.ts";
import { ListenRegistry } from "../modern/listen/listen-registry.ts";
import { serveModernPost } from "../modern/lane.ts";
import { RequestStateCodec } from "../modern/mrtr/request-state.ts";
import { requestStateSecrets } from "./request-state-secrets.ts";
import { resolveOptions } from "./resolve-options.ts";
import type { McpHandlerOptions } from "../types/options.ts";
import { CONNECTION_CLOSED, INTERNAL_ERROR, messageOf } from "../protocol/errors.ts";
import { combineHooks } from "../request/hooks.ts";
import { Incidents } from "../http/incidents.ts";
import { Lifespan } from "../request/lifespan.ts";
import { Notifier } from "./notifier.ts";
import { Reply, errorReply } from "../http/reply.ts";
import { serverCapabilities } from "./server-capabilities.ts";
import type { LegacyServices } from "../legacy/services.ts";
import type { ModernServices } from "../modern/services.ts";
import { MemoryBus } from "../stores/memory/bus.ts";
import { MemoryEventStore } from "../stores/memory/events.ts";
import { collectExtensions, plugExtensions } from "./extensions.ts";
import { createLegacySessions, sessionStoreOf } from "./legacy-sessions.ts";

/** Everything both lanes read: the shared services and each lane's own part. */
export type EngineServices = LegacyServices & ModernServices;

export interface Engine {
  readonly services: EngineServices;
  /** Serves one HTTP request; `event` is what definition handlers receive. */
  handle(inbound: Inbound, event: H3Event): Promise<Reply>;
  /**
   * Ends open listen streams gracefully (their result frame, then close) and legacy GET streams
   * (their body closes), aborts legacy calls in flight, releases timers and bus subscriptions,
   * then runs the `close` hook.
   */
  close(): Promise<void>;
}

/** Builds the engine: options resolved, definitions indexed, stores chosen, extensions plugged in. */
export function createEngine(input: McpHandlerOptions): Engine {
  const options = resolveOptions(input);
  const catalogs = new CatalogSource(input);
  const incidents = new Incidents(input.onIncident);
  const lifespan = new Lifespan(input.setup, input.close);
  const bus = input.bus ?? new MemoryBus();
  const events = input.events ?? new MemoryEventStore();
  const limits = input.sessions !== false && options.sessions ? options.sessions : undefined;
  const store = limits && sessionStoreOf(input, limits);
  const extensions = collectExtensions(input.extensions, [store, events, bus]);
  const plugged = plugExtensions(extensions, { stores: { sessions: store, events, bus }, incidents, lifespan });
  const routing = plugged.routing;
  const sessions =
    limits && store
      ? createLegacySessions({ options, limits, store, events, bus, incidents, catalogs, routing })
      : undefined;
  const changes = new ChangeFeed(bus);
  const auth = input.auth && new AuthGate(input.auth, (error) => incidents.record("callback_failure", error));
  const table = buildMethodTable(catalogs.shape);
  plugged.addMethods(table);
  const capabilities = serverCapabilities(catalogs.shape, options.logging);
  const services: EngineServices = {
    options,
    catalogs,
    table,
    capabilities,
    initializeCapabilities: plugged.advertised(capabilities, "legacy"),
    discoverCapabilities: plugged.advertised(capabilities, "modern"),
    sessions,
    legacyBroker: new LegacyInputBroker(sessions),
    changes,
    auth,
    originGate: new OriginGate(options),
    notifier: new Notifier(changes, sessions, auth?.crossPrincipalNotify === true),
    hooks: combineHooks(input.hooks, (error) => incidents.record("callback_failure", error)),
    lifespan,
    listens: new ListenRegistry(options.maxListens, options.maxListensPerPrincipal),
    requestStates: new RequestStateCodec(
      requestStateSecrets(input.requestState?.secret),
      input.requestState?.ttlMs ?? 10 * 60_000,
      options.maxJsonDepth,
    ),
    incidents,
    onLogLevelSet: input.onLogLevelSet,
    rateLimit: input.rateLimit,
  };
  return {
    services,
    // With auth off the request path has no auth step at all (architecture §7).
    handle: auth
      ? (inbound, event) => handleAuthenticated(services, auth, inbound, event)
      : (inbound, event) => handle(services, inbound, event, undefined),
    close: async () => {
      services.listens.closeAll(services.options.serverInfo);
      // Legacy: GET streams end gracefully, calls in flight are aborted, timers and bus subscriptions go.
      sessions?.close();
      changes.close();
      for (const close of plugged.closers.splice(0)) {
        // One failing extension must not keep the others, or the `close` option, from running.
        await Promise.resolve()
          .then(close)
          .catch((error: unknown) => incidents.record("callback_failure", error));
      }
      await services.lifespan.stop();
    },
  };
}

function handle(
  services: EngineServices,
  inbound: Inbound,
  event: H3Event,
  caller: Caller | undefined,
): Promise<Reply> {
  const forbidden = services.originGate.check(inbound.header("origin"), inbound.header("host"));
  if (forbidden) return Promise.resolve(forbidden);
  return proceed(services, inbound, event, caller);
}

/** An admitted request: the rate limit (when set), `setup` on the first requests, then its route. */
function proceed(
  services: EngineServices,
  inbound: Inbound,
  event: H3Event,
  caller: Caller | undefined,
): Promise<Reply> {
  if (services.rateLimit) return limitThenRoute(services, services.rateLimit, inbound, event, caller);
  if (!services.lifespan.ready) return startThenRoute(services, inbound, event, caller);
  return route(services, inbound, event, caller);
}

async function limitThenRoute(
  services: EngineServices,
  hook: RateLimitHook,
  inbound: Inbound,
  event: H3Event,
  caller: Caller | undefined,
): Promise<Reply> {
  const onFailure = (error: unknown): void => services.incidents.record("callback_failure", error);
  const limited = await checkRateLimit(hook, event, caller?.principal, onFailure);
  if (limited) return limited;
  if (!services.lifespan.ready) return startThenRoute(services, inbound, event, caller);
  return route(services, inbound, event, caller);
}

/**
 * Auth on: the Origin/Host gate, then the token, before anything else (era, session, body) is
 * looked at, so a client without a valid token learns nothing of the server's state.
 */
function handleAuthenticated(
  services: EngineServices,
  auth: AuthGate,
  inbound: Inbound,
  event: H3Event,
): Promise<Reply> {
  const forbidden = services.originGate.check(inbound.header("origin"), inbound.header("host"));
  if (forbidden) return Promise.resolve(forbidden);
  const admitted = auth.admit(inbound, event);
  // A synchronous validator costs no promise of its own before the request is routed.
  if (admitted instanceof Promise) return admitted.then((caller) => routeAdmitted(services, inbound, event, caller));
  return routeAdmitted(services, inbound, event, admitted);
}

function routeAdmitted(
  services: EngineServices,
  inbound: Inbound,
  event: H3Event,
  admitted: Caller | Reply,
): Promise<Reply> {
  if (admitted instanceof Reply) return Promise.resolve(admitted);
  return proceed(services, inbound, event, admitted);
}

/** The first requests wait for `setup`; a failure answers 500 and is tried again next time. */
async function startThenRoute(
  services: EngineServices,
  inbound: Inbound,
  event: H3Event,
  caller: Caller | undefined,
): Promise<Reply> {
  try {
    await services.lifespan.start();
  } catch (error) {
    return errorReply(500, null, INTERNAL_ERROR, `Server setup failed: ${messageOf(error)}`);
  }
  return route(services, inbound, event, caller);
}

function route(services: EngineServices, inbound: Inbound, event: H3Event, caller: Caller | undefined): Promise<Reply> {
  switch (inbound.method) {
    case "POST":
      return servePost(services, inbound, event, caller);
    case "GET":
      return serveLegacyGet(services, inbound, event, caller);
    case "DELETE":
      return serveLegacyDelete(services, inbound, caller);
    default:
      return Promise.resolve(
        errorReply(405, null, CONNECTION_CLOSED, `Method Not Allowed: ${inbound.method}`, undefined, {
          allow: services.sessions ? "GET, POST, DELETE" : "POST",
        }),
      );
  }
}

async function servePost(
  services: EngineServices,
  inbound: Inbound,
  event: H3Event,
  caller: Caller | undefined,
): Promise<Reply> {
  const unsupported = checkJsonContentType(inbound);
  if (unsupported) return unsupported;
  const { maxBodyBytes, maxJsonDepth } = services.options;
  let text: string | undefined;
  try {
    text = await inbound.readText(maxBodyBytes);
  } catch (error) {
    // The client went away mid-body: nobody reads the answer, so it is only counted, never logged.
    services.incidents.record("client_aborted", error);
    return errorReply(400, null, CONNECTION_CLOSED, "Bad Request: the request body could not be read");
  }
  const body = parseJsonBody(text, maxBodyBytes, maxJsonDepth);
  if (!body.ok) return body.reply;
  const versionHeader = inbound.header("mcp-protocol-version");
  const classification = classifyPost(body.message, versionHeader);
  if (classification.era === "rejected") return classification.reply;
  if (classification.era === "legacy") return await serveLegacyPost(services, inbound, event, body.message, caller);
  const reply = serveModernPost(services, inbound, event, body.message, versionHeader, caller);
  // Awaited only when pending: resolving an async function with a promise costs two more turns.
  return reply instanceof Promise ? await reply : reply;
}
