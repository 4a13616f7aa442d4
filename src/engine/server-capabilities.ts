/**
 * The server capabilities a handler declares, derived from its definitions and options. Which
 * methods a capability brings is not said here but by each method's descriptor (`capability`,
 * protocol/methods.ts), which the method tables read (dispatch/table.ts).
 */
import type { CatalogShape } from "../define/catalog.ts";
import type { ServerCapabilities } from "../protocol/types.ts";

export function serverCapabilities(shape: CatalogShape, logging: boolean): ServerCapabilities {
  const capabilities: ServerCapabilities = {};
  if (shape.tools) capabilities.tools = { listChanged: true };
  if (shape.resources) capabilities.resources = { subscribe: true, listChanged: true };
  if (shape.prompts) capabilities.prompts = { listChanged: true };
  if (shape.prompts || shape.resources) capabilities.completions = {};
  if (logging) capabilities.logging = {};
  return capabilities;
}
