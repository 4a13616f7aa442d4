/**
 * The `_meta` of an app's tool and of its view, as hosts read them: the standard `ui` object, the
 * deprecated flat `ui/resourceUri`, and the keys ChatGPT reads (`openai/…`), which peers write next
 * to the standard ones. Usable alone, on a plain `defineTool` / `defineResource`.
 */
import type { JsonObject } from "../index.ts";
import type { AppToolMetaOptions, AppViewMetaOptions, McpAppViewMeta, McpAppVisibility } from "../types/apps.ts";
import { checkKeys, checkOpenAi, checkViewMeta, checkViewUri, checkVisibility } from "./check.ts";
import { RESOURCE_URI_META_KEY } from "./constants.ts";

const DEFAULT_VISIBILITY: readonly McpAppVisibility[] = ["model", "app"];
const TOOL_OPENAI_KEYS = ["invoking", "invoked"];
const VIEW_OPENAI_KEYS = ["description"];

/**
 * The `_meta` that links a tool to its view: `ui.resourceUri` and `ui.visibility`, the deprecated
 * `ui/resourceUri`, and for ChatGPT `openai/outputTemplate`, `openai/widgetAccessible` (the view may
 * call the tool), `openai/visibility: "private"` (for a tool the model must not see) and the
 * `openai/toolInvocation/*` status lines. Throws on a URI that is not `ui://…` or a bad visibility.
 *
 * @example
 * // A tool only the view calls (hidden from the model), next to an app:
 * const refresh = defineTool({
 *   name: "refresh-forecast",
 *   _meta: appToolMeta({ resourceUri: weather.uri, visibility: ["app"] }),
 *   handler: () => ({ content: [{ type: "text", text: "refreshed" }] }),
 * });
 */
export function appToolMeta(options: AppToolMetaOptions): JsonObject {
  const label = "appToolMeta";
  checkKeys(options, ["resourceUri", "visibility", "openai"], "", label);
  const uri = options.resourceUri === undefined ? undefined : checkViewUri(options.resourceUri, label);
  const visibility = checkVisibility(options.visibility, label) ?? [...DEFAULT_VISIBILITY];
  return toolMeta(uri, visibility, checkOpenAi(options.openai, TOOL_OPENAI_KEYS, label));
}

/**
 * The `_meta` of a view's content item (what `resources/read` answers) and of its `resources/list`
 * entry: `ui` with `csp`, `permissions`, `domain`, `prefersBorder`, and for ChatGPT
 * `openai/widgetCSP` (its snake_case lists), `openai/widgetDomain`, `openai/widgetPrefersBorder`,
 * `openai/widgetDescription`. Throws on a CSP entry that is not an origin, an unknown permission, …
 *
 * @example
 * const view = defineResource({
 *   uri: "ui://weather/view.html",
 *   name: "weather-view",
 *   mimeType: MCP_APP_MIME_TYPE,
 *   handler: (_event, uri) => ({
 *     uri: uri.href,
 *     mimeType: MCP_APP_MIME_TYPE,
 *     text: html,
 *     _meta: appViewMeta({ csp: { connectDomains: ["https://api.example.com"] }, prefersBorder: true }),
 *   }),
 * });
 */
export function appViewMeta(options: AppViewMetaOptions): JsonObject {
  const label = "appViewMeta";
  checkKeys(options, ["csp", "permissions", "domain", "prefersBorder", "openai"], "", label);
  return viewMeta(checkViewMeta(options, label), checkOpenAi(options.openai, VIEW_OPENAI_KEYS, label));
}

/** {@link appToolMeta} from checked values. */
export function toolMeta(
  uri: string | undefined,
  visibility: readonly McpAppVisibility[],
  openai: Record<string, string> | false,
): JsonObject {
  const ui: JsonObject = uri === undefined ? {} : { resourceUri: uri };
  ui.visibility = [...visibility];
  const meta: JsonObject = { ui };
  if (uri !== undefined) meta[RESOURCE_URI_META_KEY] = uri;
  if (openai === false) return meta;
  if (uri !== undefined) meta["openai/outputTemplate"] = uri;
  meta["openai/widgetAccessible"] = visibility.includes("app");
  if (!visibility.includes("model")) meta["openai/visibility"] = "private";
  if (openai.invoking !== undefined) meta["openai/toolInvocation/invoking"] = openai.invoking;
  if (openai.invoked !== undefined) meta["openai/toolInvocation/invoked"] = openai.invoked;
  return meta;
}

/** {@link appViewMeta} from checked values. */
export function viewMeta(checked: McpAppViewMeta, openai: Record<string, string> | false): JsonObject {
  const meta: JsonObject = { ui: { ...checked } as JsonObject };
  if (openai === false) return meta;
  const { csp, domain, prefersBorder } = checked;
  if (csp !== undefined) {
    const widgetCsp: JsonObject = {
      connect_domains: csp.connectDomains ?? [],
      resource_domains: csp.resourceDomains ?? [],
    };
    if (csp.frameDomains !== undefined) widgetCsp.frame_domains = csp.frameDomains;
    meta["openai/widgetCSP"] = widgetCsp;
  }
  if (domain !== undefined) meta["openai/widgetDomain"] = domain;
  if (prefersBorder !== undefined) meta["openai/widgetPrefersBorder"] = prefersBorder;
  if (openai.description !== undefined) meta["openai/widgetDescription"] = openai.description;
  return meta;
}
