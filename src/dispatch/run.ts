/** Runs one JSON-RPC request through the method table and shapes the JSON-RPC response. */
import { ErrorCode, isMcpError } from "../protocol/errors.ts";
import { failure, success, type JsonRpcRequest, type JsonRpcResponse } from "../protocol/jsonrpc.ts";
import type { RequestContext } from "../request-context.ts";
import type { MethodHandler } from "./call.ts";

/**
 * Dispatches `message` with `context` as `event.context.mcp`. Resolves with the response, or with
 * undefined when the request was cancelled (a cancelled request gets no response).
 */
export async function runRequest(
  table: ReadonlyMap<string, MethodHandler>,
  context: RequestContext,
  message: JsonRpcRequest,
): Promise<JsonRpcResponse | undefined> {
  const handler = table.get(message.method);
  if (!handler) {
    return failure(message.id, ErrorCode.MethodNotFound, `Method not found: ${message.method}`);
  }
  const event = context.event;
  event.context.mcp = context;
  try {
    const result = await handler({ event, params: message.params ?? {}, catalog: context.catalog, context });
    if (context.aborted) return undefined;
    return success(message.id, result);
  } catch (error) {
    if (context.aborted) return undefined;
    return errorResponse(message, error);
  }
}

/** The JSON-RPC error for a thrown value: an `McpError` as is, anything else as an internal error. */
export function errorResponse(message: JsonRpcRequest, error: unknown): JsonRpcResponse {
  if (isMcpError(error)) return failure(message.id, error.code, error.message, error.data);
  const text = error instanceof Error ? error.message : String(error);
  return failure(message.id, ErrorCode.InternalError, `Internal error: ${text}`);
}
