/** One modern request: headers of the tool, MRTR state, the handler run, the decorated result. */
import type { H3Event } from "h3";
import { errorResponse, runRequest } from "../dispatch/run.ts";
import type { Catalog } from "../dispatch/catalog.ts";
import { acceptsEventStream, type Inbound } from "../inbound.ts";
import { INTERNAL_ERROR, INVALID_PARAMS, MISSING_REQUIRED_CLIENT_CAPABILITY } from "../protocol/errors.ts";
import {
  failure,
  isObject,
  success,
  type JsonObject,
  type JsonRpcRequest,
  type JsonRpcResponse,
} from "../protocol/jsonrpc.ts";
import { NO_HEADERS, jsonReply, jsonTextReply, type Reply } from "../reply.ts";
import { RequestContext, abortRequest, channelOf, hasChannel } from "../request-context.ts";
import type { Services } from "../services.ts";
import { ResponseChannel } from "../stream/channel.ts";
import { instrument } from "../hooks.ts";
import { discover } from "./discover.ts";
import type { Envelope } from "./envelope.ts";
import { checkParamHeaders } from "./headers.ts";
import { INPUT_CAPABLE_METHODS, InputRound, checkInputResponses } from "./mrtr.ts";
import { requestDigest } from "./request-state.ts";
import { CACHEABLE_METHODS, resolveCacheHints, stampResult, stampedSuccessJson } from "./stamp.ts";

/** The per-definition cache hint of a `resources/read`. */
function definitionHints(catalog: Catalog, method: string, params: JsonObject): JsonObject | undefined {
  if (method !== "resources/read" || typeof params.uri !== "string") return undefined;
  const resource = catalog.resources.get(params.uri) ?? catalog.matchTemplate(params.uri)?.template;
  return resource?.cacheHints as JsonObject | undefined;
}

function decorate(
  services: Services,
  context: RequestContext,
  catalog: Catalog,
  method: string,
  params: JsonObject,
  response: JsonRpcResponse,
): JsonRpcResponse {
  if (!("result" in response)) return response;
  const hints = CACHEABLE_METHODS.has(method)
    ? resolveCacheHints(
        context.cacheHints,
        definitionHints(catalog, method, params),
        services.options.cacheHints[method],
      )
    : undefined;
  // The response is this call's own (just built by the dispatcher), so its result is swapped in place.
  response.result = stampResult(response.result, services.options.serverInfo, hints);
  return response;
}

/** One modern request as the lane hands it over. */
interface ModernRequest {
  services: Services;
  inbound: Inbound;
  event: H3Event;
  message: JsonRpcRequest;
  envelope: Envelope;
  params: JsonObject;
}

/** What a call starts from: its catalog and, on an MRTR retry, the verified state. */
interface Start {
  catalog: Catalog;
  state: unknown;
  digest: string | undefined;
  rounds: number;
  answers: JsonObject | undefined;
}

/**
 * Serves a modern request. Synchronous on the common path (a static catalog, no state to verify,
 * a synchronous handler), so a simple call costs no promise of its own.
 */
export function serveModernRequest(
  services: Services,
  inbound: Inbound,
  event: H3Event,
  message: JsonRpcRequest,
  envelope: Envelope,
): Reply | Promise<Reply> {
  const request: ModernRequest = { services, inbound, event, message, envelope, params: message.params ?? {} };
  // Whatever fails before the handler's outcome is in (a catalog function, the state check, the
  // stamping) is this request's own error: answered as a JSON-RPC error, never a rejection.
  try {
    const found = services.catalogs.get(event);
    if (!(found instanceof Promise)) return check(request, found);
    return found.then((catalog) => check(request, catalog)).catch((error: unknown) => failed(message, error));
  } catch (error) {
    return failed(message, error);
  }
}

/** The answer of a request that failed inside the engine: its JSON-RPC error (-32603 unless an `McpError`). */
function failed(message: JsonRpcRequest, error: unknown): Reply {
  return jsonReply(200, errorResponse(message, error));
}

