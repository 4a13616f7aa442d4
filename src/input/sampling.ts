/** Builds `sampling/createMessage` parameters and, with a schema, reads a typed value from the answer. */
import { compileSchema } from "../define/schema.ts";
import type { CompiledSchema, SchemaInput } from "../define/types.ts";
import type { JsonObject } from "../protocol/jsonrpc.ts";
import type { CreateMessageParams, CreateMessageResult } from "../protocol/types.ts";

/** `maxTokens` of the string shorthand. */
export const DEFAULT_MAX_TOKENS = 1000;

/** The parameters for a string prompt (one user message) or given ones, as they are. */
export function samplingParams(params: CreateMessageParams | string): JsonObject {
  if (typeof params !== "string") return params as JsonObject;
  return { messages: [{ role: "user", content: { type: "text", text: params } }], maxTokens: DEFAULT_MAX_TOKENS };
}

/** The capability a sampling request needs: `sampling.tools` when it offers tools. */
export function samplingCapability(params: JsonObject): "sampling" | "sampling.tools" {
  return params.tools !== undefined || params.toolChoice !== undefined ? "sampling.tools" : "sampling";
}

const compiled = new WeakMap<object, CompiledSchema>();

function textOf(result: CreateMessageResult): string | undefined {
  const content = result.content as { type?: unknown; text?: unknown } | { type?: unknown; text?: unknown }[];
  const block = Array.isArray(content) ? content.find((item) => item?.type === "text") : content;
  return block?.type === "text" && typeof block.text === "string" ? block.text : undefined;
}

/** The model's text answer, in a Markdown code fence or not, parsed as JSON and validated. */
export async function readSampledValue(
  result: CreateMessageResult,
  schema: SchemaInput,
): Promise<CreateMessageResult & { data: unknown }> {
  let check = compiled.get(schema);
  if (!check) compiled.set(schema, (check = compileSchema(schema, { label: "sampling schema" })));
  const text = textOf(result);
  if (text === undefined) throw new Error("The model's answer has no text to read a value from");
  const fenced = /^\s*```(?:json)?\s*([\s\S]*?)\s*```\s*$/.exec(text);
  let value: unknown;
  try {
    value = JSON.parse(fenced ? fenced[1]! : text);
  } catch {
    throw new Error(`The model's answer is not JSON: ${text.slice(0, 200)}`);
  }
  const checked = await check.validate(value);
  if (!checked.ok) throw new Error(`The model's answer does not match the schema: ${checked.message}`);
  return { ...result, data: checked.value };
}
