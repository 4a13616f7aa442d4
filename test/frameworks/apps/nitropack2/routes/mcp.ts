/**
 * The MCP endpoint for both eras' clients: a progress tool, an elicitation, a list change,
 * and an MCP App whose view is assets/weather.html, read from the server assets as the README shows.
 */
import { useStorage } from "nitropack/runtime";
import { defineMcpHandler, defineTool } from "mcp-h3";
import { defineMcpApp } from "mcp-h3/apps";
import { z } from "zod";

const weather = defineMcpApp({
  name: "weather",
  description: "Shows the forecast for a city",
  handler: () => ({ content: [{ type: "text", text: "Oslo: 21 °C" }], structuredContent: { celsius: 21 } }),
  view: { html: () => useStorage("assets:server").getItem<string>("weather.html") },
});

export default defineMcpHandler({
  name: "nitropack2-app",
  version: "1.0.0",
  tools: [
    defineTool({
      name: "steps",
      description: "Three progress steps",
      handler: async (event) => {
        for (let step = 1; step <= 3; step++) await event.context.mcp!.progress(step, 3, `step ${step}`);
        return "stepped";
      },
    }),
    defineTool({
      name: "ask",
      description: "Asks the user for a name",
      handler: async (event) => {
        const mcp = event.context.mcp!;
        const answer = await mcp.elicit("who", "Who are you?", z.object({ name: z.string() }));
        return JSON.stringify({ era: mcp.era, answer });
      },
    }),
    defineTool({
      name: "bump",
      description: "Announces that the tool list changed",
      handler: async (event) => {
        await event.context.mcp!.notify.toolsChanged();
        return "bumped";
      },
    }),
    weather.tool,
  ],
  resources: [weather.view],
});
