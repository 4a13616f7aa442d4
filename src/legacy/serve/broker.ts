/**
 * Input requests on a legacy session: `elicitation/create`, `sampling/createMessage` and
 * `roots/list` go to the client as real JSON-RPC requests on the stream of the call, and the
 * call waits for the answer the client POSTs back.
 */
import {
  channelOf,
  countInputRound,
  initOf,
  lastProgressOf,
  type InputBroker,
  type RequestContext,
} from "../../context/request-context.ts";
import { INTERNAL_ERROR, INVALID_REQUEST, REQUEST_TIMEOUT, McpError } from "../../protocol/errors.ts";
import { notification, type JsonObject, type JsonRpcResponse } from "../../protocol/jsonrpc.ts";
import type { Incidents } from "../../http/incidents.ts";
import type { LegacySessions } from "../state/sessions.ts";
import { answererOf, type Answerer } from "../../auth/answerer.ts";

/** The instance part of the server→client request ids an instance mints (`srv-<prefix>-<uuid>`). */
function idPrefixOf(sessions: LegacySessions): string {
  return sessions.instance.slice(0, 8);
}

/**
 * While the client answers, a call with a progress token sends progress heartbeats, so clients that
 * reset their request timeout on progress keep waiting. Progress must increase, so each heartbeat
 * adds a little to the last value sent.
 */
function startHeartbeat(context: RequestContext, incidents: Incidents): ReturnType<typeof setInterval> | undefined {
  const every = context.options.progressHeartbeatMs;
  if (context.progressToken === undefined || !(every > 0)) return undefined;
  const timer = setInterval(() => {
    // The channel reports its own failures; owned all the same, so no rejection can go unhandled.
    incidents.own(
      context.progress((lastProgressOf(context) ?? 0) + 0.001, undefined, "Waiting for the client's answer"),
    );
  }, every);
  (timer as { unref?: () => void }).unref?.();
  return timer;
}

export class LegacyInputBroker implements InputBroker {
  #sessions: LegacySessions | undefined;
  /**
   * The prefix of this instance's server→client request ids, which keeps them apart across
   * instances and tells which instance waits for an answer. Drawn on first use, not at import:
   * Workers refuse random values at global scope, and on Node the first random value loads the
   * crypto module (about 3.5 ms of the library's import time, issue 11's import_ms).
   */
  #idPrefix: string | undefined;

  constructor(sessions: LegacySessions | undefined) {
    this.#sessions = sessions;
  }

  async request(
    context: RequestContext,
    _key: string,
    method: string,
    params: JsonObject,
    timeoutMs: number,
  ): Promise<unknown> {
    const sessionId = context.sessionId;
    if (!this.#sessions || sessionId === undefined) {
      throw new McpError(INVALID_REQUEST, `${method} needs a legacy session; this server runs without sessions`);
    }
    if (!channelOf(context).canSend) {
      throw new McpError(
        INVALID_REQUEST,
        `${method} needs a stream to the client; send Accept: text/event-stream with the request`,
      );
    }
    const max = context.options.maxInputRounds;
    if (countInputRound(context) > max) {
      throw new McpError(
        INTERNAL_ERROR,
        `${context.method} asked for input more than ${max} times (maxInputRounds); giving up`,
      );
    }
    // A call already cancelled asks nothing: its abort listener below would never fire.
    if (context.signal.aborted) throw context.signal.reason;
    // The answer may be POSTed to another instance, which sends it here over the bus.
    const sessions = this.#sessions;
    await sessions.routing?.start().catch(() => {});
    const live = this.#sessions.live.ensure(sessionId);
    this.#idPrefix ??= `srv-${idPrefixOf(this.#sessions)}-`;
    // Unguessable (a random UUID, not a counter): the id is what a POSTed answer names, and another
    // client of the session's principal must not be able to aim an answer at it blind.
    const id = `${this.#idPrefix}${crypto.randomUUID()}`;
    const init = initOf(context);
    const asker: Answerer | undefined = answererOf(init.principal, init.caller?.identity.scopes);
    const answer = new Promise<unknown>((resolve, reject) => {
      const timer = setTimeout(() => {
        const reason = `${method} timed out after ${timeoutMs} ms`;
        // Tell the client to stop asking its user or model: the answer would come too late.
        sessions.incidents.own(
          channelOf(context).send(notification("notifications/cancelled", { requestId: id, reason })),
        );
        finish(() => reject(new McpError(REQUEST_TIMEOUT, reason)));
      }, timeoutMs);
      const onAbort = (): void => finish(() => reject(context.signal.reason));
      const finish = (settle: () => void): void => {
        clearTimeout(timer);
        context.signal.removeEventListener("abort", onAbort);
        live.pending.delete(id);
        settle();
      };
      context.signal.addEventListener("abort", onAbort, { once: true });
      live.pending.set(id, {
        asker,
        resolve: (result) => finish(() => resolve(result)),
        reject: (error) => finish(() => reject(error)),
      });
    });
    // The waiting entry goes on every path: answered, timed out, cancelled, or the session ended.
    await channelOf(context).send({ jsonrpc: "2.0", id, method, params });
    const heartbeat = startHeartbeat(context, sessions.incidents);
    try {
      return await answer;
    } finally {
      if (heartbeat !== undefined) clearInterval(heartbeat);
      this.#sessions.live.release(sessionId);
    }
  }
}

/**
 * Delivers a POSTed response to the request waiting for it: here, or — when another instance
 * minted the id — on the instances of the session, over the bus (the one waiting takes it, if
 * `responder` may answer it). False when this instance minted the id and no longer waits for it
 * (late, duplicate) or `responder` may not answer it, and for ids of no known shape (forged). The
 * caller checked that the session is the client's.
 */
export async function deliverResponse(
  sessions: LegacySessions,
  sessionId: string,
  response: JsonRpcResponse,
  responder: Answerer | undefined,
): Promise<boolean> {
  if (sessions.live.answer(sessionId, response, responder)) return true;
  return sessions.routing ? sessions.routing.deliverResponse(sessionId, response, responder) : false;
}
