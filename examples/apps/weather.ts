/**
 * A small MCP App: the `show_weather` tool with its view (one `defineMcpApp`: the tool, and the `ui://`
 * resource serving the bundled weather-view/index.html), and `refresh_weather`, a tool only the view
 * calls (`visibility: ["app"]`, hidden from the model).
 *
 * `html` says where the view's HTML comes from (a file read on Node, a string bundled into a Worker):
 *
 * ```ts
 * const app = weatherApp(() => readFile("examples/apps/weather-view/dist/weather-view.html", "utf8"));
 * defineMcpHandler({ name: "weather", version: "1.0.0", tools: app.tools, resources: app.resources });
 * ```
 */
import { defineTool, type ResourceDefinition, type ToolDefinition } from "mcp-h3";
import { appToolMeta, defineMcpApp } from "mcp-h3/apps";
import { z } from "zod";

/** The view's URI: what the tools name in `_meta.ui.resourceUri` and what hosts `resources/read`. */
export const WEATHER_VIEW_URI = "ui://weather/view.html";

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

  const showWeather = defineMcpApp({
    name: "show_weather",
    title: "Show the weather",
    description: "Shows the weather of a city; hosts that render MCP Apps show it in the weather view.",
    input: cityInput,
    annotations: { readOnlyHint: true },
    handler: (_event, { city }) => {
      const reading = { city, ...readingFor(city, 1), reading: 1 };
      return {
        // For the model and for hosts without MCP Apps: the same reading as text.
        content: [{ type: "text", text: `${city}: ${reading.temperatureC} °C, ${reading.conditions}` }],
        // For the view.
        structuredContent: reading,
      };
    },
    view: {
      uri: WEATHER_VIEW_URI,
      name: "weather-view",
      title: "Weather view",
      description: "The weather view of show_weather (an MCP App)",
      html,
      // The view loads nothing from elsewhere and connects nowhere: hosts apply their strictest CSP.
      csp: { connectDomains: [], resourceDomains: [] },
      prefersBorder: true,
    },
  });

  const refreshWeather = defineTool({
    name: "refresh_weather",
    description: "A fresh reading for the weather view (called by the view through its host, not by the model).",
    input: cityInput,
    _meta: appToolMeta({ resourceUri: showWeather.uri, visibility: ["app"] }),
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

  return { tools: [showWeather.tool, refreshWeather], resources: [showWeather.view] };
}
