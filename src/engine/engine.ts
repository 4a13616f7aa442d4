/**
 * The composition root: builds, once per handler, the services both lanes read (options, catalog,
 * stores, gates, extensions) and hands each request to the route (route.ts). Only the entries import it.
 */
import type { H3Event } from "h3";
import { AuthGate } from "../auth/gate.ts";
import { ChangeFeed } from "../context/change-feed.ts";
import { CatalogSource } from "../define/catalog.ts";
import { buildMethodTable } from "../dispatch/table.ts";
import { OriginGate } from "../gate/origin.ts";
import type { Inbound } from "../http/inbound.ts";
import { LegacyInputBroker } from "../legacy/serve/broker.ts";
import { ListenRegistry } from "../modern/listen/listen-registry.ts";
import { RequestStateCodec } from "../modern/mrtr/request-state.ts";
import { requestStateSecrets } from "./request-state-secrets.ts";
import { requestStateTtlMs } from "../request/numeric-options.ts";
import { resolveOptions } from "./resolve-options.ts";
import type { McpHandlerOptions } from "../types/options.ts";
import { combineHooks } from "../request/hooks.ts";
import { Incidents } from "../http/incidents.ts";
import { Lifespan } from "../request/lifespan.ts";
import { Notifier } from "./notifier.ts";
import type { Reply } from "../http/reply.ts";
import { serverCapabilities } from "./server-capabilities.ts";
import type { LegacyServices } from "../legacy/services.ts";
import type { ModernServices } from "../modern/services.ts";
import { MemoryBus } from "../stores/memory/bus.ts";
import { MemoryEventStore } from "../stores/memory/events.ts";
import { collectExtensions, plugExtensions } from "./extensions.ts";
import { createLegacySessions, sessionStoreOf } from "./legacy-sessions.ts";
import { serveHttpRequest } from "./route.ts";

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
  const incidents = new Incidents(input.onIncident);
  const lifespan = new Lifespan(input.setup, input.close);
  const bus = input.bus ?? new MemoryBus();
  const events = input.events ?? new MemoryEventStore();
  const limits = input.sessions !== false && options.sessions ? options.sessions : undefined;
  const store = limits && sessionStoreOf(input, limits);
  const extensions = collectExtensions(input.extensions, [store, events, bus]);
  const plugged = plugExtensions(extensions, { stores: { sessions: store, events, bus }, incidents, lifespan });
  const catalogs = new CatalogSource(input, plugged.resources);
  const routing = plugged.routing;
  const sessions =
    limits && store
      ? createLegacySessions({ options, limits, store, events, bus, incidents, catalogs, routing })
      : undefined;
  const changes = new ChangeFeed(bus);
  const auth = input.auth && new AuthGate(input.auth, (error) => incidents.record("callback_failure", error));
  const capabilities = serverCapabilities(catalogs.shape, options.logging);
  const tables = { legacy: buildMethodTable("legacy", capabilities), modern: buildMethodTable("modern", capabilities) };
  plugged.addMethods(tables);
  const services: EngineServices = {
    options,
    catalogs,
    tables,
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
    listenSources: plugged.listenSources,
    requestStates: new RequestStateCodec(
      requestStateSecrets(input.requestState?.secret),
      requestStateTtlMs(input),
      options.maxJsonDepth,
    ),
    incidents,
    onLogLevelSet: input.onLogLevelSet,
    rateLimit: input.rateLimit,
    rateLimitErrors: input.experimental?.rateLimitErrors === true,
  };
  return {
    services,
    handle: (inbound, event) => serveHttpRequest(services, inbound, event),
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
