/**
 * How a modern call's outcome becomes its answer: the result decorated (stamp, cache hints), an
 * `input_required` round with its sealed state, or the request's own error; and the stream finished.
 */
import { errorResponse } from "../dispatch/run.ts";
import type { Catalog } from "../define/catalog.ts";
import { INTERNAL_ERROR, MISSING_REQUIRED_CLIENT_CAPABILITY } from "../protocol/errors.ts";
import { failure, success, type JsonObject, type JsonRpcRequest, type JsonRpcResponse } from "../protocol/jsonrpc.ts";
import { abortRequest, channelOf, type RequestContext } from "../context/request-context.ts";
import type { ModernServices } from "./services.ts";
import type { InputRound } from "./mrtr/mrtr.ts";
import { requestDigest } from "./mrtr/request-state.ts";
import { CACHEABLE_METHODS, resolveCacheHints, stampResult } from "./stamp.ts";

/** The per-definition cache hint of a `resources/read`. */
function definitionHints(catalog: Catalog, method: string, params: JsonObject): JsonObject | undefined {
  if (method !== "resources/read" || typeof params.uri !== "string") return undefined;
  const resource = catalog.resources.get(params.uri) ?? catalog.matchTemplate(params.uri)?.template;
  return resource?.cacheHints as JsonObject | undefined;
}

export function decorate(
  services: ModernServices,
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

/** One modern call in flight, as `settle` needs it. */
export interface ModernCall {
  services: ModernServices;
  context: RequestContext;
  catalog: Catalog;
  message: JsonRpcRequest;
  params: JsonObject;
  round: InputRound;
  /** Digest of the request, when its state was already opened. */
  digest: string | undefined;
  /** `input_required` rounds before this one. */
  rounds: number;
  /** Every answer known so far (earlier rounds' and this one's), carried into the next state. */
  answers: JsonObject | undefined;
  /** Ends the instrumentation hooks, when there are any. */
  hooksDone: ((response: JsonRpcResponse | undefined) => void) | undefined;
}

/** The answer when the handler needs input: the requests and a sealed state, or an error past the round cap. */
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
  const requestState = await services.requestStates.seal({
    state: context.state,
    exp: Date.now() + services.requestStates.ttlMs,
    principal: context.principal ?? null,
    digest: call.digest ?? (await requestDigest(message.method, params)),
    rounds: call.rounds + 1,
    answers: call.answers,
  });
  const result = { resultType: "input_required", inputRequests: round.requests, requestState };
  return success(message.id, stampResult(result, services.options.serverInfo, undefined));
}

/**
 * Answers a pending call once its outcome is in. The reply always settles: a failure on the way
 * (state that cannot be sealed, a result that cannot be stamped) is answered as this request's
 * JSON-RPC error, and anything after that is owned by the incident counter.
 */
export function settleLater(call: ModernCall, work: Promise<JsonRpcResponse | undefined>): void {
  const answer = (response: JsonRpcResponse | undefined): void => {
    call.hooksDone?.(response);
    finishStream(call.services, call.context, response);
  };
  call.services.incidents.own(
    outcomeOf(call, work).then(answer, (error: unknown) => answer(errorResponse(call.message, error))),
  );
}

export function finishStream(
  services: ModernServices,
  context: RequestContext,
  response: JsonRpcResponse | undefined,
): void {
  // The channel reports its own failures; the counter owns the promise all the same.
  services.incidents.own(channelOf(context).finish(response, response ? statusOf(response) : 200));
}

/** A missing client capability is a ladder error: 400 while nothing was streamed yet; the rest is 200. */
export function statusOf(response: JsonRpcResponse): number {
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
