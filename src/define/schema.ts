/**
 * Schemas compiled once, when a definition is made: a Standard Schema (zod 4, …) is converted to JSON Schema
 * and validated by its own library; a plain JSON Schema goes on the wire as the very object given and is
 * validated by our own compiled validator (`json-schema/`), which needs no `eval` and so runs on Workers.
 */
import type { StandardJSONSchemaV1, StandardSchemaV1 } from "@standard-schema/spec";
import { messageOf } from "../protocol/errors.ts";
import { isObject } from "../protocol/jsonrpc.ts";
import type { JsonSchema } from "../protocol/types.ts";
import { compileJsonSchema } from "./json-schema/compile.ts";
import { formatSchemaIssues, formatStandardIssues } from "./schema-messages.ts";
import type { CompiledSchema, SchemaInput, Validation } from "../types/definitions.ts";

/** Options of {@link compileSchema}. */
export interface CompileSchemaOptions {
  /** Names the schema in definition-time errors, e.g. `Tool "weather" input`. */
  label: string;
  /** Require `type: "object"` at the root, as tool input and output schemas must have. */
  objectOnly?: boolean;
  /** Which side of a transforming Standard Schema goes on the wire: `"input"` (default) or `"output"`. */
  io?: "input" | "output";
}

type StandardProps = StandardSchemaV1.Props & { readonly jsonSchema?: Partial<StandardJSONSchemaV1.Converter> };

/**
 * Compiles a schema once. A Standard Schema is converted to JSON Schema (draft 2020-12) through its
 * `~standard.jsonSchema` converter and validated (and transformed) by its own `validate`. A plain JSON Schema
 * is kept as the very same object for the wire, never mutated, and validated by a validator built here once.
 * A missing schema is `{ type: "object", properties: {} }` and accepts any object, or nothing.
 *
 * @example
 * const compiled = compileSchema(z.object({ city: z.string() }), { label: "Tool \"weather\" input", objectOnly: true });
 * await compiled.validate({ city: "Oslo" }); // { ok: true, value: { city: "Oslo" } }
 */
export function compileSchema(input: SchemaInput | undefined, options: CompileSchemaOptions): CompiledSchema {
  if (input === undefined) return compileEmptyObject();
  if (isStandardSchema(input)) return compileStandard(input, options);
  if (!isObject(input)) {
    throw new TypeError(`${options.label} must be a Standard Schema (such as zod) or a JSON Schema object.`);
  }
  return compilePlainSchema(input, options);
}

function isStandardSchema(input: unknown): input is StandardSchemaV1 {
  // Some libraries (arktype) make their schemas callable, so functions count too.
  return (typeof input === "object" || typeof input === "function") && input !== null && "~standard" in input;
}

function compileEmptyObject(): CompiledSchema {
  return { jsonSchema: { type: "object", properties: {} }, validate: validateAnyObject };
}

function validateAnyObject(value: unknown): Validation<unknown> {
  if (value === undefined || value === null) return { ok: true, value: {} };
  if (isObject(value)) return { ok: true, value };
  return { ok: false, message: "(root): expected an object" };
}

function compileStandard(schema: StandardSchemaV1, options: CompileSchemaOptions): CompiledSchema {
  const props = schema["~standard"] as StandardProps;
  const io = options.io ?? "input";
  const convert = props.jsonSchema?.[io];
  if (typeof convert !== "function") {
    throw new Error(
      `${options.label}: this ${props.vendor} schema has no JSON Schema converter ("~standard.jsonSchema"); ` +
        `pass a JSON Schema object, or a schema library with Standard JSON Schema such as zod 4.`,
    );
  }
  let jsonSchema: JsonSchema;
  try {
    jsonSchema = convert({ target: "draft-2020-12" });
  } catch (error) {
    throw new Error(
      `${options.label}: the ${props.vendor} schema could not be converted to JSON Schema: ${messageOf(error)}`,
      {
        cause: error,
      },
    );
  }
  if (options.objectOnly) assertObjectRoot(jsonSchema, options.label);
  return {
    jsonSchema,
    validate(value) {
      const result = props.validate(value);
      return result instanceof Promise ? result.then(fromStandardResult) : fromStandardResult(result);
    },
  };
}

function fromStandardResult(result: StandardSchemaV1.Result<unknown>): Validation<unknown> {
  if (result.issues) return { ok: false, message: formatStandardIssues(result.issues) };
  return { ok: true, value: result.value };
}

function compilePlainSchema(schema: JsonSchema, options: CompileSchemaOptions): CompiledSchema {
  if (options.objectOnly) assertObjectRoot(schema, options.label);
  let validate: ReturnType<typeof compileJsonSchema>;
  try {
    validate = compileJsonSchema(schema);
  } catch (error) {
    throw new Error(`${options.label}: the JSON Schema cannot be compiled: ${messageOf(error)}`, { cause: error });
  }
  return {
    jsonSchema: schema,
    validate(value) {
      const result = validate(value);
      return result.valid ? { ok: true, value } : { ok: false, message: formatSchemaIssues(result.errors) };
    },
  };
}

function assertObjectRoot(schema: JsonSchema, label: string): void {
  if (schema.type === "object") return;
  const found = schema.type === undefined ? "no type" : `type ${JSON.stringify(schema.type)}`;
  throw new Error(
    `${label} must be a JSON Schema with type "object" at its root (for zod: z.object({ … })); it has ${found}.`,
  );
}
