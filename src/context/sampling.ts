/** Builds `sampling/createMessage` parameters and, with a schema, reads a typed value from the answer. */
import { compileSchema } from "../define/schema.ts";
import type { CompiledSchema, SchemaInput } from "../types/definitions.ts";
import { parseBoundedJson } from "../protocol/json-depth.ts";
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

const FENCE = "```";

/**
 * What is inside a Markdown code fence that is the whole text (```` ```json ```` or ```` ``` ````, then
 * the closing ```` ``` ````; whitespace around), trimmed; the text itself when it is not fenced. Found by
 * trimming and comparing ends, in linear time: a forged answer cannot make it backtrack.
 */
export function unfence(text: string): string {
  const whole = text.trim();
  if (whole.length < 2 * FENCE.length || !whole.startsWith(FENCE) || !whole.endsWith(FENCE)) return text;
  const inner = whole.slice(FENCE.length, whole.length - FENCE.length);
  return (inner.startsWith("json") ? inner.slice(4) : inner).trim();
}

/**
 * The model's text answer, in a Markdown code fence or not, parsed as JSON (at most `maxDepth` levels
 * deep, the handler's `maxJsonDepth`: the answer is client data) and validated.
 */
export async function readSampledValue(
  result: CreateMessageResult,
  schema: SchemaInput,
  maxDepth: number,
): Promise<CreateMessageResult & { data: unknown }> {
  let check = compiled.get(schema);
  if (!check) compiled.set(schema, (check = compileSchema(schema, { label: "sampling schema" })));
  const text = textOf(result);
  if (text === undefined) throw new Error("The model's answer has no text to read a value from");
  let parsed: { value: unknown } | undefined;
  try {
    parsed = parseBoundedJson(unfence(text), maxDepth);
  } catch {
    throw new Error(`The model's answer is not JSON: ${text.slice(0, 200)}`);
  }
  if (parsed === undefined) throw new Error(`The model's answer is nested deeper than ${maxDepth} levels`);
  const value = parsed.value;
  const checked = await check.validate(value);
  if (!checked.ok) throw new Error(`The model's answer does not match the schema: ${checked.message}`);
  return { ...result, data: checked.value };
}
