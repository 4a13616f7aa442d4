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

/** Extra headers of a response that has none: compared by identity to skip a copy. */
export const NO_HEADERS: Readonly<Record<string, string>> = Object.freeze({});
/** Shared, never modified: hosts copy response headers, they do not change them. */
const JSON_HEADERS: Readonly<Record<string, string>> = Object.freeze({ "content-type": "application/json" });

/** A JSON body; `headers` are merged over the JSON content type. */
export function jsonReply(
  status: number,
  body: unknown,
  headers: Readonly<Record<string, string>> = NO_HEADERS,
): Reply {
  return {
    status,
    headers: headers === NO_HEADERS ? JSON_HEADERS : { ...JSON_HEADERS, ...headers },
    body: JSON.stringify(body),
  };
}

/** A body that is JSON text already. */
export function jsonTextReply(status: number, text: string): Reply {
  return { status, headers: JSON_HEADERS, body: text };
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
