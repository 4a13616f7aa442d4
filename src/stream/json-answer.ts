/** A response as a plain JSON answer, and the header sets it shares. */
import type { JsonRpcResponse } from "../protocol/jsonrpc.ts";
import type { Reply } from "../reply.ts";

/** Extra headers of a response that has none: compared by identity to skip a copy. */
export const NO_HEADERS: Readonly<Record<string, string>> = Object.freeze({});
/** Shared, never modified: hosts copy response headers, they do not change them. */
const JSON_HEADERS: Readonly<Record<string, string>> = Object.freeze({ "content-type": "application/json" });

/** A response as a plain JSON answer. */
export function jsonAnswer(
  message: JsonRpcResponse,
  status: number,
  headers: Readonly<Record<string, string>> = NO_HEADERS,
): Reply {
  return {
    status,
    headers: headers === NO_HEADERS ? JSON_HEADERS : { ...JSON_HEADERS, ...headers },
    body: JSON.stringify(message),
  };
}
