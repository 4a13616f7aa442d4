/**
 * Which era serves a POSTed message (architecture §3, wire.md §2.2). The body decides; the
 * `MCP-Protocol-Version` header is a cross-check, and decides only for notifications without a claim.
 * Answers here are exact, because dual-era clients pick their era from these bodies.
 */
import { HEADER_MISMATCH, INVALID_PARAMS, INVALID_REQUEST } from "../protocol/errors.ts";
import { idOf, isObject, isNotification, isRequest, isResponse } from "../protocol/jsonrpc.ts";
import { META_CLIENT_CAPABILITIES, META_PROTOCOL_VERSION } from "../protocol/meta-keys.ts";
import { isModernVersionString } from "../protocol/versions.ts";
import { errorReply, type Reply } from "../http/reply.ts";

export type Classification = { era: "modern" } | { era: "legacy" } | { era: "rejected"; reply: Reply };

const LEGACY: Classification = { era: "legacy" };
const MODERN: Classification = { era: "modern" };

/** True when the message's `params._meta` carries the modern protocol-version key: the era claim. */
export function hasModernClaim(message: unknown): boolean {
  if (!isObject(message)) return false;
  const params = message.params;
  if (!isObject(params)) return false;
  const meta = params._meta;
  return isObject(meta) && META_PROTOCOL_VERSION in meta;
}

function rejected(status: number, id: unknown, code: number, message: string, data?: unknown): Classification {
  return { era: "rejected", reply: errorReply(status, idOf(id), code, message, data) };
}

function classifyBatch(batch: unknown[]): Classification {
  if (batch.length === 0) return rejected(400, null, INVALID_REQUEST, "Invalid Request: empty JSON-RPC batch");
  for (const element of batch) {
    if (hasModernClaim(element)) {
      return rejected(
        400,
        null,
        INVALID_REQUEST,
        "Invalid Request: JSON-RPC batches may not contain requests for protocol revision 2026-07-28 or later",
      );
    }
    if (isRequest(element) && element.method === "initialize") {
      return rejected(400, null, INVALID_REQUEST, "Invalid Request: initialize cannot be part of a batch");
    }
    if (!isRequest(element) && !isNotification(element) && !isResponse(element)) {
      return rejected(400, null, INVALID_REQUEST, "Invalid Request: a batch element is not a JSON-RPC message");
    }
  }
  return LEGACY;
}

/** Classifies a parsed POST body given the `MCP-Protocol-Version` header (or null). */
export function classifyPost(message: unknown, versionHeader: string | null): Classification {
  if (Array.isArray(message)) return classifyBatch(message);
  if (isResponse(message)) return LEGACY;
  const headerIsModern = versionHeader !== null && isModernVersionString(versionHeader);
  if (isRequest(message)) {
    if (hasModernClaim(message)) return MODERN;
    if (message.method === "initialize") {
      if (headerIsModern) {
        return rejected(
          400,
          message,
          HEADER_MISMATCH,
          `Header mismatch: MCP-Protocol-Version "${versionHeader}" names a modern revision, but initialize belongs to the legacy era`,
        );
      }
      return LEGACY;
    }
    if (headerIsModern) {
      const meta = isObject(message.params) && isObject(message.params._meta) ? message.params._meta : {};
      const missing = [META_PROTOCOL_VERSION, META_CLIENT_CAPABILITIES].filter((key) => !(key in meta));
      return rejected(
        400,
        message,
        INVALID_PARAMS,
        `Invalid _meta envelope for protocol revision ${versionHeader}: missing ${missing.join(", ")}`,
        { envelope: { missing } },
      );
    }
    return LEGACY;
  }
  if (isNotification(message)) {
    if (hasModernClaim(message) || headerIsModern) return MODERN;
    return LEGACY;
  }
  return rejected(400, message, INVALID_REQUEST, "Invalid Request: the body is not a valid JSON-RPC message");
}
