/** Legacy POST: requests, notifications and responses of a session (and batches for 2025-03-26). */
import type { H3Event } from "h3";
import type { Inbound } from "../../http/inbound.ts";
import { INVALID_REQUEST } from "../../protocol/errors.ts";
import { failure, idOf, type JsonRpcResponse } from "../../protocol/jsonrpc.ts";
import { allowsBatches } from "../../protocol/versions.ts";
import { echoValue } from "../../protocol/echo.ts";
import { emptyReply, errorReply, jsonReply, type Reply } from "../../http/reply.ts";
import type { BatchElement, ClassifiedPost } from "../../gate/classify.ts";
import type { LegacyServices } from "../services.ts";
import type { SessionData } from "../../types/stores.ts";
import { deliverResponse } from "./broker.ts";
import { initialize } from "./initialize.ts";
import { handleNotification } from "./notifications.ts";
import { checkSession } from "./session-check.ts";
import { serveRequest } from "./request.ts";
import { StoreFailure, storeFailedReply } from "../state/store-failure.ts";
import type { Caller } from "../../auth/gate.ts";
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
  let session: SessionData | undefined;
  // Only the session steps meet the store; the request itself runs outside this guard.
  try {
    if (post.kind === "request" && post.message.method === "initialize")
      return await initialize(services, inbound, post.message, caller);
    const checked = await checkSession(services.sessions, inbound, id, caller);
    if (!checked.ok) return checked.reply;
    session = checked.session;
    switch (post.kind) {
      case "notification":
        await handleNotification(services, session, post.message);
        return emptyReply(202);
      case "batch":
        return await serveBatch({ services, inbound, event, session, caller }, post.message);
      case "response":
        return await acceptResponse(services, session, post.message);
    }
  } catch (error) {
    if (error instanceof StoreFailure) return storeFailedReply(id);
    throw error;
  }
  const reply = serveRequest({ services, inbound, event, session, message: post.message, streaming: true, caller });
  // Awaited only when pending: resolving an async function with a promise costs two more turns.
  return reply instanceof Promise ? await reply : reply;
}

async function acceptResponse(
  services: LegacyServices,
  session: SessionData | undefined,
  response: JsonRpcResponse,
): Promise<Reply> {
  if (!services.sessions || !session || !(await deliverResponse(services.sessions, session.id, response))) {
    return errorReply(
      400,
      null,
      INVALID_REQUEST,
      `Invalid Request: no request of this session waits for a response with id ${echoValue(response.id)}`,
    );
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
async function serveBatch(origin: BatchOrigin, batch: readonly BatchElement[]): Promise<Reply> {
  const { services, inbound, session } = origin;
  const version = session?.protocolVersion ?? inbound.header("mcp-protocol-version") ?? "2025-03-26";
  if (!allowsBatches(version)) {
    return errorReply(
      400,
      null,
      INVALID_REQUEST,
      `Invalid Request: JSON-RPC batches are not allowed in protocol revision ${version} (only 2025-03-26)`,
    );
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
      if (!(await deliverResponse(services.sessions, session.id, element.message))) {
        responses.push(failure(null, INVALID_REQUEST, `No request waits for id ${echoValue(element.message.id)}`));
      }
    }
  }
  if (responses.length === 0) return emptyReply(202);
  return jsonReply(200, responses, session ? sessionHeaders(session.id) : undefined);
}
