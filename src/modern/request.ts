/** One modern request: headers of the tool, MRTR state, the handler run, the decorated result. */
import type { H3Event } from "h3";
import { errorResponse, runRequest } from "../dispatch/run.ts";
import type { Catalog } from "../define/catalog.ts";
import { acceptsEventStream, type Inbound } from "../http/inbound.ts";
import { INVALID_PARAMS } from "../protocol/errors.ts";
import { failure, isObject, success, type JsonObject, type JsonRpcRequest } from "../protocol/jsonrpc.ts";
import { NO_HEADERS, jsonReply, type Reply } from "../http/reply.ts";
import { RequestContext, abortRequest, channelOf, hasChannel } from "../context/request-context.ts";
import type { ModernServices } from "./services.ts";
import { ResponseChannel } from "../stream/channel.ts";
import { instrument } from "../request/hooks.ts";
import { discover } from "./discover.ts";
import type { Envelope } from "./envelope.ts";
import { checkParamHeaders } from "./headers.ts";
import { INPUT_CAPABLE_METHODS, InputRound, checkInputResponses } from "./mrtr/mrtr.ts";
import { requestDigest } from "./mrtr/request-state.ts";
import { decorate, finishStream, settleLater, statusOf } from "./settle.ts";
import type { Caller } from "../auth/gate.ts";
import { scopeDenial } from "../auth/definition-scopes.ts";

/** One modern request as the lane hands it over. */
interface ModernRequest {
  services: ModernServices;
  inbound: Inbound;
  event: H3Event;
  message: JsonRpcRequest;
  envelope: Envelope;
  params: JsonObject;
  /** Who sent it (auth on). */
  caller: Caller | undefined;
}

/** What a call starts from: its catalog and, on an MRTR retry, the opened state. */
interface Start {
  catalog: Catalog;
  state: unknown;
  digest: string | undefined;
  rounds: number;
  answers: JsonObject | undefined;
}

/**
 * Serves a modern request. Synchronous on the common path (a static catalog, no state to open,
 * a synchronous handler), so a simple call costs no promise of its own.
 *
 * Why two paths: measured against the plain form (every step `async`) in the same benchmark runs
 * (`node bench/run.mjs --only=inproc` with both builds as systems), `modern_vs_bare` was 1.049
 * against 0.943, and 1.013 against 0.954 with the result splice that has since been removed (the
 * splice alone showed no gain on that figure). Keep it only while a run shows at least 3 %.
 */
export function serveModernRequest(
  services: ModernServices,
  inbound: Inbound,
  event: H3Event,
  message: JsonRpcRequest,
  envelope: Envelope,
  caller: Caller | undefined,
): Reply | Promise<Reply> {
  const params = message.params ?? {};
  const request: ModernRequest = { services, inbound, event, message, envelope, params, caller };
  // Whatever fails before the handler's outcome is in (a catalog function, the state check, the
  // stamping) is this request's own error: answered as a JSON-RPC error, never a rejection.
  try {
    const found = services.catalogs.get(event, caller?.identity.scopes);
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
  const { message, params, inbound, caller } = request;
  if (caller && catalog.hasScopes) {
    const denied = scopeDenial(request.services.auth!, caller, catalog, message.method, params);
    if (denied) return denied;
  }
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
    if (params.requestState !== undefined) return openThenStart(request, catalog, answers);
  }
  return start(request, { catalog, state: undefined, digest: undefined, rounds: 0, answers });
}

/** An MRTR retry: the state is opened before the handler runs. */
async function openThenStart(
  request: ModernRequest,
  catalog: Catalog,
  answers: JsonObject | undefined,
): Promise<Reply> {
  const { services, message, params } = request;
  // A token that is malformed or too long is refused before any hashing or decryption.
  const sealed = services.requestStates.unwrap(params.requestState);
  let digest = "";
  let payload: Awaited<ReturnType<typeof services.requestStates.open>>;
  try {
    if (sealed) {
      digest = await requestDigest(message.method, params);
      // A state minted for one principal is worth nothing to another.
      payload = await services.requestStates.openSealed(sealed, request.caller?.principal ?? null, digest);
    }
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
  // Answers of earlier rounds travel in the sealed state, so a handler that asks one question after
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
      // The token expiring closes the stream as a disconnect would: the call is cancelled.
      expiresAtMs: request.caller?.expiresAtMs,
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
    caller: request.caller,
    principal: request.caller?.principal,
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
  const response = work && decorate(services, context, catalog, method, params, work);
  hooksDone?.(response);
  if (response && !hasChannel(context)) return jsonReply(statusOf(response), response);
  finishStream(services, context, response);
  return channelOf(context).reply;
}
