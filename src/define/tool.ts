/** `defineTool()`: a tool compiled once — name checked, schemas converted, listing built, headers checked. */
import type { H3Event } from "h3";
import { INVALID_PARAMS, McpError, isMcpError, messageOf } from "../protocol/errors.ts";
import { isObject } from "../protocol/jsonrpc.ts";
import type { JsonObject } from "../protocol/jsonrpc.ts";
import type { CallToolResult } from "../protocol/types.ts";
import { toCallToolResult, toStructuredResult } from "./content.ts";
import { collectHeaderParams } from "./header-params.ts";
import { buildListing } from "./listing.ts";
import { accessRules } from "./access.ts";
import { compileSchema } from "./schema.ts";
import type { CompiledSchema, SchemaInput, ToolDefinition, ToolOptions, Validation } from "../types/definitions.ts";

/**
 * Arguments that do not match a tool's input schema. The dispatcher answers it as a tool error
 * (`isError: true`) from 2025-11-25 on, where the model is meant to read it and retry (SEP-1303),
 * and as a JSON-RPC `-32602` for older revisions.
 */
export class InvalidToolArgumentsError extends McpError {
  constructor(message: string) {
    super(INVALID_PARAMS, message);
  }
}

/** Tool names: 1 to 128 characters, letters, digits, `_`, `-` and `.`. */
const TOOL_NAME = /^[A-Za-z0-9_.-]{1,128}$/;

type Handler = (event: H3Event, args: JsonObject) => unknown;

/**
 * Defines a tool. Everything that can be done once is done here: the name is checked, `input` and `output` are
 * compiled (a zod schema converted to JSON Schema, a plain JSON Schema kept verbatim), `x-mcp-header`
 * declarations are checked and the `tools/list` entry is built. A mistake throws now, not on the first call.
 *
 * On a call, invalid arguments become a JSON-RPC error (-32602). A thrown `Error` becomes an `isError: true`
 * result the model can read; a thrown `McpError` becomes a JSON-RPC error. With an `output` schema, a returned
 * object is validated and sent as `structuredContent` (plus the same JSON as text); a mismatch is an
 * `isError` result.
 *
 * @example
 * const weather = defineTool({
 *   name: "weather",
 *   description: "Current weather for a city",
 *   input: z.object({ city: z.string() }),
 *   output: z.object({ celsius: z.number() }),
 *   handler: async (event, { city }) => ({ celsius: await lookup(city) }),
 * });
 */
export function defineTool<
  I extends SchemaInput | undefined = undefined,
  O extends SchemaInput | undefined = undefined,
>(options: ToolOptions<I, O>): ToolDefinition {
  const name = options.name;
  if (typeof name !== "string" || !TOOL_NAME.test(name)) {
    throw new Error(
      `Invalid tool name ${JSON.stringify(name)}: use 1 to 128 characters among letters, digits, "_", "-" and ".".`,
    );
  }
  const input = compileSchema(options.input, { label: `Tool "${name}" input`, objectOnly: true });
  const output =
    options.output === undefined
      ? undefined
      : compileSchema(options.output, { label: `Tool "${name}" output`, objectOnly: true, io: "output" });
  const headerParams = collectHeaderParams(input.jsonSchema, name);
  const task = options.task;
  if (task !== undefined && task !== "optional" && task !== "required") {
    throw new Error(`Tool "${name}": task must be "optional" or "required", not ${JSON.stringify(task)}`);
  }
  const listing = buildListing({
    name,
    title: options.title,
    description: options.description,
    inputSchema: input.jsonSchema,
    outputSchema: output?.jsonSchema,
    annotations: options.annotations,
    icons: options.icons,
    _meta: options._meta,
  });
  const handler = options.handler as Handler;
  const invalidArguments = `Invalid arguments for tool ${name}: `;
  const invalidOutput = `Tool ${name} returned structured content that does not match its output schema: `;

  return {
    kind: "tool",
    ...accessRules(options, `Tool "${name}"`),
    name,
    listing,
    input: input as CompiledSchema<JsonObject>,
    output: output as CompiledSchema<JsonObject> | undefined,
    headerParams,
    task,
    // Synchronous all the way when the schema and the handler are: no promise, no turn of the event
    // loop (the hot path of a simple tool).
    call(event, args) {
      const pending = input.validate(args);
      return pending instanceof Promise ? pending.then(run.bind(undefined, event)) : run(event, pending);
    },
  };

  function run(event: H3Event, checked: Validation<unknown>): CallToolResult | Promise<CallToolResult> {
    if (!checked.ok) throw new InvalidToolArgumentsError(invalidArguments + checked.message);
    let value: unknown;
    try {
      value = handler(event, checked.value as JsonObject);
    } catch (error) {
      return toErrorResult(error);
    }
    return value instanceof Promise ? value.then(shape, toErrorResult) : shape(value);
  }

  function shape(value: unknown): CallToolResult | Promise<CallToolResult> {
    if (output === undefined) return toCallToolResult(value, false);
    return shapeStructured(output as CompiledSchema<JsonObject>, value, invalidOutput);
  }
}

/** A result checked against the output schema: structured data validated first, then sent as the schema made it. */
async function shapeStructured(
  output: CompiledSchema<JsonObject>,
  value: unknown,
  invalidOutput: string,
): Promise<CallToolResult> {
  if (isObject(value) && !Array.isArray(value.content)) {
    // zod may transform or strip: what goes out is what the schema produced.
    const result = await output.validate(value);
    return result.ok ? toStructuredResult(result.value as JsonObject) : errorText(invalidOutput + result.message);
  }
  const result = toCallToolResult(value, true);
  if (result.isError === true) return result;
  const structured = await output.validate(result.structuredContent);
  return structured.ok ? result : errorText(invalidOutput + structured.message);
}

/** A thrown `McpError` becomes the call's JSON-RPC error; anything else an `isError` result the model reads. */
function toErrorResult(error: unknown): CallToolResult {
  if (isMcpError(error)) throw error;
  return errorText(messageOf(error));
}

function errorText(text: string): CallToolResult {
  return { isError: true, content: [{ type: "text", text }] };
}
