/**
 * What the Worker's own code sends the object, never a client: a request carrying
 * {@link INTERNAL_HEADER}, which the Worker's `fetch` strips from every request it forwards.
 */
import type { JsonObject } from "../protocol/jsonrpc.ts";

export const INTERNAL_HEADER = "x-mcp-h3-internal";

export type InternalMessage =
  /** A change notification to every listening stream (`McpWorker.notifyChanged`). */
  | { kind: "changed"; method: string; params?: JsonObject }
  /** A notification to one session's GET stream (`McpWorker.notifySession`). */
  | { kind: "session"; sessionId: string; method: string; params?: JsonObject }
  /** A message on the object's bus (`DurableBus.publish`). */
  | { kind: "publish"; channel: string; message: unknown }
  /** The messages of a channel of the object's bus from now on, as JSON lines (`DurableBus.subscribe`). */
  | { kind: "subscribe"; channel: string };

/** The request that carries `message` to the object. */
export function internalRequest(message: InternalMessage): Request {
  return new Request("https://mcp-h3.internal/", {
    method: "POST",
    headers: { [INTERNAL_HEADER]: "1", "content-type": "application/json" },
    body: JSON.stringify(message),
  });
}
