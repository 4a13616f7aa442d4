/** One legacy request: session-level methods here, everything else through the shared method table. */
import type { H3Event } from "h3";
import { errorResponse, runRequest } from "../../dispatch/run.ts";
import { acceptsEventStream, type Inbound } from "../../http/inbound.ts";
import type { JsonObject, JsonRpcRequest, JsonRpcResponse } from "../../protocol/jsonrpc.ts";
import { NO_HEADERS, Reply, jsonReply } from "../../http/reply.ts";
import { RequestContext, abortRequest, channelOf, hasChannel } from "../../context/request-context.ts";
import type { LegacyServices } from "../services.ts";
import { ResponseChannel } from "../../stream/channel.ts";
import type { SessionData } from "../../types/stores.ts";
import { instrument } from "../../request/hooks.ts";
import { idKey, type LiveSession } from "../state/live.ts";
import { SESSION_METHODS, serveSessionMethod } from "./session-methods.ts";
import { requestVersion } from "./session-check.ts";
import type { Caller } from "../../auth/gate.ts";
import { scopeDenial } from "../../auth/definition-scopes.ts";

function sessionHeaders(session: SessionData | undefined): Readonly<Record<string, string>> {
  return session ? { "mcp-session-id": session.id } : NO_HEADERS;
}

/**
 * Serves one request. With `streaming`, the answer upgrades to SSE when the handler emits
 * something; in a batch it is always JSON.
 */
export async function serveRequest(
  services: LegacyServices,
  inbound: Inbound,
  event: H3Event,
  session: SessionData | undefined,
  message: JsonRpcRequest,
  streaming: boolean,
  caller: Caller | undefined,
): Promise<Reply> {
  const headers = sessionHeaders(session);
  try {
    if (SESSION_METHODS.has(message.method)) {
      const sessionAnswer = await serveSessionMethod(services, event, session, message, caller);
      if (sessionAnswer instanceof Reply) return sessionAnswer;
      if (sessionAnswer) return jsonReply(200, sessionAnswer, headers);
    }

    // Session state of this process (`live`) is entered only when something must be found later: a
    // pending call (for cancellation) or a stream with an id (for resumption). A synchronous call that
    // streams nothing touches neither, and gets no response stream at all.
    const sessions = session ? services.sessions : undefined;
    let live: LiveSession | undefined;
    const enterLive = (): LiveSession => (live ??= sessions!.live.ensure(session!.id));
    const leaveLive = (): void => {
      if (live) sessions!.live.release(session!.id);
    };
    let channel: ResponseChannel | undefined;
    const openChannel = (): ResponseChannel => {
      if (channel) return channel;
      // The stream gets its id, and is registered for resumption, with its first event.
      const log =
        sessions && streaming
          ? sessions.postStreamLog(session!, (streamId) => enterLive().streams.set(streamId, channel!))
          : undefined;
      return (channel = new ResponseChannel({
        inbound,
        keepAliveMs: services.options.keepAliveMs,
        canStream: streaming && acceptsEventStream(inbound),
        headers,
        log,
        // Without a log a disconnect loses the answer, so the stream closing cancels the call.
        owner: log ? undefined : { abort: (reason) => abortRequest(context!, reason) },
        maxBufferBytes: services.options.maxStreamBufferBytes,
        incidents: services.incidents,
        // The token expiring closes the connection: the call goes on, resumable with a fresh token.
        expiresAtMs: caller?.expiresAtMs,
        onDone: () => {
          if (log?.streamId !== undefined) live?.streams.delete(log.streamId);
          leaveLive();
        },
      }));
    };
    const found = services.catalogs.get(event, caller?.identity.scopes);
    const catalog = found instanceof Promise ? await found : found;
    if (caller && catalog.hasScopes) {
      const denied = scopeDenial(services.auth!, caller, catalog, message.method, message.params ?? {});
      if (denied) return denied;
    }
    const context = new RequestContext({
      era: "legacy",
      protocolVersion: requestVersion(session, inbound),
      requestId: message.id,
      method: message.method,
      params: message.params ?? {},
      meta: (message.params?._meta ?? undefined) as JsonObject | undefined,
      options: services.options,
      sessionId: session?.id,
      lastEventId: inbound.header("last-event-id") || undefined,
      clientInfo: session?.clientInfo,
      clientCapabilities: session?.clientCapabilities,
      logLevel: session?.logLevel,
      caller,
      principal: caller?.principal,
      openChannel,
      catalog,
      event,
      broker: services.legacyBroker,
      publisher: services.notifier,
      // Without a resumable stream a disconnect loses the answer, so it cancels the work.
      cancelOnDisconnect: !sessions,
      lifespan: services.lifespan.value,
    });
    const hooksDone = services.hooks && instrument(services.hooks, context);
    const work = runRequest(services.table, context, message);
    if (!(work instanceof Promise)) {
      hooksDone?.(work);
      // A synchronous handler that streamed nothing is answered as plain JSON, with no stream at all.
      if (work && !hasChannel(context)) return jsonReply(200, work, headers);
      services.incidents.own(channelOf(context).finish(work));
      leaveLive();
    } else {
      // A pending call can be cancelled by id from now on.
      const key = idKey(message.id);
      if (sessions) enterLive().inflight.set(key, context);
      const done = (response: JsonRpcResponse | undefined): void => {
        hooksDone?.(response);
        services.incidents.own(channelOf(context).finish(response));
        if (live?.inflight.get(key) === context) live.inflight.delete(key);
        leaveLive();
      };
      services.incidents.own(work.then(done, () => done(undefined)));
    }
    // A pending call's stream opens now, for keep-alives and progress.
    const reply = channelOf(context).reply;
    // Awaited only when pending: resolving an async function with a promise costs extra turns.
    return reply instanceof Promise ? await reply : reply;
  } catch (error) {
    // A failing store or catalog function is this request's error, never a rejection of the host's handler.
    return jsonReply(200, errorResponse(message, error), headers);
  }
}
