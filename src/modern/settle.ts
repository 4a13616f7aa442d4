/**
 * How a modern call's outcome becomes its answer: the result decorated (stamp, cache hints), or an
 * `input_required` round with its sealed state; and the status of an answer given as JSON.
 */
import type { Catalog } from "../define/catalog.ts";
import { INTERNAL_ERROR, MISSING_REQUIRED_CLIENT_CAPABILITY } from "../protocol/errors.ts";
import { failure, success, type JsonObject, type JsonRpcRequest, type JsonRpcResponse } from "../protocol/jsonrpc.ts";
import { describeMethod, type MethodDescriptor } from "../protocol/methods.ts";
import { abortRequest, catalogOf, initOf, lastProgressOf, type RequestContext } from "../context/request-context.ts";
import type { ModernServices } from "./services.ts";
import type { InputRound } from "./mrtr/mrtr.ts";
import { requestBinding } from "./mrtr/request-binding.ts";
import { resolveCacheHints, stampResult } from "./stamp.ts";

/** The per-definition cache hint of a request that uses a resource (`resources/read`). */
function definitionHints(catalog: Catalog, descriptor: MethodDescriptor, params: JsonObject): JsonObject | undefined {
  if (descriptor.definition !== "resource" || typeof params.uri !== "string") return undefined;
  const resource = catalog.resources.get(params.uri) ?? catalog.matchTemplate(params.uri)?.template;
  return resource?.cacheHints as JsonObject | undefined;
}

/** A result as the client gets it: stamped, with its cache hints (`resources/read`, the list methods). */
export function decorate(
  services: ModernServices,
  context: RequestContext,
  response: JsonRpcResponse,
): JsonRpcResponse {
  if (!("result" in response)) return response;
  const { method, params } = initOf(context);
  const descriptor = describeMethod(method);
  const hints = descriptor?.cacheable
    ? resolveCacheHints(
        context.cacheHints,
        definitionHints(catalogOf(context), descriptor, params),
        services.options.cacheHints[method],
      )
    : undefined;
  // The response is this call's own (just built by the dispatcher), so its result is swapped in place.
  response.result = stampResult(response.result, services.options.serverInfo, hints);
  return response;
}

/** What a modern call in flight carries beyond its context, as its outcome needs it. */
export interface ModernRound {
  readonly services: ModernServices;
  readonly message: JsonRpcRequest;
  readonly params: JsonObject;
  readonly round: InputRound;
  /** The request's binding (mrtr/request-binding.ts), when its state was already opened. */
  readonly binding: string | undefined;
  /** `input_required` rounds before this one. */
  readonly rounds: number;
  /** Every answer known so far (earlier rounds' and this one's), carried into the next state. */
  readonly answers: JsonObject | undefined;
}

/** The answer when the handler needs input: the requests and a sealed state, or an error past the round cap. */
async function inputRequired(call: ModernRound, context: RequestContext): Promise<JsonRpcResponse> {
  const { services, message, params, round } = call;
  const max = services.options.maxInputRounds;
  if (call.rounds >= max) {
    return failure(
      message.id,
      INTERNAL_ERROR,
      `${message.method} asked for input in more than ${max} rounds (maxInputRounds); giving up`,
    );
  }
  const requestState = await services.requestStates.seal(
    {
      state: context.state,
      exp: Date.now() + services.requestStates.ttlMs,
      principal: context.principal,
      rounds: call.rounds + 1,
      answers: call.answers,
      // The last progress sent, for the next round's run of the handler to go on from.
      progress: lastProgressOf(context),
    },
    call.binding ?? requestBinding(message.method, params),
  );
  const result = { resultType: "input_required", inputRequests: round.requests, requestState };
  return success(message.id, stampResult(result, services.options.serverInfo, undefined));
}

/** A missing client capability is a ladder error: 400 while nothing was streamed yet; the rest is 200. */
export function statusOf(response: JsonRpcResponse): number {
  return "error" in response && response.error.code === MISSING_REQUIRED_CLIENT_CAPABILITY ? 400 : 200;
}

/**
 * The response of a pending call: its decorated result or error, `input_required` when the handler
 * asked for what the client has not answered yet, or none when cancelled. Rejects when the state
 * cannot be sealed or the result cannot be stamped (the sequence answers that as the call's error).
 */
export async function outcomeOf(
  call: ModernRound,
  context: RequestContext,
  work: Promise<JsonRpcResponse | undefined>,
): Promise<JsonRpcResponse | undefined> {
  const { round } = call;
  const outcome = await new Promise<JsonRpcResponse | undefined | "input_required">((resolve, reject) => {
    round.whenNeeded(() => resolve("input_required"));
    work.then(resolve, reject);
  });
  if (outcome === "input_required") {
    // The handler is abandoned: its waits reject with the control signal, so its `finally` runs.
    abortRequest(context, round.end());
    return inputRequired(call, context);
  }
  return outcome && decorate(call.services, context, outcome);
}
