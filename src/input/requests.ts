/** The input requests of `event.context.mcp`: the same code on both eras, answered by the lane's broker. */
import type { ElicitSchema, InputRequestOptions, SampleOptions } from "../context.ts";
import type { SchemaInput } from "../define/types.ts";
import type { CreateMessageParams, CreateMessageResult, ElicitResult, ListRootsResult } from "../protocol/types.ts";
import type { RequestContext } from "../request-context.ts";
import { checkElicitResult, elicitationRequest } from "./elicitation.ts";
import { readSampledValue, samplingCapability, samplingParams } from "./sampling.ts";

/** `elicitation/create`: a form, a single value, an approval, or a URL. */
export async function elicitFrom(
  context: RequestContext,
  key: string,
  message: string,
  target: ElicitSchema | { url: string } | undefined,
  options: InputRequestOptions | undefined,
): Promise<ElicitResult> {
  const request = elicitationRequest(context.era, message, target);
  context.requireClientCapability(request.capability);
  const answer = await context.askClient(key, "elicitation/create", request.params, options);
  return checkElicitResult(answer, request);
}

/** `sampling/createMessage`, optionally reading a typed value from the answer. */
export async function sampleFrom(
  context: RequestContext,
  key: string,
  params: CreateMessageParams | string,
  options: SampleOptions<SchemaInput | undefined> | undefined,
): Promise<CreateMessageResult> {
  const wire = samplingParams(params);
  context.requireClientCapability(samplingCapability(wire));
  const result = (await context.askClient(key, "sampling/createMessage", wire, options)) as CreateMessageResult;
  return options?.schema === undefined ? result : readSampledValue(result, options.schema);
}

/** `roots/list`. */
export async function listRootsFrom(
  context: RequestContext,
  key: string,
  options: InputRequestOptions | undefined,
): Promise<ListRootsResult> {
  context.requireClientCapability("roots");
  return (await context.askClient(key, "roots/list", {}, options)) as ListRootsResult;
}
