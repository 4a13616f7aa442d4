// The weather app from a plain Cloudflare Worker: the view's HTML is bundled into the Worker as a string
// (esbuild's text loader: `--loader:.html=text`), since a Worker has no file system to read it from.
import { defineMcpFetchHandler } from "mcp-h3";
import html from "./weather-view/dist/weather-view.html";
import { weatherApp } from "./weather.ts";

const weather = weatherApp(() => html);

export default defineMcpFetchHandler({
  name: "example-apps-worker",
  version: "1.0.0",
  tools: weather.tools,
  resources: weather.resources,
});
