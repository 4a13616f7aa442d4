/**
 * The messages instances sharing one set of stores send each other about legacy sessions, on one
 * bus channel. Every message names one session; the receiving instance acts only on what it has
 * live for that session (a GET stream, a call, a waiting server→client request), so a message can
 * never reach across sessions. Messages come from other instances of the same app, but are still
 * checked field by field and bounded before anything is done with them.
 *
 * - `event`: an event already kept in the GET stream's log, for the instance holding that stream
 *   (`to`) to write with its id (not logging it again);
 * - `released`: `holder` now holds the session's GET stream; any other instance ends its own;
 * - `response`: the client's answer to a server→client request another instance sent and waits for;
 * - `cancel`: `notifications/cancelled` for a request running on another instance;
 * - `ended`: the session ended (DELETE, eviction): every instance forgets what it has of it.
 */
import { isObject, type JsonRpcId, type JsonRpcNotification, type JsonRpcResponse } from "../protocol/jsonrpc.ts";

/** The bus channel of session messages. */
export const SESSION_CHANNEL = "mcp-h3:session";

/** Longest session id, instance name, event id or request id a message may carry. */
const MAX_ID_LENGTH = 512;
/** Longest cancellation reason carried over. */
const MAX_REASON_LENGTH = 1024;

/** Fields every message has: its kind, its session, and the instance that sent it. */
interface Envelope {
  sessionId: string;
  from: string;
}

export interface EventMessage extends Envelope {
  kind: "event";
  to: string;
  eventId: string;
  message: JsonRpcNotification;
}

export interface ReleasedMessage extends Envelope {
  kind: "released";
  holder: string;
}

export interface ResponseMessage extends Envelope {
  kind: "response";
  response: JsonRpcResponse;
}

export interface CancelMessage extends Envelope {
  kind: "cancel";
  requestId: JsonRpcId;
  reason?: string;
}

export interface EndedMessage extends Envelope {
  kind: "ended";
}

export type SessionBusMessage = EventMessage | ReleasedMessage | ResponseMessage | CancelMessage | EndedMessage;

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

/** The message, when `value` has the shape of one; undefined for anything else (ignored). */
export function parseSessionBusMessage(value: unknown): SessionBusMessage | undefined {
  if (!isObject(value) || !isId(value.sessionId) || !isId(value.from)) return undefined;
  switch (value.kind) {
    case "event":
      return isId(value.to) && isId(value.eventId) && isNotificationShape(value.message)
        ? (value as unknown as EventMessage)
        : undefined;
    case "released":
      return isId(value.holder) ? (value as unknown as ReleasedMessage) : undefined;
    case "response":
      return isResponseShape(value.response) ? (value as unknown as ResponseMessage) : undefined;
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

/** Builds the messages, so every sender writes the same shape the parser accepts. */
export const sessionBusMessage = {
  event: (
    from: string,
    sessionId: string,
    to: string,
    eventId: string,
    message: JsonRpcNotification,
  ): EventMessage => ({
    kind: "event",
    sessionId,
    from,
    to,
    eventId,
    message,
  }),
  released: (from: string, sessionId: string): ReleasedMessage => ({ kind: "released", sessionId, from, holder: from }),
  response: (from: string, sessionId: string, response: JsonRpcResponse): ResponseMessage => ({
    kind: "response",
    sessionId,
    from,
    response,
  }),
  cancel: (from: string, sessionId: string, requestId: JsonRpcId, reason: string | undefined): CancelMessage => {
    const message: CancelMessage = { kind: "cancel", sessionId, from, requestId };
    if (reason !== undefined) message.reason = reason.slice(0, MAX_REASON_LENGTH);
    return message;
  },
  ended: (from: string, sessionId: string): EndedMessage => ({ kind: "ended", sessionId, from }),
};

/** Server→client request ids as {@link mintedBy} knows them: `srv-<8 hex>-<n>`. */
const REQUEST_ID = /^srv-([0-9a-f]{8})-[1-9][0-9]{0,15}$/;

/** The instance prefix of a server→client request id, or undefined when the id is of no known shape. */
export function mintedBy(id: JsonRpcId | null): string | undefined {
  return typeof id === "string" ? REQUEST_ID.exec(id)?.[1] : undefined;
}
