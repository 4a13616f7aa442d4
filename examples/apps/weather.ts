/**
 * A small MCP App: the `show_weather` tool, its view (the `ui://` resource holding the bundled
 * weather-view/index.html) and `refresh_weather`, a tool only the view calls (`visibility: ["app"]`).
 * Built from mcp-h3's plain definitions: the tool links its view in `_meta.ui.resourceUri`, the resource
 * serves one HTML document with the MCP Apps MIME type and its security metadata in `_meta.ui`.
 *
 * `html` says where the view's HTML comes from (a file read on Node, a string bundled into a Worker):
 *
 * ```ts
 * const app = weatherApp(() => readFile("examples/apps/weather-view/dist/weather-view.html", "utf8"));
 * defineMcpHandler({ name: "weather", version: "1.0.0", tools: app.tools, resources: app.resources });
 * ```
 */
import { defineResource, defineTool, type ResourceDefinition, type ToolDefinition } from "mcp-h3";
import { z } from "zod";

/** The view's URI: what the tools name in `_meta.ui.resourceUri` and what hosts `resources/read`. */
export const WEATHER_VIEW_URI = "ui://weather/view.html";
/** The MIME type of an MCP App view (`RESOURCE_MIME_TYPE` of `@modelcontextprotocol/ext-apps`). */
export const MCP_APP_MIME_TYPE = "text/html;profile=mcp-app";

const CONDITIONS = ["sunny", "cloudy", "windy", "rainy", "foggy"] as const;

/** A made-up but stable reading: the same city always gets the same weather. */
function readingFor(city: string, reading: number): { temperatureC: number; conditions: string } {
  let hash = 0;
  for (const char of city) hash = (hash * 31 + char.charCodeAt(0)) % 10_007;
  return { temperatureC: (hash % 30) + (reading % 3), conditions: CONDITIONS[(hash + reading) % CONDITIONS.length]! };
}

const cityInput = z.object({ city: z.string().min(1).max(100).describe("A city name, e.g. Lisbon") });

export function weatherApp(html: () => string | Promise<string>): {
  tools: ToolDefinition[];
  resources: ResourceDefinition[];
} {
  // How often the view asked for a fresh reading since this server started (one number, no per-city state).
  let refreshes = 0;

  const showWeather = defineTool({
    name: "show_weather",
    title: "Show the weather",
    description: "Shows the weather of a city; hosts that render MCP Apps show it in the weather view.",
    input: cityInput,
    annotations: { readOnlyHint: true },
    _meta: {
      // `visibility` defaults to ["model", "app"]; the flat key is the deprecated spelling some hosts still read.
      ui: { resourceUri: WEATHER_VIEW_URI, visibility: ["model", "app"] },
      "ui/resourceUri": WEATHER_VIEW_URI,
    },
    handler: (_event, { city }) => {
      const reading = { city, ...readingFor(city, 1), reading: 1 };
      return {
        // For the model and for hosts without MCP Apps: the same reading as text.
        content: [{ type: "text", text: `${city}: ${reading.temperatureC} °C, ${reading.conditions}` }],
        // For the view.
        structuredContent: reading,
      };
    },
  });

  const refreshWeather = defineTool({
    name: "refresh_weather",
    description: "A fresh reading for the weather view (called by the view through its host, not by the model).",
    input: cityInput,
    _meta: { ui: { resourceUri: WEATHER_VIEW_URI, visibility: ["app"] } },
    handler: (event, { city }) => {
      refreshes = (refreshes % 1_000_000) + 1;
      const reading = refreshes + 1;
      const era = event.context.mcp!.era;
      return {
        content: [{ type: "text", text: `${city}: reading ${reading}` }],
        structuredContent: { city, ...readingFor(city, reading), reading, era },
      };
    },
  });

  const view = defineResource({
    uri: WEATHER_VIEW_URI,
    name: "weather-view",
    title: "Weather view",
    description: "The weather view of show_weather (an MCP App)",
    mimeType: MCP_APP_MIME_TYPE,
    handler: async () => ({
      uri: WEATHER_VIEW_URI,
      mimeType: MCP_APP_MIME_TYPE,
      text: await html(),
      // The view loads nothing from elsewhere and connects nowhere: hosts apply their strictest CSP.
      _meta: { ui: { csp: { connectDomains: [], resourceDomains: [] }, prefersBorder: true } },
    }),
  });

  return { tools: [showWeather, refreshWeather], resources: [view] };
}
