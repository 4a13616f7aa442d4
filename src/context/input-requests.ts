/**
 * The input requests of `event.context.mcp`: the same code on both eras, answered by the lane's
 * broker. Each kind (`elicitation/create`, `sampling/createMessage`, `roots/list`) is an
 * {@link InputRequest}; {@link askInput} sends any of them.
 */
import type { ElicitSchema, InputRequestOptions, McpContext } from "../types/context.ts";
import type { SchemaInput } from "../types/definitions.ts";
import type { McpEra } from "../types/era.ts";
import type { CreateMessageParams, CreateMessageResult, ElicitResult, ListRootsResult } from "../protocol/types.ts";
import type { JsonObject } from "../protocol/jsonrpc.ts";
import { checkElicitResult, elicitationRequest } from "./elicitation.ts";
import { readSampledValue, samplingCapability, samplingParams } from "./sampling.ts";

/** Sends one input request to the client through the lane, for `context`, and gives the answer. */
export type AskClient<C extends McpContext> = (
  context: C,
  key: string,
  method: string,
  params: JsonObject,
  options: InputRequestOptions | undefined,
) => Promise<unknown>;

/** One input request, ready to send: what goes on the wire, what the client must support, how its answer is read. */
export interface InputRequest<T> {
  method: string;
  params: JsonObject;
  /** The client capability it needs (checked before it is sent). */
  capability: string;
  /** Checks (and types) the client's answer. */
  read(answer: unknown): T | Promise<T>;
}

/**
 * Sends the input request `build` makes, for `context` and through `ask`, and gives the answer as the
 * request reads it. Building, the capability check and reading happen inside the promise: what
 * fails rejects it, never throws at the caller.
 *
 * The promise has an owner: a handler abandoned by `input_required` (modern) or whose session
 * ended (legacy) sees its waits reject, and one it never awaited must not become an unhandled
 * rejection that ends the process. Whoever awaits it still gets the rejection.
 *
 * @example
 * const roots = await askInput(context, askClient, "roots", rootsInput, undefined);
 */
export function askInput<C extends McpContext, T>(
  context: C,
  ask: AskClient<C>,
  key: string,
  build: () => InputRequest<T>,
  options: InputRequestOptions | undefined,
): Promise<T> {
  const pending = (async () => {
    const request = build();
    context.requireClientCapability(request.capability);
    return request.read(await ask(context, key, request.method, request.params, options));
  })();
  pending.catch(ignore);
  return pending;
}

function ignore(): void {}

/** `elicitation/create`: a form, a single value, an approval (no target), or a URL. */
export function elicitationInput(
  era: McpEra,
  message: string,
  target: ElicitSchema | { url: string } | undefined,
): InputRequest<ElicitResult> {
  const request = elicitationRequest(era, message, target);
  return {
    method: "elicitation/create",
    params: request.params,
    capability: request.capability,
    read: (answer) => checkElicitResult(answer, request),
  };
}

/** `sampling/createMessage`; with a `schema`, a typed value read from the text answer (at most `maxDepth` deep). */
export function samplingInput(
  params: CreateMessageParams | string,
  schema: SchemaInput | undefined,
  maxDepth: number,
): InputRequest<CreateMessageResult> {
  const wire = samplingParams(params);
  return {
    method: "sampling/createMessage",
    params: wire,
    capability: samplingCapability(wire),
    read: (answer) =>
      schema === undefined
        ? (answer as CreateMessageResult)
        : readSampledValue(answer as CreateMessageResult, schema, maxDepth),
  };
}

/** `roots/list`. */
export function rootsInput(): InputRequest<ListRootsResult> {
  return { method: "roots/list", params: {}, capability: "roots", read: (answer) => answer as ListRootsResult };
}
