/** `defineMcpApp()`: a tool and its `ui://` view from one definition, checked once. */
import type { H3Event } from "h3";
import { defineResource, defineTool, encodeBase64 } from "../index.ts";
import type { JsonObject, ResourceContents } from "../index.ts";
import type { McpApp, McpAppHtml, McpAppOptions } from "../types/apps.ts";
import type { SchemaInput } from "../types/definitions.ts";
import { checkKeys, checkOpenAi, checkViewMeta, checkViewUri, checkVisibility } from "./check.ts";
import { MCP_APP_MIME_TYPE } from "./constants.ts";
import { isObject } from "./json.ts";
import { toolMeta, viewMeta } from "./meta.ts";

/** What a view may say. */
const VIEW_KEYS = [
  "uri",
  "name",
  "title",
  "description",
  "html",
  "cacheHints",
  "csp",
  "permissions",
  "domain",
  "prefersBorder",
];

/**
 * Defines an MCP App: a tool whose results a host renders in a view, and that view, a `ui://`
 * resource of MIME type `text/html;profile=mcp-app`. The tool takes what `defineTool` takes; its
 * `tools/list` entry links the view (`_meta.ui.resourceUri`, `_meta.ui.visibility`, the deprecated
 * `ui/resourceUri`, and ChatGPT's `openai/outputTemplate` …). The view's content carries `_meta.ui`
 * (`csp`, `permissions`, `domain`, `prefersBorder`, and ChatGPT's `openai/widgetCSP` …). `scopes`
 * and `enabled` apply to both. Every option is checked now: a view URI that is not `ui://…`, a CSP
 * entry that is not an origin, an unknown permission throw here, not in a host.
 *
 * The tool still answers every client: its `content` is what the model and hosts without UI read
 * (`clientSupportsApps(event)` tells the two apart), its `structuredContent` what the view renders.
 *
 * @example
 * const weather = defineMcpApp({
 *   name: "weather",
 *   description: "Shows the forecast for a city",
 *   input: z.object({ city: z.string() }),
 *   handler: async (_event, { city }) => {
 *     const forecast = await lookup(city);
 *     return { content: [{ type: "text", text: `${city}: ${forecast.celsius} °C` }], structuredContent: forecast };
 *   },
 *   view: {
 *     html: weatherHtml, // one bundled HTML document
 *     csp: { connectDomains: ["https://api.example.com"] },
 *     prefersBorder: true,
 *   },
 * });
 * defineMcpHandler({ name: "app", version: "1.0.0", tools: [weather.tool], resources: [weather.view] });
 */
export function defineMcpApp<
  I extends SchemaInput | undefined = undefined,
  O extends SchemaInput | undefined = undefined,
>(options: McpAppOptions<I, O>): McpApp {
  const { view, visibility, openai, ...toolOptions } = options;
  const name = String(options.name);
  const label = `App "${name}"`;
  if (!isObject(view)) throw new TypeError(`mcp-h3: ${label}: view must be an object with the view's html`);
  checkKeys(view, VIEW_KEYS, "view.", label);
  const html = view.html;
  if (typeof html !== "string" && typeof html !== "function") {
    throw new TypeError(
      `mcp-h3: ${label}: view.html must be the HTML document as a string, or a function of the event`,
    );
  }
  // The default URI is built from the tool name, which defineTool checks below; a valid tool name
  // (letters, digits, "_", "-", ".") is a valid authority.
  const uri = view.uri === undefined ? `ui://${name}/view.html` : checkViewUri(view.uri, label);
  const openaiTool = checkOpenAi(openai, ["invoking", "invoked"], label);
  const linked = toolMeta(uri, checkVisibility(visibility, label) ?? ["model", "app"], openaiTool);
  const given = toolOptions._meta;
  const tool = defineTool<I, O>({
    ...toolOptions,
    // The author's own `_meta` stays; its `ui` object gains the link.
    _meta: { ...given, ...linked, ui: { ...(isObject(given?.ui) ? given.ui : {}), ...(linked.ui as JsonObject) } },
  });

  const meta = viewMeta(
    checkViewMeta(view, label),
    openaiTool === false ? false : view.description === undefined ? {} : { description: view.description },
  );
  const resource = defineResource({
    uri,
    name: view.name ?? `${name}-view`,
    title: view.title,
    description: view.description,
    mimeType: MCP_APP_MIME_TYPE,
    _meta: meta,
    cacheHints: view.cacheHints,
    scopes: options.scopes,
    enabled: options.enabled,
    handler: viewReader(html, uri, meta, label),
  });
  return { tool, view: resource, uri };
}

/** The view's reader: the content item, with `_meta.ui` on it (hosts read it there first). */
function viewReader(
  html: McpAppHtml,
  uri: string,
  meta: JsonObject,
  label: string,
): (event: H3Event) => ResourceContents | undefined | Promise<ResourceContents | undefined> {
  if (typeof html === "string") {
    const content = contentOf(html, uri, meta, label);
    return () => content;
  }
  return async (event) => {
    const value = await html(event);
    return value === undefined || value === null ? undefined : contentOf(value, uri, meta, label);
  };
}

function contentOf(value: unknown, uri: string, meta: JsonObject, label: string): ResourceContents {
  if (typeof value === "string") return { uri, mimeType: MCP_APP_MIME_TYPE, text: value, _meta: meta };
  if (value instanceof Uint8Array) {
    return { uri, mimeType: MCP_APP_MIME_TYPE, blob: encodeBase64(value), _meta: meta };
  }
  throw new TypeError(`mcp-h3: ${label}: view.html returned ${typeof value}; return the HTML as a string or bytes`);
}
