/** Builds `elicitation/create` parameters from a schema or URL, and checks the client's answer. */
import { compileSchema } from "../define/schema.ts";
import type { CompiledSchema } from "../define/types.ts";
import type { ElicitSchema } from "../context.ts";
import { ErrorCode, McpError } from "../protocol/errors.ts";
import { isObject, type JsonObject } from "../protocol/jsonrpc.ts";
import type { ElicitResult } from "../protocol/types.ts";

export interface ElicitationRequest {
  /** The client capability this request needs. */
  capability: "elicitation.form" | "elicitation.url";
  params: JsonObject;
  schema: CompiledSchema | undefined;
}

const compiled = new WeakMap<object, { schema: CompiledSchema; requested: JsonObject }>();

/** Keeps what `requestedSchema` allows: a flat object of primitive properties. */
function toRequestedSchema(jsonSchema: JsonObject): JsonObject {
  const requested: JsonObject = { type: "object", properties: jsonSchema.properties ?? {} };
  if (Array.isArray(jsonSchema.required) && jsonSchema.required.length > 0) requested.required = jsonSchema.required;
  return requested;
}

function compileOnce(schema: object): { schema: CompiledSchema; requested: JsonObject } {
  let entry = compiled.get(schema);
  if (!entry) {
    const compiledSchema = compileSchema(schema as ElicitSchema, { objectOnly: true, label: "elicitation schema" });
    entry = { schema: compiledSchema, requested: toRequestedSchema(compiledSchema.jsonSchema) };
    compiled.set(schema, entry);
  }
  return entry;
}

/** The request for a form (`schema`) or a URL (`{ url }`). */
export function elicitationRequest(message: string, target: ElicitSchema | { url: string }): ElicitationRequest {
  if (isObject(target) && typeof target.url === "string" && !("type" in target) && !("~standard" in target)) {
    return {
      capability: "elicitation.url",
      params: { mode: "url", message, url: target.url, elicitationId: crypto.randomUUID() },
      schema: undefined,
    };
  }
  const { schema, requested } = compileOnce(target);
  return { capability: "elicitation.form", params: { message, requestedSchema: requested }, schema };
}

/** Checks an `ElicitResult`; accepted form content is validated (and typed) by the schema. */
export async function checkElicitResult(answer: unknown, request: ElicitationRequest): Promise<ElicitResult> {
  if (!isObject(answer) || !["accept", "decline", "cancel"].includes(answer.action as string)) {
    throw new McpError(
      ErrorCode.InvalidParams,
      "Invalid elicitation response: action must be accept, decline or cancel",
    );
  }
  const result = answer as unknown as ElicitResult;
  if (result.action !== "accept" || !request.schema) return result;
  const checked = await request.schema.validate(result.content ?? {});
  if (!checked.ok) {
    throw new McpError(
      ErrorCode.InvalidParams,
      `Elicitation response does not match the requested schema: ${checked.message}`,
    );
  }
  return { ...result, content: checked.value as JsonObject };
}
