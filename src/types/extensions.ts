/**
 * The seam optional parts plug in through: an {@link McpExtension} is given to `defineMcpHandler`
 * (`extensions`) or carried by a store ({@link CarriesExtensions}), and is plugged in once, when
 * the handler is defined. What a server does not import, its bundle does not carry.
 */
import type { H3Event } from "h3";
import type { JsonObject, JsonRpcNotification } from "../protocol/jsonrpc.ts";
import type { McpContext, McpTask } from "./context.ts";
import type { ResourceDefinition, ResourceTemplateDefinition, TaskSupport } from "./definitions.ts";
import type { McpEra } from "./era.ts";
import type { IncidentKind } from "./incidents.ts";
import type { McpLifespan } from "./lifespan.ts";
import type { McpRequestAccess } from "./request-access.ts";
import type { Bus, EventStore, SessionStore } from "./stores.ts";

export type { McpRequestAccess } from "./request-access.ts";

/**
 * An optional part of the server: cross-instance session routing (`sessionRouting` from
 * `mcp-h3/shared`, brought by the `mcp-h3/redis` stores), and protocol extensions.
 *
 * @example
 * const ping: McpExtension = {
 *   name: "example/ping",
 *   plug(server) {
 *     server.method("example/ping", () => ({ pong: true }));
 *     server.advertise({ extensions: { "example/ping": {} } });
 *   },
 * };
 * defineMcpHandler({ name: "app", version: "1.0.0", tools, extensions: [ping] });
 */
export interface McpExtension {
  /** Names the extension; one name plugs in once, however many stores and options carry it. */
  readonly name: string;
  /** Plugs the extension into one handler; called once, when `defineMcpHandler` runs (no I/O here). */
  plug(server: McpExtensionPoint): void;
}

/**
 * A store, event store or bus that brings the extensions it needs: a store several instances
 * share brings `sessionRouting` (the `mcp-h3/redis` ones do), so that it cannot be used without.
 *
 * @example
 * import { sessionRouting } from "mcp-h3/shared";
 * class MySharedBus implements Bus, CarriesExtensions {
 *   readonly extensions = [sessionRouting];
 *   // publish, subscribe …
 * }
 */
export interface CarriesExtensions {
  readonly extensions?: readonly McpExtension[];
}

/** What one method call of an extension receives. */
export interface McpMethodCall {
  /** The H3 event of the request. */
  readonly event: H3Event;
  /** The request's `params` (`{}` when absent): client data, check every field. */
  readonly params: JsonObject;
  /** `event.context.mcp` of the request. */
  readonly context: McpContext;
  /** What this request may call (see {@link McpRequestAccess}). */
  readonly access: McpRequestAccess;
  /**
   * Calls `listener` once the request is cancelled (the client's `notifications/cancelled`, its
   * disconnect where that cancels, a modern call ended by its input round), at once if it already
   * was. Unlike reading `context.signal`, it builds neither an `AbortSignal` nor the response
   * stream: a call answered at once as plain JSON stays so. E.g. work started for the request that
   * must stop with it until the extension takes it over.
   */
  onCancel(listener: (reason: unknown) => void): void;
  /**
   * Asks the client one input request on this request's own channel, as the handler's `elicit`,
   * `sample` and `listRoots` would: legacy, a server→client request on the request's response
   * stream (its answer is POSTed back, to any instance of the session); modern, an
   * `input_required` round unless the request's `inputResponses` hold the answer under
   * `request.key` (in `tools/call`, `prompts/get` and `resources/read` only: elsewhere it rejects
   * with -32603). Resolves with the client's answer (client data: check it), rejects with the
   * client's error or after `request.timeoutMs`. An extension's method that waits on work needing
   * the client (the legacy `tasks/result`) carries the work's questions this way.
   */
  ask(request: McpInputRequest): Promise<unknown>;
}

/** A JSON-RPC method: resolves with the result or throws an `McpError` (anything else is `-32603`). */
export type McpMethodHandler = (call: McpMethodCall) => JsonObject | Promise<JsonObject>;

/** One input request of a handler (`elicit`, `sample`, `listRoots`), as {@link McpToolRun.ask} gets it. */
export interface McpInputRequest {
  /** The handler's key for it (stable across retries). */
  readonly key: string;
  /** `elicitation/create`, `sampling/createMessage` or `roots/list`. */
  readonly method: string;
  readonly params: JsonObject;
  /** How long the handler waits for it (its option, else the handler's `inputTimeoutMs`). */
  readonly timeoutMs: number;
}

/**
 * How {@link McpToolCall.run} runs the tool: the context the handler sees is a copy of the
 * request's (`event.context.mcp` on a copy of the event), with these differences.
 */
export interface McpToolRun {
  /** `mcp.signal` inside: aborting it cancels the handler. The request's own disconnect does not. */
  readonly signal: AbortSignal;
  /** `mcp.task` inside (undefined: none). */
  readonly task?: McpTask;
  /**
   * Answers the handler's input requests. `viaRequest` answers one as the request itself would
   * (modern: from its `inputResponses`, else an `input_required` round; legacy: a request on the
   * session's stream). Absent: every request goes `viaRequest`.
   */
  ask?(request: McpInputRequest, viaRequest: () => Promise<unknown>): Promise<unknown>;
  /**
   * Where the handler's notifications (progress, log lines, `notify`) go instead of the request's
   * response, e.g. to the session's stream with `context.notifySession` (legacy), marked with
   * what the extension runs.
   * Absent: to the request's response while it is open, dropped once it was answered.
   */
  readonly relay?: (message: JsonRpcNotification) => Promise<void>;
}