/** The checks that need the catalog: `Mcp-Param-*` headers, the shape of `inputResponses`, the state. */
function check(request: ModernRequest, catalog: Catalog): Reply | Promise<Reply> {
  const { message, params, inbound } = request;
  if (message.method === "tools/call" && typeof params.name === "string") {
    const tool = catalog.tools.get(params.name);
    if (tool && tool.headerParams.length > 0) {
      const args = isObject(params.arguments) ? params.arguments : {};
      const problem = checkParamHeaders(inbound, message.id, tool.headerParams, args);
      if (problem) return problem;
    }
  }
  let answers: JsonObject | undefined;
  if (INPUT_CAPABLE_METHODS.has(message.method)) {
    const malformed = checkInputResponses(params.inputResponses);
    if (malformed) return jsonReply(200, failure(message.id, malformed.code, malformed.message));
    answers = params.inputResponses as JsonObject | undefined;
    if (params.requestState !== undefined) return verifyThenStart(request, catalog, answers);
  }
  return start(request, { catalog, state: undefined, digest: undefined, rounds: 0, answers });
}

/** An MRTR retry: the state is verified before the handler runs. */
async function verifyThenStart(
  request: ModernRequest,
  catalog: Catalog,
  answers: JsonObject | undefined,
): Promise<Reply> {
  const { services, message, params } = request;
  let digest: string;
  let payload: Awaited<ReturnType<typeof services.requestStates.verify>>;
  try {
    digest = await requestDigest(message.method, params);
    payload = await services.requestStates.verify(params.requestState, null, digest);
  } catch (error) {
    return failed(message, error);
  }
  if (!payload) {
    return jsonReply(
      200,
      failure(message.id, INVALID_PARAMS, "Invalid or expired requestState", {
        reason: "invalid_request_state",
      }),
    );
  }
  // Answers of earlier rounds travel in the signed state, so a handler that asks one question after
  // another works as it does on a legacy session; this round's answers win over older ones.
  const known = payload.answers ? { ...payload.answers, ...answers } : answers;
  const reply = start(request, { catalog, state: payload.state, digest, rounds: payload.rounds, answers: known });
  return reply instanceof Promise ? await reply : reply;
}

/** Builds the call's stream and context, runs the handler, and answers. */
function start(request: ModernRequest, begin: Start): Reply | Promise<Reply> {
  const { services, inbound, event, message, envelope, params } = request;
  const { catalog, digest, rounds, answers } = begin;
  const method = message.method;
  const inputCapable = INPUT_CAPABLE_METHODS.has(method);
  const round = new InputRound(answers);
  const openChannel = (): ResponseChannel =>
    new ResponseChannel({
      inbound,
      keepAliveMs: services.options.keepAliveMs,
      canStream: acceptsEventStream(inbound),
      headers: NO_HEADERS,
      // Modern: the stream closing (the client gone, or not reading) cancels the call.
      owner: { abort: (reason) => abortRequest(context, reason) },
      maxBufferBytes: services.options.maxStreamBufferBytes,
      incidents: services.incidents,
    });
  const context = new RequestContext({
    era: "modern",
    protocolVersion: envelope.protocolVersion,
    requestId: message.id,
    method,
    params,
    meta: envelope.meta,
    options: services.options,
    clientInfo: envelope.clientInfo,
    clientCapabilities: envelope.clientCapabilities,
    logLevel: envelope.logLevel,
    trace: envelope.trace,
    inputResponses: inputCapable ? (params.inputResponses as JsonObject | undefined) : undefined,
    requestState: typeof params.requestState === "string" ? params.requestState : undefined,
    openChannel,
    catalog,
    event,
    broker: round,
    publisher: services.notifier,
    // Modern: closing the response stream is the cancellation.
    cancelOnDisconnect: true,
    lifespan: services.lifespan.value,
  });
  context.state = begin.state;

  // Hooks start before the handler does, so their timing covers all of it.
  const hooksDone = services.hooks && instrument(services.hooks, context);
  const work =
    method === "server/discover"
      ? success(message.id, discover(services))
      : runRequest(services.table, context, message);
  if (work instanceof Promise) {
    // A pending handler gets its stream now: keep-alives, progress, the race with input requests.
    const channel = channelOf(context);
    settleLater({ services, context, catalog, message, params, round, digest, rounds, answers, hooksDone }, work);
    return channel.reply;
  }
  // A synchronous handler that streamed nothing is answered as plain JSON, with no stream at all;
  // without hooks to hand the stamped response to, or cache hints to add, its text is written directly.
  if (work && !hooksDone && !hasChannel(context) && "result" in work && !CACHEABLE_METHODS.has(method)) {
    const text = stampedSuccessJson(work.id, work.result, services.stampTail);
    if (text !== undefined) return jsonTextReply(200, text);
  }
  const response = work && decorate(services, context, catalog, method, params, work);
  hooksDone?.(response);
  if (response && !hasChannel(context)) return jsonReply(statusOf(response), response);
  finishStream(context, response);
  return channelOf(context).reply;
}

