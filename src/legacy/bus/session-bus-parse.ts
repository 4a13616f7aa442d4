/**
 * Checks a session message that arrived on the bus (see `session-bus.ts`) field by field, with
 * every id and reason bounded; anything else is ignored.
 */
import { isObject, type JsonRpcNotification, type JsonRpcResponse } from "../../protocol/jsonrpc.ts";
import {
  MAX_ID_LENGTH,
  MAX_REASON_LENGTH,
  type CancelMessage,
  type ClaimMessage,
  type EndedMessage,
  type EventMessage,
  type HandoverMessage,
  type ReleasedMessage,
  type ResponseMessage,
  type SessionBusMessage,
  type UnclaimMessage,
} from "./session-bus.ts";

function isId(value: unknown): value is string {
  return typeof value === "string" && value.length > 0 && value.length <= MAX_ID_LENGTH;
}

function isRequestId(value: unknown): value is string | number {
  return isId(value) || (typeof value === "number" && Number.isFinite(value));
}

function isNotificationShape(value: unknown): value is JsonRpcNotification {
  return isObject(value) && value.jsonrpc === "2.0" && isId(value.method) && !("id" in value);
}

function isResponseShape(value: unknown): value is JsonRpcResponse {
  if (!isObject(value) || value.jsonrpc !== "2.0" || !isRequestId(value.id)) return false;
  if ("result" in value) return !("error" in value);
  const error = value.error;
  return isObject(error) && typeof error.code === "number" && typeof error.message === "string";
}

function isRequestShape(value: unknown): boolean {
  return isObject(value) && value.jsonrpc === "2.0" && isId(value.method) && isRequestId(value.id);
}

/** The GET stream carries notifications; a POST stream also server→client requests and its response. */
function isEventShape(value: Record<string, unknown>): boolean {
  if (value.streamId === undefined) {
    const forTool = value.forTool;
    return value.claim === undefined && (forTool === undefined || isId(forTool)) && isNotificationShape(value.message);
  }
  if (value.forTool !== undefined) return false;
  if (!isId(value.streamId) || !isId(value.claim)) return false;
  const message = value.message;
  return isNotificationShape(message) || isRequestShape(message) || isResponseShape(message);
}

/** Most scopes an answerer may carry, and the longest scope: a grant's, bounded. */
const MAX_ANSWERER_SCOPES = 1024;
const MAX_SCOPE_LENGTH = 1024;

/** The answerer of a `response` message: absent (auth off), or a principal and its scopes, bounded. */
function isAnswerer(value: unknown): boolean {
  if (value === undefined) return true;
  if (!isObject(value) || !isId(value.principal)) return false;
  const scopes = value.scopes;
  return (
    Array.isArray(scopes) &&
    scopes.length <= MAX_ANSWERER_SCOPES &&
    scopes.every((scope) => typeof scope === "string" && scope.length <= MAX_SCOPE_LENGTH)
  );
}

function isStreamClaim(value: Record<string, unknown>): boolean {
  return isId(value.streamId) && isId(value.claim);
}

/** The message, when `value` has the shape of one; undefined for anything else (ignored). */
export function parseSessionBusMessage(value: unknown): SessionBusMessage | undefined {
  if (!isObject(value) || !isId(value.sessionId) || !isId(value.from)) return undefined;
  switch (value.kind) {
    case "event":
      return isId(value.to) && isId(value.eventId) && isEventShape(value)
        ? (value as unknown as EventMessage)
        : undefined;
    case "claim":
      return isStreamClaim(value) ? (value as unknown as ClaimMessage) : undefined;
    case "unclaim":
      return isStreamClaim(value) ? (value as unknown as UnclaimMessage) : undefined;
    case "handover":
      return isStreamClaim(value) && isId(value.to) && typeof value.open === "boolean"
        ? (value as unknown as HandoverMessage)
        : undefined;
    case "released":
      return isId(value.holder) ? (value as unknown as ReleasedMessage) : undefined;
    case "response":
      return isResponseShape(value.response) && isAnswerer(value.answerer)
        ? (value as unknown as ResponseMessage)
        : undefined;
    case "cancel": {
      if (!isRequestId(value.requestId)) return undefined;
      const reason = value.reason;
      if (reason !== undefined && (typeof reason !== "string" || reason.length > MAX_REASON_LENGTH)) return undefined;
      return value as unknown as CancelMessage;
    }
    case "ended":
      return value as unknown as EndedMessage;
    default:
      return undefined;
  }
}