/** A `tools/call` as a {@link McpToolCallWrapper} gets it. */
export interface McpToolCall extends McpMethodCall {
  /** The tool called: its name and `task` option; undefined when no tool has that name. */
  readonly tool: { readonly name: string; readonly task: TaskSupport | undefined } | undefined;
  /**
   * Runs the tool as a plain `tools/call` would (its arguments checked, its result shaped), in a
   * context of its own (see {@link McpToolRun}); resolves with the `CallToolResult`, or rejects with
   * the call's `McpError`. The work may outlive the request: give the promise an owner.
   */
  run(options: McpToolRun): Promise<JsonObject>;
}

/**
 * Wraps `tools/call`: answers it itself, or calls `next()` for what the call would answer without
 * the wrapper (the next wrapper, then the tool). Wrappers nest in the order they were plugged.
 *
 * @example
 * server.wrapToolCall((call, next) => {
 *   if (call.tool?.task === undefined) return next();
 *   const controller = new AbortController();
 *   const work = call.run({ signal: controller.signal }); // the tool, on its own from here
 *   server.incidents.own(work);
 *   return { content: [{ type: "text", text: "started" }] };
 * }, ["modern"]);
 */
export type McpToolCallWrapper = (
  call: McpToolCall,
  next: () => JsonObject | Promise<JsonObject>,
) => JsonObject | Promise<JsonObject>;

/**
 * Notifications a `subscriptions/listen` stream (modern) may ask for under one key of its
 * `notifications` filter (e.g. `taskIds`), served by an extension.
 */
export interface McpListenSource {
  /**
   * The part of the client's value (hostile data: check it) this server honours for the caller, as
   * the acknowledgement echoes it; undefined honours nothing. Throw an `McpError` (-32602) to refuse
   * the listen. `access` is what the listen request may call (its own token, its `enabled`
   * answers): honour nothing it could not see by calling (the tasks extension leaves out a task
   * whose tool it may not call). Asked only once the listen passed its caps.
   */
  accept(
    value: unknown,
    principal: string | undefined,
    access: McpRequestAccess,
  ): JsonObject[string] | undefined | Promise<JsonObject[string] | undefined>;
  /**
   * Starts sending what `accepted` asked for: `send(method, params)` puts one notification on the
   * stream (stamped with its subscription id). Resolves the function that stops it (called once,
   * when the stream ends).
   */
  open(
    accepted: JsonObject[string],
    principal: string | undefined,
    send: (method: string, params: JsonObject) => void,
  ): Promise<() => void>;
}

/** What an extension may reach and add to, when it is plugged in. */
export interface McpExtensionPoint {
  /** The stores the handler runs on (the defaults when none was given); `sessions` is undefined with sessions off. */
  readonly stores: {
    readonly sessions: SessionStore | undefined;
    readonly events: EventStore;
    readonly bus: Bus;
  };
  /**
   * Failures no client can be told of: `record` counts and reports one (`onIncident`), `own` gives
   * a promise nobody awaits an owner (its rejection is recorded, never left unhandled).
   */
  readonly incidents: {
    record(kind: IncidentKind, error?: unknown): void;
    own(work: Promise<unknown>): void;
  };
  /** What `setup` returned, once the first request ran it (`ready`). */
  readonly lifespan: { readonly ready: boolean; readonly value: McpLifespan };
  /**
   * Serves `method` in `eras` (default both). A method the definitions serve too (`tools/call`) is
   * replaced; one era's method called in the other era is answered as an unknown method (`-32601`;
   * modern: HTTP 404). A protocol method goes only in the eras that define it (`tasks/result` in
   * legacy), and not at all when the lane answers it (`initialize`, `server/discover`): the handler's
   * definition throws otherwise.
   */
  method(method: string, handler: McpMethodHandler, eras?: readonly McpEra[]): void;
  /**
   * Adds to the server capabilities `eras` advertise (default both: `initialize` in legacy,
   * `server/discover` in modern); each key is merged one level deep, so `extensions` by name.
   */
  advertise(capabilities: JsonObject, eras?: readonly McpEra[]): void;
  /** Runs when the handler closes (`handler.close()`), before the `close` option. */
  onClose(close: () => void | Promise<void>): void;
  /**
   * Wraps `tools/call` in `eras` (default both); see {@link McpToolCallWrapper}: to answer a call
   * itself (a budget spent, a cache hit), or to run the tool detached from its request (a job, a
   * task) with the same handler, its context saying so.
   */
  wrapToolCall(wrapper: McpToolCallWrapper, eras?: readonly McpEra[]): void;
  /**
   * Serves `key` of the `notifications` filter of `subscriptions/listen` (modern), e.g. ids of
   * the extension's own work the client follows; one source per key (a later one replaces it).
   */
  listen(key: string, source: McpListenSource): void;
  /**
   * Changes the `tools/list` entries in `eras` (default both): `decorate` gets each entry (do not
   * change it: return a new one, or the same) and the tool's name and `task` option; e.g. a field
   * the extension's clients read in `_meta`. Each catalog's listing is decorated once.
   */
  decorateTools(decorate: McpToolListingDecorator, eras?: readonly McpEra[]): void;
  /**
   * Serves these resources (or templates) beside the `resources` option, in both eras, under the
   * same rules (their `scopes`, `enabled`, `listed`): read, listed, subscribed to. The `resources`
   * capability is declared. E.g. the files of the skills extension (`mcp-h3/skills`).
   */
  resources(definitions: readonly (ResourceDefinition | ResourceTemplateDefinition)[]): void;
}

/** See {@link McpExtensionPoint.decorateTools}. */
export type McpToolListingDecorator = (
  entry: JsonObject,
  tool: { readonly name: string; readonly task: TaskSupport | undefined },
) => JsonObject;
