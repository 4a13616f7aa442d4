/**
 * The playground endpoint's options that are code, merged over the `mcp` key of nitro.config.ts: the
 * tasks extension (countdown may run as a task), the activity hooks, and the weather MCP App, whose
 * tools and view come from examples/apps (`npm run playground` bundles the view into one HTML file
 * first; Nitro imports .html files as text).
 */
import { tasks } from "mcp-h3/tasks";
import { activityHooks } from "../activity/log";
import { weatherApp } from "../../examples/apps/weather";
import weatherViewHtml from "../../examples/apps/weather-view/dist/weather-view.html";

const weather = weatherApp(() => weatherViewHtml);

export default defineMcpConfig({
  extensions: [tasks()],
  tools: weather.tools,
  resources: weather.resources,
  // Feeds the live activity on the playground's page (/): one entry per request, from the library's own hooks.
  hooks: activityHooks,
});
