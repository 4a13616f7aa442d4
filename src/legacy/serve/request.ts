/**
 * One legacy request: the session-level methods here, everything else on the shared sequence
 * (request/sequence.ts) with the legacy wire: the session's facts, a response stream kept in the
 * session's resumable log, and a pending call registered for `notifications/cancelled`.
 */
import { abortRequest, channelOf, type RequestContext } from "../../context/request-context.ts";
import type { WireFacts } from "../../context/fields.ts";
import { errorResponse, runRequest } from "../../dispatch/run.ts";
import { acceptsEventStream } from "../../http/inbound.ts";
import { NO_HEADERS, Reply, jsonReply } from "../../http/reply.ts";
import type { JsonObject, JsonRpcResponse } from "../../protocol/jsonrpc.ts";
import { LaneCall, type LaneRequest, type Work } from "../../request/lane-call.ts";
import { enterContext, serveSequence } from "../../request/sequence.ts";
import { ResponseChannel } from "../../stream/channel.ts";
import type { SessionData } from "../../types/stores.ts";
import type { LegacyInputBroker } from "./broker.ts";
import type { LegacyServices } from "../services.ts";
import { idKey, type LiveSession } from "../state/live.ts";
import { sessionHeaders } from "../state/session-headers.ts";
import type { LegacySessions } from "../state/sessions.ts";
import { SESSION_METHODS, serveSessionMethod } from "./session-methods.ts";
import { requestVersion } from "./session-check.ts";

/** One legacy request as the POST handler hands it over. */
export interface LegacyRequest extends LaneRequest<LegacyServices> {
  /** The request's session; none when sessions are off. */
  session: SessionData | undefined;
  /** Whether the answer may upgrade to SSE when the handler emits something (never in a batch). */
  streaming: boolean;
}

/**
 * Serves one request. Synchronous on the common path, as the modern lane's (see `serveSequence`):
 * a session's call to a static catalog's synchronous handler costs no promise of its own here.
 */
export function serveRequest(request: LegacyRequest): Reply | Promise<Reply> {
  const call = new LegacyCall(request);
  if (SESSION_METHODS.has(call.message.method)) return sessionMethodFirst(call);
  return serveSequence(call);
}

/** `ping`, `logging/setLevel`, `resources/(un)subscribe`: answered here unless the method table serves them. */
async function sessionMethodFirst(call: LegacyCall): Promise<Reply> {
  try {
    // `resources/subscribe` asks `enabled` of the resource, which may read the request's context.
    enterContext(call);
    const answer = await serveSessionMethod(call.services, call.event, call.session, call.message, call.caller);
    if (answer instanceof Reply) return answer;
    if (answer) return jsonReply(200, answer, call.headers);
  } catch (error) {
    // A failing store is this request's error, never a rejection of the host's handler.
    return jsonReply(200, errorResponse(call.message, error), call.headers);
  }
  return serveSequence(call);
}

class LegacyCall extends LaneCall<LegacyServices> {
  readonly session: SessionData | undefined;
  readonly streaming: boolean;
  readonly headers: Readonly<Record<string, string>>;
  /** The sessions, when the request has one (its stream can then be resumed, its call cancelled by id). */
  readonly sessions: LegacySessions | undefined;
  /**
   * The session's state in this process, entered only when something must be found later: a
   * pending call (for cancellation) or a stream with an id (for resumption). A synchronous call
   * that streams nothing touches neither, and gets no response stream at all.
   */
  #live: LiveSession | undefined = undefined;

  constructor(request: LegacyRequest) {
    super(request);
    this.session = request.session;
    this.streaming = request.streaming;
    this.headers = request.session ? sessionHeaders(request.session.id) : NO_HEADERS;
    this.sessions = request.session ? request.services.sessions : undefined;
  }

  get broker(): LegacyInputBroker {
    return this.services.legacyBroker;
  }

  /** Without a resumable stream a disconnect loses the answer, so it cancels the work. */
  get cancelOnDisconnect(): boolean {
    return !this.sessions;
  }

  check(): undefined {
    return undefined;
  }

  facts(): WireFacts {
    const { session, params } = this;
    return {
      era: "legacy",
      protocolVersion: requestVersion(session, this.inbound),
      meta: (params._meta ?? undefined) as JsonObject | undefined,
      clientInfo: session?.clientInfo,
      clientCapabilities: session?.clientCapabilities,
      logLevel: session?.logLevel,
      sessionId: session?.id,
      lastEventId: this.inbound.header("last-event-id") || undefined,
    };
  }

  protected buildChannel(context: RequestContext): ResponseChannel {
    const { services, sessions, session, streaming } = this;
    // The stream gets its id, and is registered for resumption, with its first event.
    const log =
      sessions && streaming
        ? sessions.postStreamLog(session!, (streamId) => this.#enterLive().streams.set(streamId, channelOf(context)))
        : undefined;
    return new ResponseChannel({
      inbound: this.inbound,
      keepAliveMs: services.options.keepAliveMs,
      canStream: streaming && acceptsEventStream(this.inbound),
      headers: this.headers,
      log,
      // Without a log a disconnect loses the answer, so the stream closing cancels the call.
      owner: log ? undefined : { abort: (reason) => abortRequest(context, reason) },
      maxBufferBytes: services.options.maxStreamBufferBytes,
      incidents: services.incidents,
      // The token expiring closes the connection: the call goes on, resumable with a fresh token.
      expiresAtMs: this.caller?.expiresAtMs,
      onDone: () => {
        if (log?.streamId !== undefined) this.#live?.streams.delete(log.streamId);
        this.#leaveLive();
      },
    });
  }

  run(context: RequestContext): Work {
    return runRequest(this.services.tables.legacy, context, this.message);
  }

  answer(_context: RequestContext, response: JsonRpcResponse): JsonRpcResponse {
    return response;
  }

  status(): number {
    return 200;
  }

  /** A pending call can be cancelled by id until its outcome is in. */
  outcome(context: RequestContext, work: Promise<JsonRpcResponse | undefined>): Promise<JsonRpcResponse | undefined> {
    if (this.sessions) this.#enterLive().inflight.set(idKey(this.message.id), context);
    return work;
  }

  release(context: RequestContext): void {
    const live = this.#live;
    if (!live) return;
    const key = idKey(this.message.id);
    if (live.inflight.get(key) === context) live.inflight.delete(key);
    this.#leaveLive();
  }

  #enterLive(): LiveSession {
    return (this.#live ??= this.sessions!.live.ensure(this.session!.id));
  }

  #leaveLive(): void {
    if (this.#live) this.sessions!.live.release(this.session!.id);
  }
}