/** One modern call in flight, as `settle` needs it. */
interface ModernCall {
  services: Services;
  context: RequestContext;
  catalog: Catalog;
  message: JsonRpcRequest;
  params: JsonObject;
  round: InputRound;
  /** Digest of the request, when its state was already verified. */
  digest: string | undefined;
  /** `input_required` rounds before this one. */
  rounds: number;
  /** Every answer known so far (earlier rounds' and this one's), carried into the next state. */
  answers: JsonObject | undefined;
  /** Ends the instrumentation hooks, when there are any. */
  hooksDone: ((response: JsonRpcResponse | undefined) => void) | undefined;
}

/** The answer when the handler needs input: the requests and a signed state, or an error past the round cap. */
async function inputRequired(call: ModernCall): Promise<JsonRpcResponse> {
  const { services, context, message, params, round } = call;
  const max = services.options.maxInputRounds;
  if (call.rounds >= max) {
    return failure(
      message.id,
      INTERNAL_ERROR,
      `${message.method} asked for input in more than ${max} rounds (maxInputRounds); giving up`,
    );
  }
  const requestState = await services.requestStates.sign({
    state: context.state,
    exp: Date.now() + services.requestStates.ttlMs,
    principal: null,
    digest: call.digest ?? (await requestDigest(message.method, params)),
    rounds: call.rounds + 1,
    answers: call.answers,
  });
  const result = { resultType: "input_required", inputRequests: round.requests, requestState };
  return success(message.id, stampResult(result, services.options.serverInfo, undefined));
}

/**
 * Answers a pending call once its outcome is in. The reply always settles: a failure on the way
 * (state that cannot be signed, a result that cannot be stamped) is answered as this request's
 * JSON-RPC error, and anything after that is owned by the incident counter.
 */
function settleLater(call: ModernCall, work: Promise<JsonRpcResponse | undefined>): void {
  const answer = (response: JsonRpcResponse | undefined): void => {
    call.hooksDone?.(response);
    finishStream(call.context, response);
  };
  call.services.incidents.own(
    outcomeOf(call, work).then(answer, (error: unknown) => answer(errorResponse(call.message, error))),
  );
}

function finishStream(context: RequestContext, response: JsonRpcResponse | undefined): void {
  // `finish` never rejects: the channel reports its own failures.
  void channelOf(context).finish(response, response ? statusOf(response) : 200);
}

/** A missing client capability is a ladder error: 400 while nothing was streamed yet; the rest is 200. */
function statusOf(response: JsonRpcResponse): number {
  return "error" in response && response.error.code === MISSING_REQUIRED_CLIENT_CAPABILITY ? 400 : 200;
}

/** The response of a call: its decorated result or error, `input_required`, or none when cancelled. */
async function outcomeOf(
  call: ModernCall,
  work: Promise<JsonRpcResponse | undefined>,
): Promise<JsonRpcResponse | undefined> {
  const { services, context, catalog, message, params, round } = call;
  const outcome = await new Promise<JsonRpcResponse | undefined | "input_required">((resolve, reject) => {
    round.onNeeded = () => resolve("input_required");
    work.then(resolve, reject);
  });
  if (outcome === "input_required") {
    // The handler is abandoned: its waits reject with the control signal, so its `finally` runs.
    abortRequest(context, round.end());
    return inputRequired(call);
  }
  return outcome && decorate(services, context, catalog, message.method, params, outcome);
}
