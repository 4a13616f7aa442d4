/**
 * The messages instances sharing one set of stores send each other about legacy sessions, on one
 * bus channel. Every message names one session; the receiving instance acts only on what it has
 * live for that session (a GET stream, a call, a waiting server→client request), so a message can
 * never reach across sessions. Messages come from other instances of the same app, but are still
 * checked field by field and bounded before anything is done with them.
 *
 * - `event`: an event already kept in a stream's log, for the instance serving that stream's client
 *   (`to`) to write with its id (not logging it again): the GET stream (no `streamId`), or a POST
 *   response stream another instance follows (`streamId` and that follower's `claim`);
 * - `claim`: `from` now serves the client of a POST response stream whose call runs elsewhere
 *   (resumed there with `Last-Event-ID`); the instance running the call hands it every later event;
 * - `handover`: the answer to a claim, for `to`: `open` when events follow from now on, else nothing
 *   more will come (the call finished, was cancelled, or another claim took the stream);
 * - `unclaim`: the follower's client went away; the call's instance keeps logging, and stops sending;
 * - `released`: `holder` now holds the session's GET stream; any other instance ends its own;
 * - `response`: the client's answer to a server→client request another instance sent and waits for;
 * - `cancel`: `notifications/cancelled` for a request running on another instance;
 * - `ended`: the session ended (DELETE, eviction): every instance forgets what it has of it.
 *
 * The shapes and their builders are here; `session-bus-parse.ts` checks what arrives.
 */
import type { JsonRpcId, JsonRpcMessage, JsonRpcNotification, JsonRpcResponse } from "../../protocol/jsonrpc.ts";
import type { Answerer } from "../../auth/answerer.ts";

/** The bus channel of session messages. */
export const SESSION_CHANNEL = "mcp-h3:session";

/** Longest session id, instance name, event id or request id a message may carry. */
export const MAX_ID_LENGTH = 512;
/** Longest cancellation reason carried over. */
export const MAX_REASON_LENGTH = 1024;

/** Fields every message has: its kind, its session, and the instance that sent it. */
interface Envelope {
  sessionId: string;
  from: string;
}

export interface EventMessage extends Envelope {
  kind: "event";
  to: string;
  eventId: string;
  /** A notification on the GET stream; on a POST stream also a server→client request or the final response. */
  message: JsonRpcMessage;
  /** The POST response stream, with the claim it answers; both absent for the GET stream. */
  streamId?: string;
  claim?: string;
  /** GET stream only: written only when the stream's reader may call this tool (a task's notices). */
  forTool?: string;
}

/** What names one follower of a POST response stream: its stream and its claim. */
interface StreamClaim extends Envelope {
  streamId: string;
  claim: string;
}

export interface ClaimMessage extends StreamClaim {
  kind: "claim";
}

export interface UnclaimMessage extends StreamClaim {
  kind: "unclaim";
}

export interface HandoverMessage extends StreamClaim {
  kind: "handover";
  to: string;
  open: boolean;
}

export interface ReleasedMessage extends Envelope {
  kind: "released";
  holder: string;
}

export interface ResponseMessage extends Envelope {
  kind: "response";
  response: JsonRpcResponse;
  /** Who POSTed it (auth on): the instance that asked checks it may answer (auth/answerer.ts). */
  answerer?: Answerer;
}

export interface CancelMessage extends Envelope {
  kind: "cancel";
  requestId: JsonRpcId;
  reason?: string;
}

export interface EndedMessage extends Envelope {
  kind: "ended";
}

export type SessionBusMessage =
  | EventMessage
  | ClaimMessage
  | UnclaimMessage
  | HandoverMessage
  | ReleasedMessage
  | ResponseMessage
  | CancelMessage
  | EndedMessage;

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
  /** An event of a POST response stream, for the follower `to` named by `claim`. */
  streamEvent: (
    from: string,
    sessionId: string,
    to: string,
    follower: { streamId: string; claim: string },
    eventId: string,
    message: JsonRpcMessage,
  ): EventMessage => ({
    kind: "event",
    sessionId,
    from,
    to,
    eventId,
    message,
    streamId: follower.streamId,
    claim: follower.claim,
  }),
  claim: (from: string, sessionId: string, streamId: string, claim: string): ClaimMessage => ({
    kind: "claim",
    sessionId,
    from,
    streamId,
    claim,
  }),
  unclaim: (from: string, sessionId: string, streamId: string, claim: string): UnclaimMessage => ({
    kind: "unclaim",
    sessionId,
    from,
    streamId,
    claim,
  }),
  handover: (
    from: string,
    sessionId: string,
    to: string,
    follower: { streamId: string; claim: string },
    open: boolean,
  ): HandoverMessage => ({
    kind: "handover",
    sessionId,
    from,
    to,
    streamId: follower.streamId,
    claim: follower.claim,
    open,
  }),
  released: (from: string, sessionId: string): ReleasedMessage => ({ kind: "released", sessionId, from, holder: from }),
  response: (
    from: string,
    sessionId: string,
    response: JsonRpcResponse,
    answerer: Answerer | undefined,
  ): ResponseMessage => {
    const message: ResponseMessage = { kind: "response", sessionId, from, response };
    if (answerer !== undefined) message.answerer = { principal: answerer.principal, scopes: [...answerer.scopes] };
    return message;
  },
  cancel: (from: string, sessionId: string, requestId: JsonRpcId, reason: string | undefined): CancelMessage => {
    const message: CancelMessage = { kind: "cancel", sessionId, from, requestId };
    if (reason !== undefined) message.reason = reason.slice(0, MAX_REASON_LENGTH);
    return message;
  },
  ended: (from: string, sessionId: string): EndedMessage => ({ kind: "ended", sessionId, from }),
};

/** Server→client request ids as {@link mintedBy} knows them: `srv-<8 hex>-<random UUID>` (no backtracking). */
const REQUEST_ID = /^srv-([0-9a-f]{8})-[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

/** The instance prefix of a server→client request id, or undefined when the id is of no known shape. */
export function mintedBy(id: JsonRpcId | null): string | undefined {
  return typeof id === "string" ? REQUEST_ID.exec(id)?.[1] : undefined;
}
