/**
 * mcp-h3/cloudflare: MCP on a Cloudflare Worker with sessions, event logs and tasks in a Durable
 * Object's SQLite storage (`defineMcpWorker`), and the stores themselves for an object of your own.
 * No `nodejs_compat` needed; nothing of it is in a Worker that does not import it.
 *
 * @example
 * import { defineMcpWorker } from "mcp-h3/cloudflare";
 * const mcp = defineMcpWorker<Env>({ handler: () => ({ name: "app", version: "1.0.0", tools }) });
 * export const McpObject = mcp.McpObject;
 * export default mcp;
 */
export { defineMcpWorker, type McpWorker, type McpWorkerOptions } from "../cloudflare/worker.ts";
export type { McpObjectOptions, McpObjectStores } from "../cloudflare/object.ts";
export { DurableBus } from "../cloudflare/bus.ts";
export type { DurableObjectNamespace, DurableObjectState, DurableObjectStorage } from "../cloudflare/platform.ts";
export { DurableSessionStore, type DurableSessionStoreOptions } from "../stores/durable/session-store.ts";
export { DurableEventStore, type DurableEventStoreOptions } from "../stores/durable/event-store.ts";
export { DurableTaskStore, type DurableTaskStoreOptions } from "../stores/durable/task-store.ts";
export type { SqlCursor, SqlStorage, SqlValue } from "../stores/durable/sql.ts";
