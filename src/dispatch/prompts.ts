/** `prompts/list` and `prompts/get`. */
import { echoValue } from "../protocol/echo.ts";
import { INVALID_PARAMS, McpError } from "../protocol/errors.ts";
import type { JsonObject } from "../protocol/jsonrpc.ts";
import type { DispatchCall } from "./call.ts";
import { optionalObject, rejectCursor, requireString } from "./params.ts";

export function listPrompts({ params, catalog }: DispatchCall): JsonObject {
  rejectCursor(params);
  return { prompts: catalog.promptListing };
}

export async function getPrompt({ params, catalog, event }: DispatchCall): Promise<JsonObject> {
  const name = requireString(params, "name");
  const prompt = catalog.prompts.get(name);
  if (!prompt) throw new McpError(INVALID_PARAMS, `Unknown prompt: ${echoValue(name)}`);
  const args = optionalObject(params, "arguments") as Record<string, string>;
  return (await prompt.get(event, args)) as unknown as JsonObject;
}
