/**
 * `defineMcpWorker`: MCP on a Cloudflare Worker with its state in a Durable Object. The Worker's
 * `fetch` sends every MCP request to the object (named `objectName`) that serves it with the
 * handler the options build; the object keeps sessions, event logs and tasks in its SQLite
 * storage. Any isolate may take any request and any isolate or object may be gone by the next:
 * what a session or a task needs is in the one place every request of it reaches.
 */
import type { JsonObject } from "../protocol/jsonrpc.ts";
import { DurableBus } from "./bus.ts";
import { INTERNAL_HEADER, internalRequest, type InternalMessage } from "./internal.ts";
import { mcpObjectClass, type McpObjectOptions } from "./object.ts";
import type { DurableObjectNamespace } from "./platform.ts";

/** Options of {@link defineMcpWorker}. */
export interface McpWorkerOptions<Env> {
  /**
   * The handler's options, built in the object from the Worker's `env` (secrets, bindings) and the
   * object's stores; run once per object's life. `sessions`, `events` and `bus` are the object's own
   * whatever is given (the bounds named in `sessions` apply; a store or bus given is not used, and a
   * warning says so once); for tasks, pass `tasks({ store: stores.tasks })` from `mcp-h3/tasks`. A
   * numeric option that is not one (`Number(env.X)` of an unset variable is `NaN`) is refused by
   * name (`mcp-h3: defineMcpWorker: sessions.ttlMs …`) before any request is served.
   */
  handler: McpObjectOptions<Env>;
  /** The name of the Durable Object namespace binding in `env` (default `"MCP_OBJECT"`). */
  binding?: string;
  /** The name of the object that serves the requests (default `"mcp-h3"`). */
  objectName?: string;
}

/** What {@link defineMcpWorker} returns: export `McpObject` by name and the object as the default. */
export interface McpWorker<Env> {
  /** The Worker's `fetch`: serves MCP on whatever request it is given (route your path to it). */
  fetch(request: Request, env: Env): Promise<Response>;
  /** The Durable Object class; export it under the `class_name` your wrangler config names. */
  readonly McpObject: ReturnType<typeof mcpObjectClass<Env>>;
  /**
   * A change notification (`notifications/tools/list_changed`, `notifications/resources/updated`,
   * …) to every listening stream, from code outside a request (a cron, a queue consumer); inside a
   * handler use `event.context.mcp.notify`.
   */
  notifyChanged(env: Env, method: string, params?: JsonObject): Promise<void>;
  /** A notification to one legacy session's GET stream, from code outside a request; whether it was delivered. */
  notifySession(env: Env, sessionId: string, method: string, params?: JsonObject): Promise<boolean>;
  /**
   * The object's bus (the handler's `bus`), from the Worker's own code: publish to it, or subscribe
   * for the duration of the request that subscribes (see {@link DurableBus}).
   */
  bus(env: Env): DurableBus;
}

/**
 * Defines MCP for a Cloudflare Worker with sessions, streams and tasks in a Durable Object (no
 * `nodejs_compat` needed). Bind a SQLite-backed Durable Object namespace to the exported class.
 *
 * @example
 * // src/index.ts
 * import { defineMcpWorker } from "mcp-h3/cloudflare";
 * import { tasks } from "mcp-h3/tasks";
 * const mcp = defineMcpWorker<Env>({
 *   handler: (env, stores) => ({ name: "app", version: "1.0.0", tools, extensions: [tasks({ store: stores.tasks })] }),
 * });
 * export const McpObject = mcp.McpObject;
 * export default mcp;
 * // wrangler.jsonc: "durable_objects": { "bindings": [{ "name": "MCP_OBJECT", "class_name": "McpObject" }] },
 * //                 "migrations": [{ "tag": "v1", "new_sqlite_classes": ["McpObject"] }]
 */
export function defineMcpWorker<Env>(options: McpWorkerOptions<Env>): McpWorker<Env> {
  const binding = options.binding ?? "MCP_OBJECT";
  const objectName = options.objectName ?? "mcp-h3";
  const object = (env: Env) => {
    const namespace = (env as Record<string, DurableObjectNamespace | undefined>)[binding];
    if (!namespace?.idFromName) throw new Error(`mcp-h3: env.${binding} is not a Durable Object namespace binding`);
    return namespace.get(namespace.idFromName(objectName));
  };
  const internal = async (env: Env, message: InternalMessage): Promise<boolean> => {
    const response = await object(env).fetch(internalRequest(message));
    if (!response.ok) throw new Error(`mcp-h3: the object answered ${response.status} to a notification`);
    return ((await response.json()) as { delivered: boolean }).delivered;
  };
  return {
    fetch(request, env) {
      // Only the Worker's own code talks to the object on its internal side.
      const forwarded = new Request(request);
      forwarded.headers.delete(INTERNAL_HEADER);
      return object(env).fetch(forwarded);
    },
    McpObject: mcpObjectClass(options.handler),
    async notifyChanged(env, method, params) {
      await internal(env, { kind: "changed", method, ...(params ? { params } : {}) });
    },
    notifySession: (env, sessionId, method, params) =>
      internal(env, { kind: "session", sessionId, method, ...(params ? { params } : {}) }),
    bus: (env) => new DurableBus(() => object(env)),
  };
}
