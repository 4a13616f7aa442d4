/**
 * The public types of the handler objects `defineMcpHandler` and `defineMcpFetchHandler` return.
 * They live on the entries' rung, not in `types/`: `engine` names the engine class, which `types/`
 * may not import, and a module augmentation that would add it from above does not survive the
 * bundled `.d.mts` (its `declare module "./…"` is left pointing nowhere).
 */
import type { H3Event } from "h3";
import type { Engine } from "./engine/engine.ts";
import type { IncidentCounts } from "./types/incidents.ts";

/** What every form of the handler offers besides serving requests. */
export interface McpHandlerControls {
  /** The engine behind the handler (stores, resolved options). */
  readonly engine: Engine;
  /** How many incidents of each kind happened outside any request (see the `onIncident` option). */
  readonly incidents: IncidentCounts;
  /**
   * Ends open `subscriptions/listen` streams gracefully and runs the `close` option with what
   * `setup` built. Call it on shutdown, e.g. from a Nitro plugin's `close` hook.
   */
  close(): Promise<void>;
}

/**
 * MCP as a fetch handler: `fetch` serves one Web `Request`.
 *
 * @example
 * // server.ts: Workers, `deno serve` and Bun take the object as the module's default export
 * import { defineMcpFetchHandler, type McpFetchHandler } from "mcp-h3";
 * const mcp: McpFetchHandler = defineMcpFetchHandler({ name: "demo", version: "1.0.0", tools: [] });
 * export default mcp;
 */
export interface McpFetchHandler extends McpHandlerControls {
  /**
   * Serves a Web `Request`; tool, resource and prompt handlers get a minimal event (`req`, `url`,
   * `context`). On a Worker, pass the `ctx` the platform gives (`fetch(request, env, ctx)` as the
   * default export does): its `waitUntil` keeps work that outlives the response (tasks) running.
   */
  fetch(request: Request, env?: unknown, ctx?: WorkerContext): Promise<Response>;
}

/** The part of a Worker's execution context the fetch entry uses (`ctx` of `fetch(request, env, ctx)`). */
export interface WorkerContext {
  waitUntil(promise: Promise<unknown>): void;
}

/**
 * An H3 event handler serving MCP; also callable as a fetch handler.
 *
 * @example
 * import { H3 } from "h3";
 * import { defineMcpHandler, type McpEventHandler } from "mcp-h3";
 * const mcp: McpEventHandler = defineMcpHandler({ name: "demo", version: "1.0.0", tools: [] });
 * const app = new H3().all("/mcp", mcp);
 */
export interface McpEventHandler extends McpHandlerControls {
  (event: H3Event): Promise<unknown>;
  /** h3 v1 marks handlers with this flag; set so that no implicit conversion happens. */
  readonly __is_handler__: true;
  /**
   * Serves a Web `Request` without h3; handlers get a minimal event. Where no h3 app is involved
   * (Workers, Deno, Bun), `defineMcpFetchHandler` does the same without the h3 adapter.
   */
  fetch(request: Request, env?: unknown, ctx?: WorkerContext): Promise<Response>;
}
