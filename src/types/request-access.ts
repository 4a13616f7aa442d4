/** What a request may use of the server's definitions, as the extension seam hands it out. */

/**
 * What a request may use of the server's definitions, judged as the methods that use them judge it:
 * on the request's own token (not whatever its principal holds elsewhere) and on the answers its
 * definitions' `enabled` gave for it. An extension that serves something on a definition's behalf
 * (work it runs for a tool, whose status and result belong to that tool) asks here.
 */
export interface McpRequestAccess {
  /**
   * Whether this request may call the tool `name`, as `tools/call` would let it: the tool exists,
   * its `enabled` says yes for the request, and (auth on) the token holds every scope it names.
   */
  mayCallTool(name: string): boolean;
  /**
   * Whether this request may read the resource at `uri`, as `resources/read` would let it: a
   * resource or template serves it, its `enabled` says yes, and (auth on) the token holds its scopes.
   */
  mayReadResource(uri: string): boolean;
}
