/**
 * The legacy sessions of a handler: its stores (the memory ones unless given), and — when the
 * stores may be shared by several instances — the routing between them, which a shared store must
 * bring (`sessionRouting`, see types/extensions.ts).
 */
import type { CatalogSource } from "../define/catalog.ts";
import type { Incidents } from "../http/incidents.ts";
import { LegacySessions } from "../legacy/state/sessions.ts";
import { requirePrincipalPair } from "../legacy/state/principal-sessions.ts";
import type { SessionRouting } from "../legacy/state/routing.ts";
import { requireSubscriptionMethods } from "../legacy/state/subscriptions.ts";
import { MemoryBus } from "../stores/memory/bus.ts";
import { MemorySessionStore } from "../stores/memory/sessions.ts";
import type { McpHandlerOptions, ResolvedOptions } from "../types/options.ts";
import type { Bus, EventStore, SessionStore } from "../types/stores.ts";

type SessionLimits = Exclude<ResolvedOptions["sessions"], false>;

/** The session store given in the options, or a memory one with the resolved limits. */
export function sessionStoreOf(input: McpHandlerOptions, limits: SessionLimits): SessionStore {
  if (input.sessions && input.sessions.store) return input.sessions.store;
  return new MemorySessionStore({
    ttlMs: limits.ttlMs,
    maxSessions: limits.maxSessions,
    maxPendingSessions: limits.maxPendingSessions,
    handshakeGraceMs: limits.handshakeGraceMs,
  });
}

/**
 * Refuses, when the handler is defined, a session store and a bus that several instances may
 * share without the routing between them: a stream, a call or an answer on another instance would
 * be missed without a word. The memory ones live in one process and need none.
 */
export function requireRouting(store: SessionStore, bus: Bus, routing: unknown): void {
  if (routing || store instanceof MemorySessionStore || bus instanceof MemoryBus) return;
  throw new TypeError(
    "mcp-h3: sessions.store and bus are not the in-memory ones, so several instances may share them, " +
      "but nothing routes legacy sessions between instances (a stream, a call or an answer held by " +
      'another instance would be missed). Add the routing: import { sessionRouting } from "mcp-h3/shared" ' +
      "and pass `extensions: [sessionRouting]`, or carry it on your store or bus as `extensions` " +
      "(the mcp-h3/redis stores bring it).",
  );
}

export interface LegacySessionsInput {
  options: ResolvedOptions;
  limits: SessionLimits;
  store: SessionStore;
  events: EventStore;
  bus: Bus;
  incidents: Incidents;
  catalogs: CatalogSource;
  routing: ((sessions: LegacySessions) => SessionRouting) | undefined;
}

export function createLegacySessions(input: LegacySessionsInput): LegacySessions {
  const { store, limits } = input;
  if (input.catalogs.shape.resources) requireSubscriptionMethods(store);
  requirePrincipalPair(store);
  requireRouting(store, input.bus, input.routing);
  return new LegacySessions(store, input.events, {
    retryMs: input.options.retryMs,
    replayWindowMs: limits.replayWindowMs,
    maxStreamsPerSession: limits.maxStreamsPerSession,
    maxSessionsPerPrincipal: limits.maxSessionsPerPrincipal,
    // Counted sessions are bounded by the larger of the option and the store's own cap.
    maxSessions: Math.max(limits.maxSessions, Number((store as { maxSessions?: unknown }).maxSessions) || 0),
    incidents: input.incidents,
    catalogs: input.catalogs,
    routing: input.routing,
  });
}
