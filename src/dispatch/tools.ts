/** `tools/list` and `tools/call`. */
import { echoValue } from "../protocol/echo.ts";
import { InvalidToolArgumentsError } from "../define/tool.ts";
import { INVALID_PARAMS, McpError } from "../protocol/errors.ts";
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
  if (!tool) throw new McpError(INVALID_PARAMS, `Unknown tool: ${echoValue(name)}`);
  const args = optionalObject(params, "arguments");
  try {
    const result = tool.call(event, args);
    if (!(result instanceof Promise)) return result as unknown as JsonObject;
    return result.catch((error: unknown) => invalidArguments(error, context.protocolVersion)) as Promise<JsonObject>;
  } catch (error) {
    return invalidArguments(error, context.protocolVersion);
  }
}

/** From 2025-11-25 on, invalid arguments are a tool error the model can read and correct (SEP-1303). */
function invalidArguments(error: unknown, protocolVersion: string): JsonObject {
  if (error instanceof InvalidToolArgumentsError && protocolVersion >= "2025-11-25") {
    return { content: [{ type: "text", text: error.message }], isError: true };
  }
  throw error;
}
