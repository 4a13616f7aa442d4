/** The checks every non-initialize legacy request passes: session id present and known, version supported. */
import { echoValue } from "../../protocol/echo.ts";
import type { Inbound } from "../../http/inbound.ts";
import { CONNECTION_CLOSED, SESSION_NOT_FOUND_CODE } from "../../protocol/errors.ts";
import { failure, type JsonRpcId } from "../../protocol/jsonrpc.ts";
import {
  DEFAULT_LEGACY_PROTOCOL_VERSION,
  LEGACY_PROTOCOL_VERSIONS,
  isSupportedLegacyVersion,
} from "../../protocol/versions.ts";
import { jsonReply, type Reply } from "../../http/reply.ts";
import { refuse, type Refusal } from "../../http/refusal.ts";
import type { SessionData } from "../../types/stores.ts";
import type { LegacySessions } from "../state/sessions.ts";
import type { Caller } from "../../auth/gate.ts";

/** 405 for GET and DELETE when the server runs without sessions. */
export function noSessionsReply(): Reply {
  return jsonReply(405, failure(null, CONNECTION_CLOSED, "Method Not Allowed: this server has no sessions"), {
    allow: "POST",
  });
}

/** 404 for a session id that is unknown, expired, ended, or another principal's. */
const SESSION_NOT_FOUND: Refusal = { status: 404, code: SESSION_NOT_FOUND_CODE, message: "Session not found" };

/** {@link SESSION_NOT_FOUND} as the whole answer. */
export function sessionNotFoundReply(id: JsonRpcId | null): Reply {
  return refuse(id, SESSION_NOT_FOUND);
}

export type SessionOutcome = { ok: true; session: SessionData | undefined } | { ok: false; refusal: Refusal };

/**
 * Finds the request's session. With sessions off, legacy requests are served statelessly and
 * the outcome has no session. With auth on, a session opened by another principal is answered
 * exactly as an unknown one, byte for byte: nobody learns that someone else's session exists.
 */
export async function checkSession(
  sessions: LegacySessions | undefined,
  inbound: Inbound,
  caller: Caller | undefined,
): Promise<SessionOutcome> {
  const version = inbound.header("mcp-protocol-version");
  if (version !== null && !isSupportedLegacyVersion(version)) {
    const supported = LEGACY_PROTOCOL_VERSIONS.join(", ");
    const message = `Bad Request: Unsupported protocol version: ${echoValue(version)} (supported versions: ${supported})`;
    return { ok: false, refusal: { status: 400, code: CONNECTION_CLOSED, message } };
  }
  if (!sessions) return { ok: true, session: undefined };
  const sessionId = inbound.header("mcp-session-id");
  if (sessionId === null) {
    const message = "Bad Request: Mcp-Session-Id header is required";
    return { ok: false, refusal: { status: 400, code: CONNECTION_CLOSED, message } };
  }
  // With auth on, another principal's session is looked at without being touched (not even its idle timer).
  const session = await sessions.find(sessionId, caller?.principal);
  if (!session) return { ok: false, refusal: SESSION_NOT_FOUND };
  return { ok: true, session };
}

/** The version a legacy request speaks: the session's, else the header's, else 2025-03-26. */
export function requestVersion(session: SessionData | undefined, inbound: Inbound): string {
  return session?.protocolVersion ?? inbound.header("mcp-protocol-version") ?? DEFAULT_LEGACY_PROTOCOL_VERSION;
}
