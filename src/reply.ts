/**
 * What the engine answers: status, headers and a body, independent of the host. The adapter turns
 * it into the host's own response (a Web `Response`, or writes to a Node response).
 */
import { failure, type JsonRpcId } from "./protocol/jsonrpc.ts";

export interface Reply {
  status: number;
  headers: Record<string, string>;
  body: string | ReadableStream<Uint8Array> | null;
}

const JSON_HEADERS = { "content-type": "application/json" } as const;

/** A JSON body; `headers` are merged over the JSON content type. */
export function jsonReply(status: number, body: unknown, headers?: Record<string, string>): Reply {
  return {
    status,
    headers: headers ? { ...JSON_HEADERS, ...headers } : { ...JSON_HEADERS },
    body: JSON.stringify(body),
  };
}

/** A JSON-RPC error as the whole HTTP answer. */
export function errorReply(
  status: number,
  id: JsonRpcId | null,
  code: number,
  message: string,
  data?: unknown,
  headers?: Record<string, string>,
): Reply {
  return jsonReply(status, failure(id, code, message, data), headers);
}

/** No body (202 for accepted notifications and responses, 200 for DELETE). */
export function emptyReply(status: number, headers?: Record<string, string>): Reply {
  return { status, headers: headers ? { ...headers } : {}, body: null };
}

/** Converts a reply into a Web `Response`. */
export function toResponse(reply: Reply): Response {
  return new Response(reply.body, { status: reply.status, headers: reply.headers });
}
