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

export async function callTool({ params, catalog, event, context }: DispatchCall): Promise<JsonObject> {
  const name = requireString(params, "name");
  const tool = catalog.tools.get(name);
  if (!tool) throw new McpError(ErrorCode.InvalidParams, `Unknown tool: ${name}`);
  const args = optionalObject(params, "arguments");
  try {
    return (await tool.call(event, args)) as unknown as JsonObject;
  } catch (error) {
    // From 2025-11-25 on, invalid arguments are a tool error the model can read and correct (SEP-1303).
    if (error instanceof InvalidToolArgumentsError && context.protocolVersion >= "2025-11-25") {
      return { content: [{ type: "text", text: error.message }], isError: true };
    }
    throw error;
  }
}
