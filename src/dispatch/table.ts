/**
 * The method tables, one per era: each lane dispatches through its own era's table, so a method its
 * era lacks is not there and is answered exactly as an unknown method. What goes in a table is
 * read from the methods' descriptors (protocol/methods.ts): their eras, and the capability each needs.
 */
import { describeMethod, methodsOfEra, type TableMethod } from "../protocol/methods.ts";
import type { ServerCapabilities } from "../protocol/types.ts";
import type { McpEra } from "../types/era.ts";
import type { MethodHandler } from "./call.ts";
import { complete } from "./completion.ts";
import { getPrompt, listPrompts } from "./prompts.ts";
import { listResources, listResourceTemplates, readResource } from "./resources.ts";
import { callTool, listTools } from "./tools.ts";

/** Each era's table: the methods that era serves, by name. */
export type MethodTables = Readonly<Record<McpEra, ReadonlyMap<string, MethodHandler>>>;

/**
 * The dispatch function of every method whose descriptor says `servedBy: "table"`: a descriptor
 * without a function here, or a function without a descriptor, does not compile.
 */
const DISPATCH: { readonly [M in TableMethod]: MethodHandler } = {
  "tools/list": listTools,
  "tools/call": callTool,
  "resources/list": listResources,
  "resources/templates/list": listResourceTemplates,
  "resources/read": readResource,
  "prompts/list": listPrompts,
  "prompts/get": getPrompt,
  "completion/complete": complete,
};

/**
 * The table of `era` for a handler declaring `capabilities` (the definitions'): a method of the
 * other era only, or of a capability not declared, is not found.
 *
 * @example
 * const table = buildMethodTable("modern", { tools: { listChanged: true } });
 * table.has("tools/call"); // true
 * table.has("prompts/get"); // false: no prompts capability
 */
export function buildMethodTable(era: McpEra, capabilities: ServerCapabilities): Map<string, MethodHandler> {
  const table = new Map<string, MethodHandler>();
  for (const [name, descriptor] of methodsOfEra(era)) {
    if (descriptor.servedBy !== "table") continue;
    if (descriptor.capability !== undefined && capabilities[descriptor.capability] === undefined) continue;
    table.set(name, DISPATCH[name as TableMethod]);
  }
  return table;
}

/**
 * Throws when an extension would serve `method` in `era` against its descriptor: in an era whose
 * protocol does not define it (the lane would have answered it as unknown), or a method the lane
 * answers itself (its table entry would never be reached). A method without a descriptor (the
 * extension's own) may go in any era.
 */
export function checkPluggable(method: string, era: McpEra): void {
  const descriptor = describeMethod(method);
  if (descriptor === undefined) return;
  if (!descriptor.eras.includes(era)) {
    throw new Error(
      `mcp-h3: an extension serves ${method} in the ${era} era, whose protocol has no such method (it is a method of the ${descriptor.eras.join(" and ")} era only); plug it for its era`,
    );
  }
  if (descriptor.servedBy === "lane") {
    throw new Error(
      `mcp-h3: an extension serves ${method}, which the ${era} lane answers itself; it cannot be replaced`,
    );
  }
}
