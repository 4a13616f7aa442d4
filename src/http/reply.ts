/**
 * What the engine answers: status, headers and a body, independent of the host. The adapter turns
 * it into the host's own response (a Web `Response`, or writes to a Node response).
 */
import { failure, type JsonRpcId } from "../protocol/jsonrpc.ts";

/** h3 v2's marker for a response it builds itself (`HTTPResponse`), found without importing h3. */
const H3_RESPONSE = Symbol.for("h3.HTTPResponse");

/**
 * One HTTP answer. Its prototype carries h3 v2's `HTTPResponse` marker, so an h3 v2 handler returns
 * it as it is and h3 writes it straight to the socket (srvx on Node), without a Web `Response`;
 * other hosts read the three fields. The marker also keeps object literals from passing as replies.
 */
export class Reply {
  declare readonly [H3_RESPONSE]: true;
  readonly status: number;
  readonly headers: Record<string, string>;
  readonly body: string | ReadableStream<Uint8Array> | null;

  constructor(status: number, headers: Record<string, string>, body: Reply["body"]) {
    this.status = status;
    this.headers = headers;
    this.body = body;
  }
}
Object.defineProperty(Reply.prototype, H3_RESPONSE, { value: true });

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
  return new Reply(
    status,
    headers === NO_HEADERS ? JSON_HEADERS : { ...JSON_HEADERS, ...headers },
    JSON.stringify(body),
  );
}

/** A JSON-RPC error as the whole HTTP answer (with headers of its own: `jsonReply(status, failure(…), headers)`). */
export function errorReply(status: number, id: JsonRpcId | null, code: number, message: string, data?: unknown): Reply {
  return jsonReply(status, failure(id, code, message, data));
}

/** No body (202 for accepted notifications and responses, 200 for DELETE). */
export function emptyReply(status: number, headers?: Record<string, string>): Reply {
  return new Reply(status, { ...headers }, null);
}

/** Converts a reply into a Web `Response`. */
export function toResponse(reply: Reply): Response {
  return new Response(reply.body, { status: reply.status, headers: reply.headers });
}
