/** `completion/complete` for prompt arguments and resource-template variables. */
import { echoValue } from "../protocol/echo.ts";
import { INVALID_PARAMS, McpError } from "../protocol/errors.ts";
import { isObject, type JsonObject } from "../protocol/jsonrpc.ts";
import type { DispatchCall } from "./call.ts";
import { checkUriLength } from "./resources.ts";

/** The specification caps one completion answer at 100 values. */
const MAX_VALUES = 100;

function invalid(message: string): McpError {
  return new McpError(INVALID_PARAMS, `Invalid params: ${message}`);
}

export async function complete({ params, catalog, event, context: request }: DispatchCall): Promise<JsonObject> {
  const ref = params.ref;
  const argument = params.argument;
  if (!isObject(ref) || typeof ref.type !== "string") throw invalid('"ref" must be an object with a type');
  if (!isObject(argument) || typeof argument.name !== "string" || typeof argument.value !== "string") {
    throw invalid('"argument" must be { name: string, value: string }');
  }
  const contextArgs = isObject(params.context) && isObject(params.context.arguments) ? params.context.arguments : {};
  const context = contextArgs as Record<string, string>;
  let values: string[];
  if (ref.type === "ref/prompt") {
    if (typeof ref.name !== "string") throw invalid('"ref.name" must be a string');
    const prompt = catalog.prompts.get(ref.name);
    if (!prompt) throw new McpError(INVALID_PARAMS, `Unknown prompt: ${echoValue(ref.name)}`);
    values = await prompt.complete(event, argument.name, argument.value, context);
  } else if (ref.type === "ref/resource") {
    if (typeof ref.uri !== "string") throw invalid('"ref.uri" must be a string');
    checkUriLength(ref.uri, request.options.maxUriLength);
    const template = catalog.templates.find((candidate) => candidate.uriTemplate === ref.uri);
    if (!template) {
      // A fixed resource has nothing to complete.
      if (catalog.resources.has(ref.uri)) return { completion: { values: [], hasMore: false } };
      throw new McpError(INVALID_PARAMS, `Unknown resource template: ${echoValue(ref.uri)}`);
    }
    values = await template.complete(event, argument.name, argument.value, context);
  } else {
    throw invalid(`unknown ref type ${echoValue(ref.type)}`);
  }
  const total = values.length;
  return { completion: { values: values.slice(0, MAX_VALUES), total, hasMore: total > MAX_VALUES } };
}
