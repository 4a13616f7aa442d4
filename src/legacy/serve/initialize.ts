/** `initialize`: negotiates a legacy revision and opens a session. */
import { INTERNAL_ERROR, INVALID_PARAMS, INVALID_REQUEST } from "../../protocol/errors.ts";
import { isObject, type JsonRpcRequest } from "../../protocol/jsonrpc.ts";
import { jsonByteLengthAtMost } from "../../protocol/json-size.ts";
import type { ClientCapabilities, Implementation } from "../../protocol/types.ts";
import { LEGACY_PROTOCOL_VERSIONS, isSupportedLegacyVersion } from "../../protocol/versions.ts";
import type { Refusal } from "../../http/refusal.ts";
import type { LegacyServices } from "../services.ts";
import type { Inbound } from "../../http/inbound.ts";
import { RETRY_AFTER_SECONDS } from "../state/store-failure.ts";
import type { Caller } from "../../auth/gate.ts";

/**
 * Most bytes of `clientInfo` and `capabilities`, as JSON together, that an `initialize` may send: a
 * session keeps both for its whole life, and every later request of it reads them back (parsed from
 * Redis, on `mcp-h3/redis`). Real clients send far less (the 1.x and 2.x SDK clients declaring
 * elicitation and sampling: 76 and 79 bytes, see test/hostile/sessions.test.ts), so 64 KiB leaves
 * room for generous `experimental` capabilities and long descriptions, while a session read costs
 * at most that instead of `maxBodyBytes` (4 MiB).
 */
export const MAX_CLIENT_DESCRIPTION_BYTES = 64 * 1024;

/** What `initialize` answers: the result, with the id of the session it opened (none with sessions off). */
export interface Initialized {
  readonly result: Record<string, unknown>;
  readonly sessionId: string | undefined;
}

/** A refusal of `initialize`'s parameters (400 -32602). */
function invalidParams(problem: string): Refusal {
  return { status: 400, code: INVALID_PARAMS, message: `Invalid params: ${problem}` };
}

/**
 * Opens a session; with auth on it is bound to the caller's principal for its whole life. What is
 * wrong comes back as a {@link Refusal}; the POST answers both in one place.
 */
export async function initialize(
  services: LegacyServices,
  inbound: Inbound,
  message: JsonRpcRequest,
  caller: Caller | undefined,
): Promise<Initialized | Refusal> {
  if (inbound.header("mcp-session-id") !== null && services.sessions) {
    return {
      status: 400,
      code: INVALID_REQUEST,
      message: "Invalid Request: initialize must be sent without Mcp-Session-Id (it opens a new session)",
    };
  }
  const params = message.params ?? {};
  const requested = params.protocolVersion;
  if (typeof requested !== "string") return invalidParams('"protocolVersion" must be a string');
  if (params.capabilities !== undefined && !isObject(params.capabilities)) {
    return invalidParams('"capabilities" must be an object');
  }
  const clientInfo = params.clientInfo;
  if (clientInfo !== undefined && (!isObject(clientInfo) || typeof clientInfo.name !== "string")) {
    return invalidParams('"clientInfo" must be { name, version }');
  }
  // Measured once, without writing the JSON; a hostile value costs no more than the bound to measure.
  const described = jsonByteLengthAtMost(
    [clientInfo ?? null, params.capabilities ?? null],
    MAX_CLIENT_DESCRIPTION_BYTES,
  );
  if (described > MAX_CLIENT_DESCRIPTION_BYTES) return CLIENT_DESCRIPTION_TOO_LARGE;
  // A revision we do not speak gets our latest as the counter-offer; the client decides.
  const protocolVersion = isSupportedLegacyVersion(requested) ? requested : LEGACY_PROTOCOL_VERSIONS[0]!;
  const { options, initializeCapabilities: capabilities } = services;
  const result: Record<string, unknown> = { protocolVersion, capabilities, serverInfo: options.serverInfo };
  if (options.instructions !== undefined) result.instructions = options.instructions;
  const sessions = services.sessions;
  if (!sessions) return { result, sessionId: undefined };
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
  if (created === "full") return sessionsFull((sessions.store as { maxSessions?: unknown }).maxSessions);
  if (created === "principal-full") return principalFull(sessions.perPrincipal.max);
  return { result, sessionId: id };
}

/** `-32602` for an `initialize` describing its client in more than {@link MAX_CLIENT_DESCRIPTION_BYTES}. */
const CLIENT_DESCRIPTION_TOO_LARGE: Refusal = {
  status: 400,
  code: INVALID_PARAMS,
  message:
    `Invalid params: "clientInfo" and "capabilities" take more than ${MAX_CLIENT_DESCRIPTION_BYTES / 1024} KiB ` +
    `(${MAX_CLIENT_DESCRIPTION_BYTES} bytes) as JSON, the most a session keeps of its client`,
  data: { limit: "initialize.clientInfo+capabilities", max: MAX_CLIENT_DESCRIPTION_BYTES },
};

/**
 * 429 when the caller's principal already holds `sessions.maxSessionsPerPrincipal` sessions: the
 * same error as a full store, but it is this caller's own doing, and it lasts until one of its
 * sessions ends (DELETE, or its idle time), so no `Retry-After` is promised. Nothing is ended.
 */
function principalFull(max: number): Refusal {
  return {
    status: 429,
    code: INTERNAL_ERROR,
    message:
      `Too Many Requests: this principal already holds ${max} sessions (sessions.maxSessionsPerPrincipal); ` +
      "end one with DELETE, or wait until one has been idle for sessions.ttlMs",
    data: { limit: "sessions.maxSessionsPerPrincipal", max },
  };
}

/**
 * 503 when no session may make room: every session is live (an open stream or a call in flight)
 * or within its handshake grace, and ending one would cut off its client. Nobody's session is ended; the client tries later.
 */
function sessionsFull(max: unknown): Refusal {
  return {
    status: 503,
    code: INTERNAL_ERROR,
    message:
      `Service Unavailable: no room for a new session (sessions.maxSessions${typeof max === "number" ? ` ${max}` : ""}, ` +
      "or sessions.maxPendingSessions for sessions not yet initialized, is reached and every session is in use " +
      "or within sessions.handshakeGraceMs); try again later",
    data: typeof max === "number" ? { limit: "sessions.maxSessions", max } : { limit: "sessions.maxSessions" },
    headers: { "retry-after": String(RETRY_AFTER_SECONDS) },
  };
}
