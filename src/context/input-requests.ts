/** The input requests of `event.context.mcp`: the same code on both eras, answered by the lane's broker. */
import type { ElicitSchema, InputRequestOptions, McpContext, SampleOptions } from "../types/context.ts";
import type { SchemaInput } from "../types/definitions.ts";
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

/**
 * Gives an input request's promise an owner. A handler abandoned by `input_required` (modern) or
 * whose session ended (legacy) sees its waits reject; one it never awaited must not become an
 * unhandled rejection that ends the process. Whoever awaits it still gets the rejection.
 */
function owned<T>(pending: Promise<T>): Promise<T> {
  pending.catch(ignore);
  return pending;
}

function ignore(): void {}

/** `elicitation/create`: a form, a single value, an approval, or a URL. */
export function elicitFrom<C extends McpContext>(
  context: C,
  ask: AskClient<C>,
  key: string,
  message: string,
  target: ElicitSchema | { url: string } | undefined,
  options: InputRequestOptions | undefined,
): Promise<ElicitResult> {
  return owned(elicit(context, ask, key, message, target, options));
}

async function elicit<C extends McpContext>(
  context: C,
  ask: AskClient<C>,
  key: string,
  message: string,
  target: ElicitSchema | { url: string } | undefined,
  options: InputRequestOptions | undefined,
): Promise<ElicitResult> {
  const request = elicitationRequest(context.era, message, target);
  context.requireClientCapability(request.capability);
  const answer = await ask(context, key, "elicitation/create", request.params, options);
  return checkElicitResult(answer, request);
}

/** `sampling/createMessage`, optionally reading a typed value from the answer. */
export function sampleFrom<C extends McpContext>(
  context: C,
  ask: AskClient<C>,
  key: string,
  params: CreateMessageParams | string,
  options: SampleOptions<SchemaInput | undefined> | undefined,
): Promise<CreateMessageResult> {
  return owned(sample(context, ask, key, params, options));
}

async function sample<C extends McpContext>(
  context: C,
  ask: AskClient<C>,
  key: string,
  params: CreateMessageParams | string,
  options: SampleOptions<SchemaInput | undefined> | undefined,
): Promise<CreateMessageResult> {
  const wire = samplingParams(params);
  context.requireClientCapability(samplingCapability(wire));
  const result = (await ask(context, key, "sampling/createMessage", wire, options)) as CreateMessageResult;
  return options?.schema === undefined
    ? result
    : readSampledValue(result, options.schema, context.options.maxJsonDepth);
}

/** `roots/list`. */
export function listRootsFrom<C extends McpContext>(
  context: C,
  ask: AskClient<C>,
  key: string,
  options: InputRequestOptions | undefined,
): Promise<ListRootsResult> {
  return owned(listRoots(context, ask, key, options));
}

async function listRoots<C extends McpContext>(
  context: C,
  ask: AskClient<C>,
  key: string,
  options: InputRequestOptions | undefined,
): Promise<ListRootsResult> {
  context.requireClientCapability("roots");
  return (await ask(context, key, "roots/list", {}, options)) as ListRootsResult;
}
