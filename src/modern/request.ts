/**
 * One modern request on the shared sequence (request/sequence.ts): the checks of its wire
 * (`Mcp-Param-*` headers, `inputResponses`, a retry's `requestState`), a stream that a disconnect
 * cancels, and a pending call settled with its MRTR round (settle.ts).
 */
import { abortRequest, resumeProgress, type RequestContext } from "../context/request-context.ts";
import type { WireFacts } from "../context/fields.ts";
import type { Catalog } from "../define/catalog.ts";
import { runRequest } from "../dispatch/run.ts";
import { acceptsEventStream } from "../http/inbound.ts";
import { NO_HEADERS, jsonReply, type Reply } from "../http/reply.ts";
import { INVALID_PARAMS } from "../protocol/errors.ts";
import {
  failure,
  isObject,
  success,
  type JsonObject,
  type JsonRpcRequest,
  type JsonRpcResponse,
} from "../protocol/jsonrpc.ts";
import { describeMethod } from "../protocol/methods.ts";
import { LaneCall, type LaneRequest, type Work } from "../request/lane-call.ts";
import { enterContext, serveSequence } from "../request/sequence.ts";
import { ResponseChannel } from "../stream/channel.ts";
import { discover } from "./discover.ts";
import type { Envelope } from "./envelope.ts";
import { checkParamHeaders } from "./headers.ts";
import { refuse } from "../http/refusal.ts";
import { InputRound, checkInputResponses } from "./mrtr/mrtr.ts";
import { requestBinding } from "./mrtr/request-binding.ts";
import type { StatePayload } from "./mrtr/request-state.ts";
import type { ModernServices } from "./services.ts";
import { decorate, outcomeOf, statusOf, type ModernRound } from "./settle.ts";

/** One modern request as the lane hands it over. */
export interface ModernRequest extends LaneRequest<ModernServices> {
  envelope: Envelope;
}

/**
 * Serves a modern request. Synchronous on the common path (a static catalog, no state to open, a
 * synchronous handler): see `serveSequence` for the figure that pays for it.
 */
export function serveModernRequest(request: ModernRequest): Reply | Promise<Reply> {
  return serveSequence(new ModernCall(request));
}

/**
 * Makes the request's context `event.context.mcp` without serving it through the sequence: for
 * `subscriptions/listen`, whose resource subscriptions and sources ask the definitions' `enabled`.
 */
export function enterModernContext(request: ModernRequest): void {
  enterContext(new ModernCall(request));
}

/** The one answer of a `requestState` that does not open: tampered, expired, foreign or malformed alike. */
function invalidState(message: JsonRpcRequest): Reply {
  const data = { reason: "invalid_request_state" };
  return jsonReply(200, failure(message.id, INVALID_PARAMS, "Invalid or expired requestState", data));
}

class ModernCall extends LaneCall<ModernServices> implements ModernRound {
  readonly envelope: Envelope;
  /** This call's input round (set by `check`, with every answer known by then). */
  round!: InputRound;
  /** What an MRTR retry's state held: the handler's state, the rounds before this one; and the request's binding. */
  state: unknown = undefined;
  binding: string | undefined = undefined;
  rounds = 0;
  /** The last progress earlier rounds sent, with its token. */
  progress: StatePayload["progress"] = undefined;
  /** Every answer known so far (earlier rounds' and this one's), carried into the next state. */
  answers: JsonObject | undefined = undefined;

  constructor(request: ModernRequest) {
    super(request);
    this.envelope = request.envelope;
  }

  get headers(): Readonly<Record<string, string>> {
    return NO_HEADERS;
  }

  get broker(): InputRound {
    return this.round;
  }

  /** Modern: closing the response stream is the cancellation. */
  get cancelOnDisconnect(): boolean {
    return true;
  }

