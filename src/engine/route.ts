/**
 * The way of one HTTP request through the engine: the Origin/Host gate, the token (auth on), the
 * rate limit (when set), `setup` on the first requests, then its route by HTTP method and, for a
 * POST, by era. Each step may answer on its own; the common path (no rate limit, `setup` done, a
 * synchronous token check or none) costs no promise before the lane.
 */
import type { H3Event } from "h3";
import type { Caller } from "../auth/gate.ts";
import { checkRateLimit } from "../auth/rate-limit.ts";
import { checkJsonContentType, readPost } from "../gate/body.ts";
import type { Inbound } from "../http/inbound.ts";
import { Reply, errorReply, jsonReply } from "../http/reply.ts";
import { failure } from "../protocol/jsonrpc.ts";
import { serveLegacyDelete } from "../legacy/serve/delete.ts";
import { serveLegacyGet } from "../legacy/serve/get.ts";
import { serveLegacyPost } from "../legacy/serve/post.ts";
import type { LegacyServices } from "../legacy/services.ts";
import { serveModernPost } from "../modern/lane.ts";
import type { ModernServices } from "../modern/services.ts";
import { CONNECTION_CLOSED, INTERNAL_ERROR, messageOf } from "../protocol/errors.ts";

type Services = LegacyServices & ModernServices;

/**
 * Serves one request. The Origin/Host gate and the token come before anything else (era, session,
 * body) is looked at, so a client without a valid token learns nothing of the server's state.
 */
export function serveHttpRequest(services: Services, inbound: Inbound, event: H3Event): Promise<Reply> {
  const forbidden = services.originGate.check(inbound.header("origin"), inbound.header("host"));
  if (forbidden) return Promise.resolve(forbidden);
  if (!services.auth) return serveAdmitted(services, inbound, event, undefined);
  const admitted = services.auth.admit(inbound, event);
  // A synchronous validator costs no promise of its own before the request is routed.
  if (admitted instanceof Promise) return admitted.then((caller) => serveAdmitted(services, inbound, event, caller));
  return serveAdmitted(services, inbound, event, admitted);
}

/** After the token check: its refusal, or the request on its way with its caller (undefined with auth off). */
function serveAdmitted(
  services: Services,
  inbound: Inbound,
  event: H3Event,
  admitted: Caller | Reply | undefined,
): Promise<Reply> {
  if (admitted instanceof Reply) return Promise.resolve(admitted);
  if (services.rateLimit || !services.lifespan.ready) return prepareThenRoute(services, inbound, event, admitted);
  return route(services, inbound, event, admitted);
}

/** The rate limit (when set), then `setup` on the first requests: a failed setup answers 500 and is tried again next time. */
async function prepareThenRoute(
  services: Services,
  inbound: Inbound,
  event: H3Event,
  caller: Caller | undefined,
): Promise<Reply> {
  if (services.rateLimit) {
    const onFailure = (error: unknown): void => services.incidents.record("callback_failure", error);
    const limited = await checkRateLimit(services.rateLimit, event, caller?.principal, {
      onFailure,
      standard: services.rateLimitErrors,
    });
    if (limited) return limited;
  }
  if (!services.lifespan.ready) {
    try {
      await services.lifespan.start();
    } catch (error) {
      return errorReply(500, null, INTERNAL_ERROR, `Server setup failed: ${messageOf(error)}`);
    }
  }
  return route(services, inbound, event, caller);
}

/** By HTTP method: POST carries messages of both eras; GET and DELETE exist on legacy sessions only. */
function route(services: Services, inbound: Inbound, event: H3Event, caller: Caller | undefined): Promise<Reply> {
  switch (inbound.method) {
    case "POST":
      return servePost(services, inbound, event, caller);
    case "GET":
      return serveLegacyGet(services, inbound, event, caller);
    case "DELETE":
      return serveLegacyDelete(services, inbound, caller);
    default:
      return Promise.resolve(
        jsonReply(405, failure(null, CONNECTION_CLOSED, `Method Not Allowed: ${inbound.method}`), {
          allow: services.sessions ? "GET, POST, DELETE" : "POST",
        }),
      );
  }
}

/** A POST: its body read, parsed and classified within the bounds (gate/body.ts), then its era's lane. */
async function servePost(
  services: Services,
  inbound: Inbound,
  event: H3Event,
  caller: Caller | undefined,
): Promise<Reply> {
  const unsupported = checkJsonContentType(inbound);
  if (unsupported) return unsupported;
  let text: string | undefined;
  try {
    text = await inbound.readText(services.options.maxBodyBytes);
  } catch (error) {
    // The client went away mid-body: nobody reads the answer, so it is only counted, never logged.
    services.incidents.record("client_aborted", error);
    return errorReply(400, null, CONNECTION_CLOSED, "Bad Request: the request body could not be read");
  }
  const read = readPost(text, services.options, inbound.header("mcp-protocol-version"));
  if (!read.ok) return read.reply;
  const post = read.post;
  if (post.era === "legacy") return await serveLegacyPost(services, inbound, event, post, caller);
  const reply = serveModernPost(services, inbound, event, post, caller);
  // Awaited only when pending: resolving an async function with a promise costs two more turns.
  return reply instanceof Promise ? await reply : reply;
}
