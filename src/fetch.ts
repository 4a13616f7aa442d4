/**
 * The fetch entry: MCP served from a Web `Request` to a Web `Response`, for hosts without h3
 * (Workers, Deno, Bun). It leaves out the h3 adapter and its Node request handling, so a Worker
 * bundle carries neither (about 1 KB gzip, see bench/RESULTS.md).
 */
import type { H3Event } from "h3";
import { createEngine, type Engine } from "./engine/engine.ts";
import { fromWebRequest } from "./http/inbound.ts";
import type { McpFetchHandler, WorkerContext } from "./handler-types.ts";
import type { McpHandlerOptions } from "./types/options.ts";
import { toResponse } from "./http/reply.ts";

/**
 * The engine's answer to a Web `Request`, with the minimal event handlers receive. A Worker's `ctx`
 * lends the event its `waitUntil` (`event.context.waitUntil`), for work that outlives the response.
 */
export function fetchWith(engine: Engine): (request: Request, env?: unknown, ctx?: WorkerContext) => Promise<Response> {
  return async (request, _env, ctx) => {
    const context =
      typeof ctx?.waitUntil === "function" ? { waitUntil: (work: Promise<unknown>) => ctx.waitUntil(work) } : {};
    const event = { req: request, url: new URL(request.url), context } as unknown as H3Event;
    return toResponse(await engine.handle(fromWebRequest(request), event));
  };
}

/** The members of `McpHandlerControls` for `engine`, as properties to define on a handler. */
export function controlsOf(engine: Engine): PropertyDescriptorMap {
  const incidents = engine.services.incidents;
  return {
    engine: { value: engine, enumerable: true },
    incidents: { get: () => incidents.counts, enumerable: true },
    close: { value: () => engine.close(), enumerable: true },
  };
}

/**
 * Defines the MCP endpoint as a fetch handler, for hosts that serve Web requests without h3. The
 * object is what Workers, `deno serve` and Bun take as a module's default export.
 *
 * @example
 * // server.ts: the module's default export is the `{ fetch }` object
 * import { defineMcpFetchHandler } from "mcp-h3";
 * export default defineMcpFetchHandler({ name: "demo", version: "1.0.0", tools: [] });
 */
export function defineMcpFetchHandler(options: McpHandlerOptions): McpFetchHandler {
  const engine = createEngine(options);
  return Object.defineProperties({ fetch: fetchWith(engine) }, controlsOf(engine)) as McpFetchHandler;
}
