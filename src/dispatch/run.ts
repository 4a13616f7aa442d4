/** Runs one JSON-RPC request through the method table and shapes the JSON-RPC response. */
import { echoValue } from "../protocol/echo.ts";
import { INTERNAL_ERROR, METHOD_NOT_FOUND, isMcpError, messageOf } from "../protocol/errors.ts";
import { failure, success, type JsonObject, type JsonRpcRequest, type JsonRpcResponse } from "../protocol/jsonrpc.ts";
import { catalogOf, initOf, isAborted, type RequestContext } from "../context/request-context.ts";
import type { MethodHandler } from "./call.ts";

/**
 * Dispatches `message` with `context` as `event.context.mcp`. Gives the response, or undefined when
 * the request was cancelled (a cancelled request gets no response). Synchronous when the method
 * handler is, so a simple call takes no turn of the event loop.
 */
export function runRequest(
  table: ReadonlyMap<string, MethodHandler>,
  context: RequestContext,
  message: JsonRpcRequest,
): JsonRpcResponse | undefined | Promise<JsonRpcResponse | undefined> {
  const handler = table.get(message.method);
  if (!handler) {
    return failure(message.id, METHOD_NOT_FOUND, `Method not found: ${echoValue(message.method)}`);
  }
  const event = initOf(context).event;
  event.context.mcp = context;
  let pending: JsonObject | Promise<JsonObject>;
  try {
    pending = handler({ event, params: message.params ?? {}, catalog: catalogOf(context), context });
  } catch (error) {
    return isAborted(context) ? undefined : errorResponse(message, error);
  }
  if (!(pending instanceof Promise)) return isAborted(context) ? undefined : success(message.id, pending);
  return pending.then(
    (result) => (isAborted(context) ? undefined : success(message.id, result)),
    (error) => (isAborted(context) ? undefined : errorResponse(message, error)),
  );
}

/** The JSON-RPC error for a thrown value: an `McpError` as is, anything else as an internal error. */
export function errorResponse(message: JsonRpcRequest, error: unknown): JsonRpcResponse {
  if (isMcpError(error)) return failure(message.id, error.code, error.message, error.data);
  return failure(message.id, INTERNAL_ERROR, `Internal error: ${messageOf(error)}`);
}
