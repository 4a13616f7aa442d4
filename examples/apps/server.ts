// An MCP App served by an h3 v2 app on srvx: show_weather and its view, plus the app-only refresh_weather.
// Build the view first (node scripts/build-app-views.mjs): it becomes one HTML file the server reads here.
import { existsSync, readFileSync } from "node:fs";
import { H3 } from "h3";
import { defineMcpHandler } from "mcp-h3";
import { serve } from "srvx";
import { weatherApp } from "./weather.ts";

const viewFile = new URL("./weather-view/dist/weather-view.html", import.meta.url);
if (!existsSync(viewFile)) {
  console.error("The weather view is not built: run `node scripts/build-app-views.mjs` from the repository root.");
  process.exit(1);
}
const html = readFileSync(viewFile, "utf8");
const weather = weatherApp(() => html);

const app = new H3().all(
  "/mcp",
  defineMcpHandler({ name: "example-apps", version: "1.0.0", tools: weather.tools, resources: weather.resources }),
);

serve({ fetch: app.fetch, hostname: "127.0.0.1", port: Number(process.env.PORT ?? 3000) });
