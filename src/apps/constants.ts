/** The names MCP Apps put on the wire (SEP-1865, `io.modelcontextprotocol/ui`). Data only. */

/** The MIME type of an MCP App view: one HTML document, rendered by the host in a sandboxed frame. */
export const MCP_APP_MIME_TYPE = "text/html;profile=mcp-app";

/** The extension's name, under `capabilities.extensions` of a client that renders apps. */
export const UI_EXTENSION_ID = "io.modelcontextprotocol/ui";

/** The deprecated flat `_meta` key of a tool's view (`_meta.ui.resourceUri` replaces it); still written for older hosts. */
export const RESOURCE_URI_META_KEY = "ui/resourceUri";
