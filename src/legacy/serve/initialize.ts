/** `initialize`: negotiates a legacy revision and opens a session. */
import { INTERNAL_ERROR, INVALID_PARAMS, INVALID_REQUEST } from "../../protocol/errors.ts";
import { failure, isObject, success, type JsonRpcId, type JsonRpcRequest } from "../../protocol/jsonrpc.ts";
import { jsonByteLengthAtMost } from "../../protocol/json-size.ts";
import type { ClientCapabilities, Implementation } from "../../protocol/types.ts";
import { LEGACY_PROTOCOL_VERSIONS, isSupportedLegacyVersion } from "../../protocol/versions.ts";
import { errorReply, jsonReply, type Reply } from "../../http/reply.ts";
import type { LegacyServices } from "../services.ts";
import type { Inbound } from "../../http/inbound.ts";
import { RETRY_AFTER_SECONDS } from "../state/store-failure.ts";
import type { Caller } from "../../auth/gate.ts";
import { sessionHeaders } from "../state/session-headers.ts";

/**
 * Most bytes of `clientInfo` and `capabilities`, as JSON together, that an `initialize` may send: a
 * session keeps both for its whole life, and every later request of it reads them back (parsed from
 * Redis, on `mcp-h3/redis`). Real clients send far less (the 1.x and 2.x SDK clients declaring
 * elicitation and sampling: 76 and 79 bytes, see test/hostile/sessions.test.ts), so 64 KiB leaves
 * room for generous `experimental` capabilities and long descriptions, while a session read costs
 * at most that instead of `maxBodyBytes` (4 MiB).
 */
export const MAX_CLIENT_DESCRIPTION_BYTES = 64 * 1024;

/** Opens a session; with auth on it is bound to the caller's principal for its whole life. */
export async function initialize(
  services: LegacyServices,
  inbound: Inbound,
  message: JsonRpcRequest,
  caller: Caller | undefined,
): Promise<Reply> {
  if (inbound.header("mcp-session-id") !== null && services.sessions) {
    return errorReply(
      400,
      message.id,
      INVALID_REQUEST,
      "Invalid Request: initialize must be sent without Mcp-Session-Id (it opens a new session)",
    );
  }
  const params = message.params ?? {};
  const requested = params.protocolVersion;
  if (typeof requested !== "string") {
    return errorReply(400, message.id, INVALID_PARAMS, 'Invalid params: "protocolVersion" must be a string');
  }
  if (params.capabilities !== undefined && !isObject(params.capabilities)) {
    return errorReply(400, message.id, INVALID_PARAMS, 'Invalid params: "capabilities" must be an object');
  }
  const clientInfo = params.clientInfo;
  if (clientInfo !== undefined && (!isObject(clientInfo) || typeof clientInfo.name !== "string")) {
    return errorReply(400, message.id, INVALID_PARAMS, 'Invalid params: "clientInfo" must be { name, version }');
  }
  // Measured once, without writing the JSON; a hostile value costs no more than the bound to measure.
  const described = jsonByteLengthAtMost(
    [clientInfo ?? null, params.capabilities ?? null],
    MAX_CLIENT_DESCRIPTION_BYTES,
  );
  if (described > MAX_CLIENT_DESCRIPTION_BYTES) return clientDescriptionTooLarge(message.id);
  // A revision we do not speak gets our latest as the counter-offer; the client decides.
  const protocolVersion = isSupportedLegacyVersion(requested) ? requested : LEGACY_PROTOCOL_VERSIONS[0]!;
  const { options, initializeCapabilities: capabilities } = services;
  const result: Record<string, unknown> = { protocolVersion, capabilities, serverInfo: options.serverInfo };
  if (options.instructions !== undefined) result.instructions = options.instructions;
  const sessions = services.sessions;
  if (!sessions) return jsonReply(200, success(message.id, result));
  const id = crypto.randomUUID();
  const created = await sessions.create({
    id,
    protocolVersion,
    clientInfo: clientInfo as Implementation | undefined,
    clientCapabilities: (params.capabilities ?? {}) as ClientCapabilities,
    initialized: false,
    createdAt: Date.now(),
    principal: caller?.principal,
  });
  if (created === "full")
    return sessionsFullReply(message.id, (sessions.store as { maxSessions?: unknown }).maxSessions);
  if (created === "principal-full") return principalFullReply(message.id, sessions.perPrincipal.max);
  return jsonReply(200, success(message.id, result), sessionHeaders(id));
}

/** `-32602` for an `initialize` describing its client in more than {@link MAX_CLIENT_DESCRIPTION_BYTES}. */
function clientDescriptionTooLarge(id: JsonRpcId): Reply {
  return errorReply(
    400,
    id,
    INVALID_PARAMS,
    `Invalid params: "clientInfo" and "capabilities" take more than ${MAX_CLIENT_DESCRIPTION_BYTES / 1024} KiB ` +
      `(${MAX_CLIENT_DESCRIPTION_BYTES} bytes) as JSON, the most a session keeps of its client`,
    { limit: "initialize.clientInfo+capabilities", max: MAX_CLIENT_DESCRIPTION_BYTES },
  );
}

/**
 * 429 when the caller's principal already holds `sessions.maxSessionsPerPrincipal` sessions: the
 * same error as a full store, but it is this caller's own doing, and it lasts until one of its
 * sessions ends (DELETE, or its idle time), so no `Retry-After` is promised. Nothing is ended.
 */
function principalFullReply(id: JsonRpcId, max: number): Reply {
  return errorReply(
    429,
    id,
    INTERNAL_ERROR,
    `Too Many Requests: this principal already holds ${max} sessions (sessions.maxSessionsPerPrincipal); ` +
      "end one with DELETE, or wait until one has been idle for sessions.ttlMs",
    { limit: "sessions.maxSessionsPerPrincipal", max },
  );
}

/**
 * 503 when no session may make room: every session is live (an open stream or a call in flight)
 * or within its handshake grace, and ending one would cut off its client. Nobody's session is ended; the client tries later.
 */
function sessionsFullReply(id: JsonRpcId, max: unknown): Reply {
  return jsonReply(
    503,
    failure(
      id,
      INTERNAL_ERROR,
      `Service Unavailable: no room for a new session (sessions.maxSessions${typeof max === "number" ? ` ${max}` : ""}, ` +
        "or sessions.maxPendingSessions for sessions not yet initialized, is reached and every session is in use " +
        "or within sessions.handshakeGraceMs); " +
        "try again later",
      typeof max === "number" ? { limit: "sessions.maxSessions", max } : { limit: "sessions.maxSessions" },
    ),
    { "retry-after": String(RETRY_AFTER_SECONDS) },
  );
}
