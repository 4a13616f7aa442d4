/**
 * The steps of every MCP request of both eras around the shared method table, written once:
 * `RequestContext` → catalog → scope check → the lane's own checks → hooks → dispatch → answer.
 * The context comes first so that the definitions' `enabled(event)` sees `event.context.mcp`.
 * A lane hands over one {@link LaneCall}: the request, and what only its wire knows.
 */
import { scopeDenial } from "../auth/definition-scopes.ts";
import { RequestContext, channelOf, hasChannel, useCatalog } from "../context/request-context.ts";
import type { Catalog } from "../define/catalog.ts";
import { errorResponse } from "../dispatch/run.ts";
import { jsonReply, type Reply } from "../http/reply.ts";
import { refuse } from "../http/refusal.ts";
import { jsonAnswer } from "../stream/answers.ts";
import type { JsonRpcResponse } from "../protocol/jsonrpc.ts";
import { instrument } from "./hooks.ts";
import type { LaneCall } from "./lane-call.ts";
import { PendingReply } from "./pending-reply.ts";

/** Ends the instrumentation hooks of a request, when there are any. */
type HooksDone = ((response: JsonRpcResponse | undefined) => void) | undefined;

/**
 * Serves one request. Synchronous on the common path (a static catalog, nothing for the lane to
 * open, a synchronous handler), so a simple call costs no promise of its own.
 *
 * Why two paths: measured against the plain form (every step `async`) in the same benchmark runs
 * (`node bench/run.mjs --only=inproc` with both builds as systems), `modern_vs_bare` was 1.049
 * against 0.943, and 1.013 against 0.954 with the result splice that has since been removed (the
 * splice alone showed no gain on that figure). Keep it only while a run shows at least 3 %.
 */
export function serveSequence(call: LaneCall): Reply | Promise<Reply> {
  // Whatever fails before the handler's outcome is in (a catalog function, a lane's check, the
  // stamping) is this request's own error: answered as a JSON-RPC error, never a rejection.
  try {
    const context = enterContext(call);
    const found = call.services.catalogs.get(call.event, call.caller?.identity.scopes);
    if (!(found instanceof Promise)) return withCatalog(call, context, found);
    return guarded(
      call,
      found.then((catalog) => withCatalog(call, context, catalog)),
    );
  } catch (error) {
    return failed(call, error);
  }
}

/**
 * Builds the request's context and makes it `event.context.mcp`, before anything asks the
 * definitions' `enabled(event)`: it may read the request's era or its client's capabilities
 * (`enabled: clientSupportsApps`). The lanes' requests served outside the sequence that ask for a
 * catalog (modern `subscriptions/listen`, legacy `resources/subscribe`) enter it too.
 */
export function enterContext(call: LaneCall): RequestContext {
  const { services, message } = call;
  const context = new RequestContext({
    wire: call.facts(),
    requestId: message.id,
    method: message.method,
    params: call.params,
    options: services.options,
    lifespan: services.lifespan.value,
    caller: call.caller,
    principal: call.caller?.principal,
    lane: call,
    event: call.event,
    publisher: services.notifier,
  });
  call.event.context.mcp = context;
  return context;
}

/** A step that went pending: its failure is answered as the request's error too. */
function guarded(call: LaneCall, pending: Promise<Reply>): Promise<Reply> {
  return pending.catch((error: unknown) => failed(call, error));
}

/** The answer of a request that failed inside the library: its JSON-RPC error (-32603 unless an `McpError`). */
function failed(call: LaneCall, error: unknown): Reply {
  return jsonReply(200, errorResponse(call.message, error), call.headers);
}

/** The checks that need the catalog: the caller's scopes, then the lane's own. */
function withCatalog(call: LaneCall, context: RequestContext, catalog: Catalog): Reply | Promise<Reply> {
  useCatalog(context, catalog);
  if (call.caller && catalog.hasScopes) {
    const denied = scopeDenial(call.services.auth!, call.caller, catalog, call.message.method, call.params);
    // An HTTP-level refusal (403 with its challenge), answered with id null as the auth gate's are.
    if (denied) return refuse(null, denied);
  }
  const checked = call.check(catalog);
  if (checked === undefined) return start(call, context);
  if (checked instanceof Promise)
    return guarded(
      call,
      checked.then((reply) => reply ?? start(call, context)),
    );
  return checked;
}

/** Runs the request in its context, and answers. */
function start(call: LaneCall, context: RequestContext): Reply | Promise<Reply> {
  const { services } = call;
  call.adopt(context);
  // Hooks start before the handler does, so their timing covers all of it.
  const hooksDone = services.hooks && instrument(services.hooks, context);
  const work = call.run(context);
  if (work instanceof Promise) return settleLater(call, context, work, hooksDone);
  const response = work && call.answer(context, work);
  hooksDone?.(response);
  // A synchronous handler that streamed nothing is answered as plain JSON, with no stream at all.
  if (response && !hasChannel(context)) return jsonReply(call.status(response), response, call.headers);
  finish(call, context, response);
  return channelOf(context).reply;
}

/**
 * Answers a pending call once its outcome is in: as plain JSON when nothing built its response
 * stream meanwhile (see pending-reply.ts), else on the stream. The reply always settles: a failure
 * on the way (modern: state that cannot be sealed, a result that cannot be stamped) is answered as
 * this request's JSON-RPC error, and anything after that is owned by the incident counter.
 */
function settleLater(
  call: LaneCall,
  context: RequestContext,
  work: Promise<JsonRpcResponse | undefined>,
  hooksDone: HooksDone,
): Reply | Promise<Reply> {
  if (hasChannel(context)) {
    // Something needed the stream already, in the handler's first turn.
    own(call, context, work, hooksDone);
    return channelOf(context).reply;
  }
  const pending = call.awaitStream(context);
  own(call, context, work, hooksDone, pending);
  return pending.promise;
}

/** Hands the call's outcome (or its failure, as the request's JSON-RPC error) to its answer, owned by the incident counter. */
function own(
  call: LaneCall,
  context: RequestContext,
  work: Promise<JsonRpcResponse | undefined>,
  hooksDone: HooksDone,
  pending?: PendingReply,
): void {
  const answer = (response: JsonRpcResponse | undefined): void => {
    hooksDone?.(response);
    if (pending && response && !hasChannel(context)) {
      call.release(context);
      pending.answer(jsonAnswer(response, call.status(response), call.headers));
      return;
    }
    finish(call, context, response);
  };
  call.services.incidents.own(
    call.outcome(context, work).then(answer, (error: unknown) => answer(errorResponse(call.message, error))),
  );
}

/** Ends the response stream with the response (none: cancelled), and lets the lane release the call. */
function finish(call: LaneCall, context: RequestContext, response: JsonRpcResponse | undefined): void {
  // The channel reports its own failures; the counter owns the promise all the same.
  call.services.incidents.own(channelOf(context).finish(response, response ? call.status(response) : 200));
  call.release(context);
}
