/** `mcp.notify`: a notification on the request's own stream, plus the standard change notifications. */
import type { JsonObject } from "../protocol/jsonrpc.ts";
import type { McpNotify } from "../types/context.ts";
import type { ChangePublisher } from "./change-publisher.ts";

/**
 * Builds `mcp.notify`: `send` writes on this request's stream; the change shortcuts go to every
 * listening client through the lane's publisher.
 */
export function createNotify(
  send: (method: string, params?: JsonObject) => Promise<void>,
  publisher: ChangePublisher,
): McpNotify {
  const notify = ((method: string, params?: JsonObject) => send(method, params)) as McpNotify;
  notify.toolsChanged = () => publisher.publish("notifications/tools/list_changed");
  notify.promptsChanged = () => publisher.publish("notifications/prompts/list_changed");
  notify.resourcesChanged = () => publisher.publish("notifications/resources/list_changed");
  notify.resourceUpdated = (uri: string) => publisher.publish("notifications/resources/updated", { uri });
  return notify;
}
