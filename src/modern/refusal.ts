/**
 * Why the modern lane refuses a request before it runs: the checks of the envelope and the
 * standard headers say what is wrong as data, and the lane answers it in one place (`refuse`), so
 * a check knows nothing of HTTP replies.
 */
import { errorReply, type Reply } from "../http/reply.ts";
import type { JsonRpcId } from "../protocol/jsonrpc.ts";

/** A refusal: its HTTP status, and the JSON-RPC error the body carries. */
export interface Refusal {
  readonly status: number;
  readonly code: number;
  readonly message: string;
  readonly data?: unknown;
}

/** The answer to a refused request: the refusal's status, with its JSON-RPC error for `id`. */
export function refuse(id: JsonRpcId | null, refusal: Refusal): Reply {
  return errorReply(refusal.status, id, refusal.code, refusal.message, refusal.data);
}
