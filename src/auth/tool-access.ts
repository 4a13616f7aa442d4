/**
 * Who may call a tool: the one rule behind `tools/call` (its scopes, its `enabled`) as the extension
 * seam hands it out ({@link McpRequestAccess}), so that what an extension serves on a tool's behalf
 * (the tasks of `mcp-h3/tasks`: reading, answering, cancelling, listening) needs what calling it needs.
 */
import { isGranted, type Catalog } from "../define/catalog.ts";
import type { McpRequestAccess } from "../types/extensions.ts";
import { mayReadResource } from "./resource-access.ts";

/**
 * What the request whose catalog is `catalog` (so `enabled` has already said yes or no for it) may
 * call, with the scopes of its own token (`identity`; undefined with auth off, when scopes are not
 * checked). Asked per tool name, one lookup each; nothing is built until asked.
 *
 * @example
 * const access = requestAccess(catalog, caller?.identity);
 * access.mayCallTool("deploy"); // false for a token without the tool's scopes, or a tool enabled says no to
 */
export function requestAccess(
  catalog: Catalog,
  identity: { readonly scopes: readonly string[] } | undefined,
): McpRequestAccess {
  return {
    mayCallTool(name) {
      const tool = catalog.tools.get(name);
      return tool !== undefined && isGranted(tool, identity?.scopes);
    },
    mayReadResource(uri) {
      return mayReadResource(catalog, uri, identity);
    },
  };
}
