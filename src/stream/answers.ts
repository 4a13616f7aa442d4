/** The HTTP answers a response channel gives when it does not stream, and the one place that gives them once. */
import { INTERNAL_ERROR, messageOf } from "../protocol/errors.ts";
import { failure, type JsonRpcResponse } from "../protocol/jsonrpc.ts";
import { emptyReply, jsonReply, type Reply } from "../http/reply.ts";
import { sseReply } from "./sse.ts";

/** The error answer of a response whose result cannot be written as JSON. */
export function unserializable(message: JsonRpcResponse, error: unknown): JsonRpcResponse {
  return failure(message.id, INTERNAL_ERROR, `Internal error: the result cannot be sent as JSON: ${messageOf(error)}`);
}

/** The JSON answer; a result JSON cannot carry (a BigInt, a cycle) is answered as the call's error. */
export function jsonAnswer(message: JsonRpcResponse, status: number, headers: Readonly<Record<string, string>>): Reply {
  try {
    return jsonReply(status, message, headers);
  } catch (error) {
    return jsonReply(200, unserializable(message, error), headers);
  }
}

/**
 * The HTTP answer of a request that ends without a response (cancelled, or its client went away
 * first). Clients expect JSON or SSE for a request, so a streaming client gets an empty event
 * stream; it carries no event id, so nothing invites a reconnection.
 */
export function endedWithoutAnswer(canStream: boolean, headers: Readonly<Record<string, string>>): Reply {
  return canStream ? sseReply("", headers) : emptyReply(204, headers);
}

/**
 * An HTTP answer given once. Read before it is given, it is a promise; read after, the answer
 * itself, so a handler that finished synchronously costs no promise.
 */
export class OnceReply {
  #reply: Reply | undefined;
  #promise: Promise<Reply> | undefined;
  #resolve: ((reply: Reply) => void) | undefined;

  get value(): Reply | Promise<Reply> {
    if (this.#reply) return this.#reply;
    return (this.#promise ??= new Promise((resolve) => (this.#resolve = resolve)));
  }

  settle(reply: Reply): void {
    this.#reply = reply;
    this.#resolve?.(reply);
  }
}
