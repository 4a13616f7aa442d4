/**
 * The seam optional parts plug in through: an {@link McpExtension} is given to `defineMcpHandler`
 * (`extensions`) or carried by a store ({@link CarriesExtensions}), and is plugged in once, when
 * the handler is defined. What a server does not import, its bundle does not carry.
 */
import type { H3Event } from "h3";
import type { JsonObject } from "../protocol/jsonrpc.ts";
import type { McpContext } from "./context.ts";
import type { McpEra } from "./era.ts";
import type { IncidentKind } from "./incidents.ts";
import type { McpLifespan } from "./lifespan.ts";
import type { Bus, EventStore, SessionStore } from "./stores.ts";

/**
 * An optional part of the server: cross-instance session routing (`sessionRouting` from
 * `mcp-h3/shared`, brought by the `mcp-h3/redis` stores), and protocol extensions.
 *
 * @example
 * const ping: McpExtension = {
 *   name: "example/ping",
 *   plug(server) {
 *     server.method("example/ping", () => ({ pong: true }));
 *     server.advertise({ extensions: { "example/ping": {} } });
 *   },
 * };
 * defineMcpHandler({ name: "app", version: "1.0.0", tools, extensions: [ping] });
 */
export interface McpExtension {
  /** Names the extension; one name plugs in once, however many stores and options carry it. */
  readonly name: string;
  /** Plugs the extension into one handler; called once, when `defineMcpHandler` runs (no I/O here). */
  plug(server: McpExtensionPoint): void;
}

/**
 * A store, event store or bus that brings the extensions it needs: a store several instances
 * share brings `sessionRouting` (the `mcp-h3/redis` ones do), so that it cannot be used without.
 *
 * @example
 * import { sessionRouting } from "mcp-h3/shared";
 * class MySharedBus implements Bus, CarriesExtensions {
 *   readonly extensions = [sessionRouting];
 *   // publish, subscribe …
 * }
 */
export interface CarriesExtensions {
  readonly extensions?: readonly McpExtension[];
}

/** What one method call of an extension receives. */
export interface McpMethodCall {
  /** The H3 event of the request. */
  readonly event: H3Event;
  /** The request's `params` (`{}` when absent): client data, check every field. */
  readonly params: JsonObject;
  /** `event.context.mcp` of the request. */
  readonly context: McpContext;
}

/** A JSON-RPC method: resolves with the result or throws an `McpError` (anything else is `-32603`). */
export type McpMethodHandler = (call: McpMethodCall) => JsonObject | Promise<JsonObject>;

/** What an extension may reach and add to, when it is plugged in. */
export interface McpExtensionPoint {
  /** The stores the handler runs on (the defaults when none was given); `sessions` is undefined with sessions off. */
  readonly stores: {
    readonly sessions: SessionStore | undefined;
    readonly events: EventStore;
    readonly bus: Bus;
  };
  /**
   * Failures no client can be told of: `record` counts and reports one (`onIncident`), `own` gives
   * a promise nobody awaits an owner (its rejection is recorded, never left unhandled).
   */
  readonly incidents: {
    record(kind: IncidentKind, error?: unknown): void;
    own(work: Promise<unknown>): void;
  };
  /** What `setup` returned, once the first request ran it (`ready`). */
  readonly lifespan: { readonly ready: boolean; readonly value: McpLifespan };
  /**
   * Serves `method` in `eras` (default both). A method the definitions serve too (`tools/call`) is
   * replaced; one era's method called in the other era is not found (`-32601`).
   */
  method(method: string, handler: McpMethodHandler, eras?: readonly McpEra[]): void;
  /**
   * Adds to the server capabilities `eras` advertise (default both: `initialize` in legacy,
   * `server/discover` in modern); each key is merged one level deep, so `extensions` by name.
   */
  advertise(capabilities: JsonObject, eras?: readonly McpEra[]): void;
  /** Runs when the handler closes (`handler.close()`), before the `close` option. */
  onClose(close: () => void | Promise<void>): void;
}
