/** The one method table both lanes dispatch through. Era-specific methods live in the lanes. */
import type { MethodHandler } from "./call.ts";
import { complete } from "./completion.ts";
import { getPrompt, listPrompts } from "./prompts.ts";
import { listResources, listResourceTemplates, readResource } from "./resources.ts";
import { callTool, listTools } from "./tools.ts";
import type { CatalogShape } from "../define/catalog.ts";

/** Builds the table for what the handler serves: an undeclared capability's methods are not found. */
export function buildMethodTable(shape: CatalogShape): Map<string, MethodHandler> {
  const table = new Map<string, MethodHandler>();
  if (shape.tools) {
    table.set("tools/list", listTools);
    table.set("tools/call", callTool);
  }
  if (shape.resources) {
    table.set("resources/list", listResources);
    table.set("resources/templates/list", listResourceTemplates);
    table.set("resources/read", readResource);
  }
  if (shape.prompts) {
    table.set("prompts/list", listPrompts);
    table.set("prompts/get", getPrompt);
  }
  if (shape.prompts || shape.resources) table.set("completion/complete", complete);
  return table;
}
