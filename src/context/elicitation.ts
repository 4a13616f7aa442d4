/**
 * Builds `elicitation/create` parameters and checks the client's answer. A request's schema is a
 * flat object of primitive fields; a single value (string, number, integer, boolean, enum, or a
 * multi-select array) is wrapped as the one field `value` and unwrapped again in the answer.
 * Without a schema the user only approves or declines.
 */
import { compileSchema } from "../define/schema.ts";
import type { CompiledSchema } from "../types/definitions.ts";
import type { ElicitSchema } from "../types/context.ts";
import type { McpEra } from "../types/era.ts";
import { INVALID_PARAMS, McpError } from "../protocol/errors.ts";
import { isObject, type JsonObject } from "../protocol/jsonrpc.ts";
import type { ElicitResult } from "../protocol/types.ts";

export interface ElicitationRequest {
  /** The client capability this request needs. */
  capability: "elicitation.form" | "elicitation.url";
  params: JsonObject;
  schema: CompiledSchema | undefined;
  /** True when the schema is a single value sent as the field `value`. */
  wrapped: boolean;
}

interface Compiled {
  schema: CompiledSchema;
  requested: JsonObject;
  wrapped: boolean;
}

const compiled = new WeakMap<object, Compiled>();
const APPROVAL_SCHEMA: JsonObject = { type: "object", properties: {} };

/** The wire form of one field: the JSON Schema without `$schema`. */
function fieldSchema(jsonSchema: JsonObject): JsonObject {
  const { $schema: _dialect, ...field } = jsonSchema;
  return field;
}

function compileOnce(schema: object): Compiled {
  let entry = compiled.get(schema);
  if (entry) return entry;
  const compiledSchema = compileSchema(schema as ElicitSchema, { label: "elicitation schema" });
  const json = compiledSchema.jsonSchema;
  if (json.type === "object") {
    const requested: JsonObject = { type: "object", properties: json.properties ?? {} };
    if (Array.isArray(json.required) && json.required.length > 0) requested.required = json.required;
    entry = { schema: compiledSchema, requested, wrapped: false };
  } else {
    const requested = { type: "object", properties: { value: fieldSchema(json) }, required: ["value"] };
    entry = { schema: compiledSchema, requested, wrapped: true };
  }
  compiled.set(schema, entry);
  return entry;
}

function isUrlTarget(target: unknown): target is { url: string } {
  return isObject(target) && typeof target.url === "string" && !("type" in target) && !("~standard" in target);
}

/**
 * The request for a form (`schema`), a URL (`{ url }`), or a plain approval (no target). URL requests
 * carry an `elicitationId` on the legacy era only: 2026-07-28 removed it.
 */
export function elicitationRequest(
  era: McpEra,
  message: string,
  target?: ElicitSchema | { url: string },
): ElicitationRequest {
  if (target === undefined) {
    return {
      capability: "elicitation.form",
      params: { message, requestedSchema: APPROVAL_SCHEMA },
      schema: undefined,
      wrapped: false,
    };
  }
  if (isUrlTarget(target)) {
    return {
      capability: "elicitation.url",
      params:
        era === "legacy"
          ? { mode: "url", message, url: target.url, elicitationId: crypto.randomUUID() }
          : { mode: "url", message, url: target.url },
      schema: undefined,
      wrapped: false,
    };
  }
  const { schema, requested, wrapped } = compileOnce(target);
  return { capability: "elicitation.form", params: { message, requestedSchema: requested }, schema, wrapped };
}

/**
 * Checks an `ElicitResult`. Accepted content is validated (and typed) by the schema; a single
 * value comes back unwrapped. `decline` and `cancel` are returned as they are.
 */
export async function checkElicitResult(answer: unknown, request: ElicitationRequest): Promise<ElicitResult> {
  if (!isObject(answer) || !["accept", "decline", "cancel"].includes(answer.action as string)) {
    throw new McpError(INVALID_PARAMS, "Invalid elicitation response: action must be accept, decline or cancel");
  }
  const result = answer as unknown as ElicitResult<unknown>;
  if (result.action !== "accept" || !request.schema) return result as ElicitResult;
  const content = isObject(result.content) ? result.content : {};
  const checked = await request.schema.validate(request.wrapped ? content.value : content);
  if (!checked.ok) {
    throw new McpError(INVALID_PARAMS, `Elicitation response does not match the requested schema: ${checked.message}`);
  }
  return { ...result, content: checked.value } as ElicitResult;
}
