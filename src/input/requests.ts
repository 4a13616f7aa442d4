/** The input requests of `event.context.mcp`: the same code on both eras, answered by the lane's broker. */
import type { ElicitSchema, InputRequestOptions, SampleOptions } from "../context.ts";
import type { SchemaInput } from "../define/types.ts";
import type { CreateMessageParams, CreateMessageResult, ElicitResult, ListRootsResult } from "../protocol/types.ts";
import { askClient } from "../context-fields.ts";
import type { RequestContext } from "../request-context.ts";
import { checkElicitResult, elicitationRequest } from "./elicitation.ts";
import { readSampledValue, samplingCapability, samplingParams } from "./sampling.ts";

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
export function elicitFrom(
  context: RequestContext,
  key: string,
  message: string,
  target: ElicitSchema | { url: string } | undefined,
  options: InputRequestOptions | undefined,
): Promise<ElicitResult> {
  return owned(elicit(context, key, message, target, options));
}

async function elicit(
  context: RequestContext,
  key: string,
  message: string,
  target: ElicitSchema | { url: string } | undefined,
  options: InputRequestOptions | undefined,
): Promise<ElicitResult> {
  const request = elicitationRequest(context.era, message, target);
  context.requireClientCapability(request.capability);
  const answer = await askClient(context, key, "elicitation/create", request.params, options);
  return checkElicitResult(answer, request);
}

/** `sampling/createMessage`, optionally reading a typed value from the answer. */
export function sampleFrom(
  context: RequestContext,
  key: string,
  params: CreateMessageParams | string,
  options: SampleOptions<SchemaInput | undefined> | undefined,
): Promise<CreateMessageResult> {
  return owned(sample(context, key, params, options));
}

async function sample(
  context: RequestContext,
  key: string,
  params: CreateMessageParams | string,
  options: SampleOptions<SchemaInput | undefined> | undefined,
): Promise<CreateMessageResult> {
  const wire = samplingParams(params);
  context.requireClientCapability(samplingCapability(wire));
  const result = (await askClient(context, key, "sampling/createMessage", wire, options)) as CreateMessageResult;
  return options?.schema === undefined
    ? result
    : readSampledValue(result, options.schema, context.options.maxJsonDepth);
}

/** `roots/list`. */
export function listRootsFrom(
  context: RequestContext,
  key: string,
  options: InputRequestOptions | undefined,
): Promise<ListRootsResult> {
  return owned(listRoots(context, key, options));
}

async function listRoots(
  context: RequestContext,
  key: string,
  options: InputRequestOptions | undefined,
): Promise<ListRootsResult> {
  context.requireClientCapability("roots");
  return (await askClient(context, key, "roots/list", {}, options)) as ListRootsResult;
}
