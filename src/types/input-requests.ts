/**
 * What a handler asks the client for through `event.context.mcp` (`elicit`, `sample`, `listRoots`):
 * the schemas it may give and the typed answers it gets back.
 */
import type { StandardSchemaV1 } from "@standard-schema/spec";
import type { JsonObject } from "../protocol/jsonrpc.ts";
import type { CreateMessageResult, JsonSchema } from "../protocol/types.ts";

/** A schema for an elicitation: a Standard Schema (zod) or a plain JSON object schema. */
export type ElicitSchema = StandardSchemaV1 | JsonSchema;

/** The content type an elicitation with `schema` resolves to. */
export type ElicitContent<S> = S extends StandardSchemaV1
  ? StandardSchemaV1.InferOutput<S>
  : S extends { type: infer T }
    ? // A JSON Schema of a single value (a literal non-object type) answers that value, not an object.
      string extends T
      ? JsonObject
      : T extends "object"
        ? JsonObject
        : unknown
    : JsonObject;

/** Options of the input requests (`elicit`, `sample`, `listRoots`). */
export interface InputRequestOptions {
  /** How long to wait for the client's answer on legacy sessions (default: the handler's `inputTimeoutMs`). */
  timeoutMs?: number;
}

/** Options of `McpContext.sample`. */
export interface SampleOptions<
  S extends StandardSchemaV1 | JsonSchema | undefined = undefined,
> extends InputRequestOptions {
  /**
   * Parse the model's text answer as JSON and validate it: the result then carries the typed value
   * as `data`. An answer that is not JSON or does not validate throws an `Error` (a tool turns it
   * into an `isError` result the model can read).
   */
  schema?: S;
}

/** A sampling result with the answer parsed and validated by a schema. */
export type SampleResult<S> = S extends StandardSchemaV1 | JsonSchema
  ? CreateMessageResult & { data: S extends StandardSchemaV1 ? StandardSchemaV1.InferOutput<S> : unknown }
  : CreateMessageResult;
