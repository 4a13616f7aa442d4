/** One legacy request: session-level methods here, everything else through the shared method table. */
import type { H3Event } from "h3";
import { runRequest } from "../dispatch/run.ts";
import type { Inbound } from "../inbound.ts";
import { ErrorCode } from "../protocol/errors.ts";
import { failure, success, type JsonObject, type JsonRpcRequest, type JsonRpcResponse } from "../protocol/jsonrpc.ts";
import { isLogLevel } from "../protocol/types.ts";
import { jsonReply, type Reply } from "../reply.ts";
import { RequestContext } from "../request-context.ts";
import type { Services } from "../services.ts";
import { ResponseChannel } from "../stream/channel.ts";
import type { SessionData } from "../stores/types.ts";
import { instrument } from "../hooks.ts";
import { LegacyInputBroker } from "./broker.ts";
import { idKey } from "./live.ts";
import { requestVersion } from "./session-check.ts";

const brokers = new WeakMap<Services, LegacyInputBroker>();

function sessionHeaders(session: SessionData | undefined): Record<string, string> {
  return session ? { "mcp-session-id": session.id } : {};
}

function acceptsEventStream(inbound: Inbound): boolean {
  const accept = inbound.header("accept");
  return accept === null || accept.includes("text/event-stream") || accept.includes("*/*");
}

/** Methods that exist only on legacy sessions; undefined when the method is not one of them. */
async function serveSessionMethod(
  services: Services,
  event: H3Event,
  session: SessionData | undefined,
  message: JsonRpcRequest,
): Promise<JsonRpcResponse | undefined> {
  const params: JsonObject = message.params ?? {};
  switch (message.method) {
    case "ping":
      return success(message.id, {});
    case "logging/setLevel": {
      if (!services.options.logging) return undefined;
      if (!isLogLevel(params.level)) {
        return failure(
          message.id,
          ErrorCode.InvalidParams,
          `Invalid params: unknown log level ${JSON.stringify(params.level)}`,
        );
      }
      if (session && services.sessions) {
        session.logLevel = params.level;
        await services.sessions.store.set(session);
      }
      await services.onLogLevelSet?.(params.level, event);
      return success(message.id, {});
    }
    case "resources/subscribe":
    case "resources/unsubscribe": {
      if (!services.capabilities.resources) return undefined;
      if (typeof params.uri !== "string") {
        return failure(message.id, ErrorCode.InvalidParams, 'Invalid params: "uri" must be a string');
      }
      if (session && services.sessions) {
        const others = session.subscriptions.filter((uri) => uri !== params.uri);
        session.subscriptions = message.method === "resources/subscribe" ? [...others, params.uri] : others;
        await services.sessions.store.set(session);
      }
      return success(message.id, {});
    }
    default:
      return undefined;
  }
}

/**
 * Serves one request. With `streaming`, the answer upgrades to SSE when the handler emits
 * something; in a batch it is always JSON.
 */
export async function serveRequest(
  services: Services,
  inbound: Inbound,
  event: H3Event,
  session: SessionData | undefined,
  message: JsonRpcRequest,
  streaming: boolean,
): Promise<Reply> {
  const headers = sessionHeaders(session);
  const sessionAnswer = await serveSessionMethod(services, event, session, message);
  if (sessionAnswer) return jsonReply(200, sessionAnswer, headers);

  const sessions = services.sessions;
  const streamId = crypto.randomUUID();
  const live = session && sessions ? sessions.live.ensure(session.id) : undefined;
  const channel = new ResponseChannel({
    inbound,
    keepAliveMs: services.options.keepAliveMs,
    canStream: streaming && acceptsEventStream(inbound),
    headers,
    log: session && sessions && streaming ? sessions.streamLog(session, streamId) : undefined,
    onDone: () => {
      if (!live || !session || !sessions) return;
      live.streams.delete(streamId);
      sessions.live.release(session.id);
    },
  });
  let broker = brokers.get(services);
  if (!broker) brokers.set(services, (broker = new LegacyInputBroker(sessions)));
  const found = services.catalogs.get(event);
  const catalog = found instanceof Promise ? await found : found;
  const context = new RequestContext({
    era: "legacy",
    protocolVersion: requestVersion(session, inbound),
    requestId: message.id,
    method: message.method,
    params: message.params ?? {},
    meta: (message.params?._meta ?? undefined) as JsonObject | undefined,
    options: services.options,
    sessionId: session?.id,
    clientInfo: session?.clientInfo,
    clientCapabilities: session?.clientCapabilities,
    logLevel: session?.logLevel,
    principal: session?.principal,
    channel,
    catalog,
    event,
    broker,
    publisher: services.notifier,
    // Without a resumable stream a disconnect loses the answer, so it cancels the work.
    cancelOnDisconnect: !live,
    lifespan: services.lifespan.value,
  });
  if (live) {
    live.inflight.set(idKey(message.id), context);
    live.streams.set(streamId, channel);
  }
  const hooksDone = services.hooks && instrument(services.hooks, context);
  const done = (response: JsonRpcResponse | undefined): void => {
    hooksDone?.(response);
    void channel.finish(response);
    if (!live || !session || !sessions) return;
    if (live.inflight.get(idKey(message.id)) === context) live.inflight.delete(idKey(message.id));
    sessions.live.release(session.id);
  };
  const work = runRequest(services.table, context, message);
  if (work instanceof Promise) void work.then(done, () => done(undefined));
  else done(work);
  return channel.reply;
}