  /** The checks that need the catalog: `Mcp-Param-*` headers, the shape of `inputResponses`, the state. */
  check(catalog: Catalog): Reply | undefined | Promise<Reply | undefined> {
    const { message, params } = this;
    if (message.method === "tools/call" && typeof params.name === "string") {
      const tool = catalog.tools.get(params.name);
      if (tool && tool.headerParams.length > 0) {
        const args = isObject(params.arguments) ? params.arguments : {};
        const problem = checkParamHeaders(this.inbound, tool.headerParams, args);
        if (problem) return refuse(message.id, problem);
      }
    }
    if (describeMethod(message.method)?.inputRounds !== undefined) {
      const malformed = checkInputResponses(params.inputResponses);
      if (malformed) return jsonReply(200, failure(message.id, malformed.code, malformed.message));
      this.answers = params.inputResponses as JsonObject | undefined;
      if (params.requestState !== undefined) return this.#openState();
    }
    this.round = new InputRound(this.answers);
    return undefined;
  }

  /** An MRTR retry: the state is opened before the handler runs. */
  async #openState(): Promise<Reply | undefined> {
    const { services, message, params } = this;
    // A token that is malformed or too long is refused before any hashing or decryption.
    const sealed = services.requestStates.unwrap(params.requestState);
    if (!sealed) return invalidState(message);
    const binding = requestBinding(message.method, params);
    // A state minted for one principal, or for another request, is worth nothing here.
    const payload = await services.requestStates.openSealed(sealed, this.caller?.principal, binding);
    if (!payload) return invalidState(message);
    // Answers of earlier rounds travel in the sealed state, so a handler that asks one question after
    // another works as it does on a legacy session; this round's answers win over older ones.
    if (payload.answers) this.answers = { ...payload.answers, ...this.answers };
    this.state = payload.state;
    this.binding = binding;
    this.rounds = payload.rounds;
    this.progress = payload.progress;
    this.round = new InputRound(this.answers);
    return undefined;
  }

  facts(): WireFacts {
    const { envelope, params } = this;
    return {
      era: "modern",
      protocolVersion: envelope.protocolVersion,
      meta: envelope.meta,
      clientInfo: envelope.clientInfo,
      clientCapabilities: envelope.clientCapabilities,
      logLevel: envelope.logLevel,
      trace: envelope.trace,
      inputResponses:
        describeMethod(this.message.method)?.inputRounds !== undefined
          ? (params.inputResponses as JsonObject | undefined)
          : undefined,
      requestState: typeof params.requestState === "string" ? params.requestState : undefined,
    };
  }

  /** The handler's state, as the retry's `requestState` held it (opened by `check`). */
  override adopt(context: RequestContext): void {
    context.state = this.state;
    // The handler runs again from its start: its progress goes on from where the earlier rounds left it.
    if (typeof this.progress === "number") resumeProgress(context, this.progress);
  }

  protected buildChannel(context: RequestContext): ResponseChannel {
    const { services } = this;
    return new ResponseChannel({
      inbound: this.inbound,
      keepAliveMs: services.options.keepAliveMs,
      canStream: acceptsEventStream(this.inbound),
      headers: NO_HEADERS,
      // Modern: the stream closing (the client gone, or not reading) cancels the call.
      owner: { abort: (reason) => abortRequest(context, reason) },
      maxBufferBytes: services.options.maxStreamBufferBytes,
      incidents: services.incidents,
      // The token expiring closes the stream as a disconnect would: the call is cancelled.
      expiresAtMs: this.caller?.expiresAtMs,
    });
  }

  run(context: RequestContext): Work {
    const { message } = this;
    if (message.method === "server/discover") return success(message.id, discover(this.services));
    return runRequest(this.services.tables.modern, context, message);
  }

  answer(context: RequestContext, response: JsonRpcResponse): JsonRpcResponse {
    return decorate(this.services, context, response);
  }

  status(response: JsonRpcResponse): number {
    return statusOf(response);
  }

  outcome(context: RequestContext, work: Promise<JsonRpcResponse | undefined>): Promise<JsonRpcResponse | undefined> {
    return outcomeOf(this, context, work);
  }

  release(): void {}
}
