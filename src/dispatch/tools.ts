/** `tools/list` and `tools/call`. */
import { ErrorCode, McpError } from "../protocol/errors.ts";
import type { JsonObject } from "../protocol/jsonrpc.ts";
import type { DispatchCall } from "./call.ts";
import { optionalObject, rejectCursor, requireString } from "./params.ts";

export function listTools({ params, catalog }: DispatchCall): JsonObject {
  rejectCursor(params);
  return { tools: catalog.toolListing };
}

export async function callTool({ params, catalog, event }: DispatchCall): Promise<JsonObject> {
  const name = requireString(params, "name");
  const tool = catalog.tools.get(name);
  if (!tool) throw new McpError(ErrorCode.InvalidParams, `Unknown tool: ${name}`);
  const args = optionalObject(params, "arguments");
  return (await tool.call(event, args)) as unknown as JsonObject;
}
