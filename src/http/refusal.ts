/**
 * Why a request is refused before it runs, as data: a check says what is wrong (status, JSON-RPC
 * error, headers) and knows nothing of replies; the lane that called it answers in one place
 * (`refuse`). Both lanes' ladders (the modern envelope and headers, a legacy session's checks,
 * `initialize`, listen's caps) speak it.
 */
import { failure, type JsonRpcId } from "../protocol/jsonrpc.ts";
import { jsonReply, type Reply } from "./reply.ts";

/** A refusal: its HTTP status, the JSON-RPC error the body carries, and any headers of its own. */
export interface Refusal {
  readonly status: number;
  readonly code: number;
  readonly message: string;
  readonly data?: unknown;
  /** Extra response headers (`Retry-After` on a 503). */
  readonly headers?: Readonly<Record<string, string>>;
}

/** The answer to a refused request: the refusal's status, with its JSON-RPC error for `id`. */
export function refuse(id: JsonRpcId | null, refusal: Refusal): Reply {
  return jsonReply(refusal.status, failure(id, refusal.code, refusal.message, refusal.data), refusal.headers);
}
