/**
 * The modern lane (2026-07-28): stateless POSTs whose `_meta` carries version, capabilities and
 * identity. The ladder here runs envelope (-32602) → version (-32022) → standard headers (-32020)
 * → method (404 -32601) → the request.
 */
import { echoValue } from "../protocol/echo.ts";
import type { H3Event } from "h3";
import type { Inbound } from "../http/inbound.ts";
import { METHOD_NOT_FOUND, UNSUPPORTED_PROTOCOL_VERSION } from "../protocol/errors.ts";
import { isObject, requestName, type JsonObject, type JsonRpcRequest } from "../protocol/jsonrpc.ts";
import { methodsServedBy } from "../protocol/methods.ts";
import { META_PROTOCOL_VERSION } from "../protocol/meta-keys.ts";
import { MODERN_PROTOCOL_VERSIONS, isSupportedModernVersion } from "../protocol/versions.ts";
import { emptyReply, type Reply } from "../http/reply.ts";
import type { ModernServices } from "./services.ts";
import { readEnvelope, type EnvelopeOutcome } from "./envelope.ts";
import { checkStandardHeaders, checkVersionHeader } from "./headers.ts";
import { serveListen } from "./listen/listen.ts";
import { serveModernRequest } from "./request.ts";
import { refuse, type Refusal } from "../http/refusal.ts";
import type { Caller } from "../auth/gate.ts";
import type { ClassifiedPost } from "../gate/classify.ts";

/** What this lane answers itself rather than through the modern table (`server/discover`, `subscriptions/listen`). */
const LANE_METHODS = methodsServedBy("modern", "lane");

/** Serves a POSTed modern message: its kind was decided where the body was parsed (gate/classify.ts). */
export function serveModernPost(
  services: ModernServices,
  inbound: Inbound,
  event: H3Event,
  post: ClassifiedPost,
  caller: Caller | undefined,
): Reply | Promise<Reply> {
  // Notifications: accepted; the modern HTTP binding defines none that change server state.
  if (post.kind !== "request") return emptyReply(202);
  const message = post.message;
  const checked = checkRequest(services, inbound, message, post.versionHeader);
  if (!checked.ok) return refuse(message.id, checked.refusal);
  const request = { services, inbound, event, message, envelope: checked.envelope, caller };
  if (message.method === "subscriptions/listen") return serveListen(request);
  return serveModernRequest(request);
}

/**
 * Whether the lane offers its own `method`: `subscriptions/listen` only when some notification can
 * be asked for (a list that changes, resource subscriptions, an extension's source), as the working
 * group's subscription lifecycle guidance says; without any it is an unknown method (404 -32601).
 */
function offered(services: ModernServices, method: string): boolean {
  if (method !== "subscriptions/listen") return true;
  const { tools, prompts, resources } = services.capabilities;
  return Boolean(
    tools?.listChanged ||
    prompts?.listChanged ||
    resources?.listChanged ||
    resources?.subscribe ||
    services.listenSources.size > 0,
  );
}

/** The ladder: the envelope, the version header, the version, the standard headers, the method. */
function checkRequest(
  services: ModernServices,
  inbound: Inbound,
  message: JsonRpcRequest,
  versionHeader: string | null,
): EnvelopeOutcome {
  const params: JsonObject = message.params ?? {};
  const read = readEnvelope(isObject(params._meta) ? params._meta : {});
  if (!read.ok) return read;
  const envelope = read.envelope;
  // The header must agree with the claim before the claim's version is judged (-32020 before -32022).
  const versionMismatch = checkVersionHeader(versionHeader, envelope.protocolVersion);
  if (versionMismatch) return { ok: false, refusal: versionMismatch };
  if (!isSupportedModernVersion(envelope.protocolVersion)) {
    const refusal: Refusal = {
      status: 400,
      code: UNSUPPORTED_PROTOCOL_VERSION,
      message: `Unsupported protocol version: ${echoValue(envelope.meta[META_PROTOCOL_VERSION])}`,
      data: { supported: [...MODERN_PROTOCOL_VERSIONS], requested: envelope.protocolVersion },
    };
    return { ok: false, refusal };
  }
  const method = message.method;
  // The modern table holds only what this era serves: a legacy-only method (`ping`, an extension's)
  // is as unknown here as a made-up one, down to its `Mcp-Name` not being asked for.
  const served = (LANE_METHODS.has(method) && offered(services, method)) || services.tables.modern.has(method);
  const name = served ? requestName(method, message.params ?? {}) : undefined;
  const headerProblem = checkStandardHeaders(inbound, method, name);
  if (headerProblem) return { ok: false, refusal: headerProblem };
  if (!served) {
    return {
      ok: false,
      refusal: { status: 404, code: METHOD_NOT_FOUND, message: `Method not found: ${echoValue(method)}` },
    };
  }
  return read;
}
