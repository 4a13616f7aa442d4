/**
 * mcp-h3/apps: MCP Apps (the `io.modelcontextprotocol/ui` extension, SEP-1865): tools whose results
 * a host renders in a sandboxed view, a `ui://` HTML resource. Imported, not carried: a server that
 * does not import it does not bundle it.
 *
 * @example
 * import { defineMcpApp, clientSupportsApps } from "mcp-h3/apps";
 * const weather = defineMcpApp({ name: "weather", handler, view: { html } });
 * defineMcpHandler({ name: "app", version: "1.0.0", tools: [weather.tool], resources: [weather.view] });
 */
export { defineMcpApp } from "../apps/define-app.ts";
export { appToolMeta, appViewMeta } from "../apps/meta.ts";
export { clientSupportsApps, uiCapability } from "../apps/client-support.ts";
export { MCP_APP_MIME_TYPE, UI_EXTENSION_ID, RESOURCE_URI_META_KEY } from "../apps/constants.ts";
export type {
  McpApp,
  McpAppOptions,
  McpAppViewOptions,
  McpAppViewMeta,
  McpAppCsp,
  McpAppPermissions,
  McpAppVisibility,
  McpAppHtml,
  McpAppOpenAiOptions,
  AppToolMetaOptions,
  AppViewMetaOptions,
  McpUiClientCapability,
  McpAppMeta,
} from "../types/apps.ts";
