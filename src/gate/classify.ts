/**
 * Which era serves a POSTed message, and what kind of message it is (architecture §3, wire.md
 * §2.2), decided once, where the body is parsed (body.ts): the lanes read both from the
 * {@link ClassifiedPost} and never test the message's shape again. The body decides the era; the
 * `MCP-Protocol-Version` header is a cross-check, and decides only for notifications without a
 * claim. Answers here are exact, because dual-era clients pick their era from these bodies.
 */
import { HEADER_MISMATCH, INVALID_PARAMS, INVALID_REQUEST } from "../protocol/errors.ts";
import {
  idOf,
  isObject,
  kindOf,
  type JsonRpcId,
  type JsonRpcNotification,
  type JsonRpcRequest,
  type JsonRpcResponse,
  type KindedMessage,
} from "../protocol/jsonrpc.ts";
import { META_CLIENT_CAPABILITIES, META_PROTOCOL_VERSION } from "../protocol/meta-keys.ts";
import { isModernVersionString } from "../protocol/versions.ts";

/** A POSTed message with its era and kind, as the lanes receive it. */
export type ClassifiedPost =
  | { era: "legacy" | "modern"; kind: "request"; message: JsonRpcRequest; versionHeader: string | null }
  | { era: "legacy" | "modern"; kind: "notification"; message: JsonRpcNotification; versionHeader: string | null }
  | { era: "legacy"; kind: "response"; message: JsonRpcResponse; versionHeader: string | null }
  | { era: "legacy"; kind: "batch"; message: BatchElement[]; versionHeader: string | null };

/** One message of a 2025-03-26 batch, with its kind. */
export type BatchElement = KindedMessage;

/** A classified POST, or the answer to a body that neither era serves. */
export type Classification = ClassifiedPost | Rejection;

/** A body that neither era serves: answered 400 with this JSON-RPC error (by body.ts, which makes every reply). */
export interface Rejection {
  era: "rejected";
  id: JsonRpcId | null;
  code: number;
  message: string;
  data?: unknown;
}

/** True when the message's `params._meta` carries the modern protocol-version key: the era claim. */
export function hasModernClaim(message: unknown): boolean {
  if (!isObject(message)) return false;
  const params = message.params;
  if (!isObject(params)) return false;
  const meta = params._meta;
  return isObject(meta) && META_PROTOCOL_VERSION in meta;
}

function rejected(id: unknown, code: number, message: string, data?: unknown): Rejection {
  return { era: "rejected", id: idOf(id), code, message, data };
}

function classifyBatch(batch: unknown[], versionHeader: string | null): Classification {
  if (batch.length === 0) return rejected(null, INVALID_REQUEST, "Invalid Request: empty JSON-RPC batch");
  const elements: BatchElement[] = [];
  for (const element of batch) {
    if (hasModernClaim(element)) {
      return rejected(
        null,
        INVALID_REQUEST,
        "Invalid Request: JSON-RPC batches may not contain requests for protocol revision 2026-07-28 or later",
      );
    }
    const kinded = kindOf(element);
    if (kinded === undefined) {
      return rejected(null, INVALID_REQUEST, "Invalid Request: a batch element is not a JSON-RPC message");
    }
    if (kinded.kind === "request" && kinded.message.method === "initialize") {
      return rejected(null, INVALID_REQUEST, "Invalid Request: initialize cannot be part of a batch");
    }
    elements.push(kinded);
  }
  return { era: "legacy", kind: "batch", message: elements, versionHeader };
}

/** Classifies a parsed POST body given the `MCP-Protocol-Version` header (or null). */
export function classifyPost(message: unknown, versionHeader: string | null): Classification {
  if (Array.isArray(message)) return classifyBatch(message, versionHeader);
  const kinded = kindOf(message);
  if (kinded === undefined) {
    return rejected(message, INVALID_REQUEST, "Invalid Request: the body is not a valid JSON-RPC message");
  }
  if (kinded.kind === "response") return { era: "legacy", kind: "response", message: kinded.message, versionHeader };
  const headerIsModern = versionHeader !== null && isModernVersionString(versionHeader);
  if (kinded.kind === "notification") {
    const era = hasModernClaim(message) || headerIsModern ? "modern" : "legacy";
    return { era, kind: "notification", message: kinded.message, versionHeader };
  }
  return classifyRequest(kinded.message, versionHeader, headerIsModern);
}

/** A request's era: its claim, else legacy (`initialize` always), with the header cross-checked. */
function classifyRequest(
  message: JsonRpcRequest,
  versionHeader: string | null,
  headerIsModern: boolean,
): Classification {
  const request = (era: "legacy" | "modern"): Classification => ({ era, kind: "request", message, versionHeader });
  if (hasModernClaim(message)) return request("modern");
  if (message.method === "initialize") {
    if (headerIsModern) {
      return rejected(
        message,
        HEADER_MISMATCH,
        `Header mismatch: MCP-Protocol-Version "${versionHeader}" names a modern revision, but initialize belongs to the legacy era`,
      );
    }
    return request("legacy");
  }
  if (headerIsModern) {
    const meta = isObject(message.params) && isObject(message.params._meta) ? message.params._meta : {};
    const missing = [META_PROTOCOL_VERSION, META_CLIENT_CAPABILITIES].filter((key) => !(key in meta));
    return rejected(
      message,
      INVALID_PARAMS,
      `Invalid _meta envelope for protocol revision ${versionHeader}: missing ${missing.join(", ")}`,
      { envelope: { missing } },
    );
  }
  return request("legacy");
}
