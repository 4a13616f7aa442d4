/** Legacy POST: requests, notifications and responses of a session (and batches for 2025-03-26). */
import type { H3Event } from "h3";
import type { Inbound } from "../../http/inbound.ts";
import { INVALID_REQUEST } from "../../protocol/errors.ts";
import { failure, idOf, success, type JsonRpcRequest, type JsonRpcResponse } from "../../protocol/jsonrpc.ts";
import { allowsBatches } from "../../protocol/versions.ts";
import { echoValue } from "../../protocol/echo.ts";
import { Reply, emptyReply, jsonReply } from "../../http/reply.ts";
import { refuse } from "../../http/refusal.ts";
import type { BatchElement, ClassifiedPost } from "../../gate/classify.ts";
import type { LegacyServices } from "../services.ts";
import type { SessionData } from "../../types/stores.ts";
import { deliverResponse } from "./broker.ts";
import { initialize } from "./initialize.ts";
import { handleNotification } from "./notifications.ts";
import { checkSession, type SessionOutcome } from "./session-check.ts";
import { serveRequest } from "./request.ts";
import { STORE_FAILED, StoreFailure } from "../state/store-failure.ts";
import type { Caller } from "../../auth/gate.ts";
import { answererOf } from "../../auth/answerer.ts";
import { sessionHeaders } from "../state/session-headers.ts";

/** Serves a POSTed legacy message: its kind was decided where the body was parsed (gate/classify.ts). */
export async function serveLegacyPost(
  services: LegacyServices,
  inbound: Inbound,
  event: H3Event,
  post: ClassifiedPost,
  caller: Caller | undefined,
): Promise<Reply> {
  const id = idOf(post.message);
  let admitted: Admitted;
  // Only the session steps meet the store; the request itself runs outside this guard.
  try {
    admitted = await admit(services, inbound, event, post, caller);
  } catch (error) {
    if (error instanceof StoreFailure) return refuse(id, STORE_FAILED);
    throw error;
  }
  if (admitted instanceof Reply) return admitted;
  if (!admitted.ok) return refuse(id, admitted.refusal);
  // `admit` answered every other kind: what it lets through is a request.
  const message = post.message as JsonRpcRequest;
  const reply = serveRequest({ services, inbound, event, session: admitted.session, message, streaming: true, caller });
  // Awaited only when pending: resolving an async function with a promise costs two more turns.
  return reply instanceof Promise ? await reply : reply;
}

/** A request let through with its session, a refusal, or the whole answer of what needs no call. */
type Admitted = SessionOutcome | Reply;

/**
 * The session steps of a POST: `initialize` opens one; anything else needs one (sessions on), and
 * a notification, a response or a batch is answered here. What is refused comes back as data.
 */
async function admit(
  services: LegacyServices,
  inbound: Inbound,
  event: H3Event,
  post: ClassifiedPost,
  caller: Caller | undefined,
): Promise<Admitted> {
  if (post.kind === "request" && post.message.method === "initialize") {
    const opened = await initialize(services, inbound, post.message, caller);
    if (!("result" in opened)) return { ok: false, refusal: opened };
    const headers = opened.sessionId === undefined ? undefined : sessionHeaders(opened.sessionId);
    return jsonReply(200, success(post.message.id, opened.result), headers);
  }
  const checked = await checkSession(services.sessions, inbound, caller);
  if (!checked.ok || post.kind === "request") return checked;
  const session = checked.session;
  switch (post.kind) {
    case "notification":
      await handleNotification(services, session, post.message);
      return emptyReply(202);
    case "batch":
      return await serveBatch({ services, inbound, event, session, caller }, post.message);
    case "response":
      return await acceptResponse(services, session, post.message, caller);
  }
}

async function acceptResponse(
  services: LegacyServices,
  session: SessionData | undefined,
  response: JsonRpcResponse,
  caller: Caller | undefined,
): Promise<Admitted> {
  const sessions = services.sessions;
  if (
    !sessions ||
    !session ||
    !(await deliverResponse(sessions, session.id, response, answererOf(caller?.principal, caller?.identity.scopes)))
  ) {
    const message = `Invalid Request: no request of this session waits for a response with id ${echoValue(response.id)}`;
    // Answered with id null: the id is the response's own, not a request's of this client.
    return refuse(null, { status: 400, code: INVALID_REQUEST, message });
  }
  return emptyReply(202);
}

/** Where a batch was posted: the request's parts and its session. */
interface BatchOrigin {
  services: LegacyServices;
  inbound: Inbound;
  event: H3Event;
  session: SessionData | undefined;
  caller: Caller | undefined;
}

/** 2025-03-26 batches: answered together as one JSON array (no streaming). */
async function serveBatch(origin: BatchOrigin, batch: readonly BatchElement[]): Promise<Admitted> {
  const { services, inbound, session, caller } = origin;
  const version = session?.protocolVersion ?? inbound.header("mcp-protocol-version") ?? "2025-03-26";
  if (!allowsBatches(version)) {
    const message = `Invalid Request: JSON-RPC batches are not allowed in protocol revision ${version} (only 2025-03-26)`;
    return { ok: false, refusal: { status: 400, code: INVALID_REQUEST, message } };
  }
  const responses: JsonRpcResponse[] = [];
  for (const element of batch) {
    if (element.kind === "request") {
      // One at a time, so that event.context.mcp always belongs to the handler that runs.
      const message = element.message;
      const reply = await serveRequest({ ...origin, message, streaming: false });
      if (typeof reply.body === "string") responses.push(JSON.parse(reply.body) as JsonRpcResponse);
    } else if (element.kind === "notification") {
      await handleNotification(services, session, element.message);
    } else if (services.sessions && session) {
      if (
        !(await deliverResponse(
          services.sessions,
          session.id,
          element.message,
          answererOf(caller?.principal, caller?.identity.scopes),
        ))
      ) {
        responses.push(failure(null, INVALID_REQUEST, `No request waits for id ${echoValue(element.message.id)}`));
      }
    }
  }
  if (responses.length === 0) return emptyReply(202);
  return jsonReply(200, responses, session ? sessionHeaders(session.id) : undefined);
}
