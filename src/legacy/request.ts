/** One legacy request: session-level methods here, everything else through the shared method table. */
import type { H3Event } from "h3";
import { runRequest } from "../dispatch/run.ts";
import { acceptsEventStream, type Inbound } from "../inbound.ts";
import type { JsonObject, JsonRpcRequest, JsonRpcResponse } from "../protocol/jsonrpc.ts";
import { jsonReply, type Reply } from "../reply.ts";
import { RequestContext } from "../request-context.ts";
import type { Services } from "../services.ts";
import { ResponseChannel } from "../stream/channel.ts";
import type { SessionData } from "../stores/types.ts";
import { instrument } from "../hooks.ts";
import { idKey } from "./live.ts";
import { SESSION_METHODS, serveSessionMethod } from "./session-methods.ts";
import { requestVersion } from "./session-check.ts";

function sessionHeaders(session: SessionData | undefined): Record<string, string> {
  return session ? { "mcp-session-id": session.id } : {};
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
  if (SESSION_METHODS.has(message.method)) {
    const sessionAnswer = await serveSessionMethod(services, event, session, message);
    if (sessionAnswer) return jsonReply(200, sessionAnswer, headers);
  }

  const sessions = services.sessions;
  const live = session && sessions ? sessions.live.ensure(session.id) : undefined;
  // The stream gets its id, and is registered for resumption, with its first event: a plain JSON
  // answer (most calls) needs neither.
  const log =
    session && sessions && live && streaming
      ? sessions.postStreamLog(session, (streamId) => live.streams.set(streamId, channel))
      : undefined;
  const channel: ResponseChannel = new ResponseChannel({
    inbound,
    keepAliveMs: services.options.keepAliveMs,
    canStream: streaming && acceptsEventStream(inbound),
    headers,
    log,
    onDone: () => {
      if (!live || !session || !sessions) return;
      if (log?.streamId !== undefined) live.streams.delete(log.streamId);
      sessions.live.release(session.id);
    },
  });
  const broker = services.legacyBroker;
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
    openChannel: () => channel,
    catalog,
    event,
    broker,
    publisher: services.notifier,
    // Without a resumable stream a disconnect loses the answer, so it cancels the work.
    cancelOnDisconnect: !live,
    lifespan: services.lifespan.value,
  });
  if (live) live.inflight.set(idKey(message.id), context);
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
  const reply = channel.reply;
  // Awaited only when pending: resolving an async function with a promise costs extra turns.
  return reply instanceof Promise ? await reply : reply;
}
