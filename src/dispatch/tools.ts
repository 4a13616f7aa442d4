/** `tools/list` and `tools/call`. */
import { InvalidToolArgumentsError } from "../define/tool.ts";
import { ErrorCode, McpError } from "../protocol/errors.ts";
import type { JsonObject } from "../protocol/jsonrpc.ts";
import type { DispatchCall } from "./call.ts";
import { optionalObject, rejectCursor, requireString } from "./params.ts";

export function listTools({ params, catalog }: DispatchCall): JsonObject {
  rejectCursor(params);
  return { tools: catalog.toolListing };
}

export function callTool({ params, catalog, event, context }: DispatchCall): JsonObject | Promise<JsonObject> {
  const name = requireString(params, "name");
  const tool = catalog.tools.get(name);
  if (!tool) throw new McpError(ErrorCode.InvalidParams, `Unknown tool: ${name}`);
  const args = optionalObject(params, "arguments");
  const answer = (error: unknown): JsonObject => invalidArguments(error, context.protocolVersion);
  try {
    const result = tool.call(event, args);
    return (result instanceof Promise ? result.catch(answer) : result) as unknown as JsonObject;
  } catch (error) {
    return answer(error);
  }
}

/** From 2025-11-25 on, invalid arguments are a tool error the model can read and correct (SEP-1303). */
function invalidArguments(error: unknown, protocolVersion: string): JsonObject {
  if (error instanceof InvalidToolArgumentsError && protocolVersion >= "2025-11-25") {
    return { content: [{ type: "text", text: error.message }], isError: true };
  }
  throw error;
}
