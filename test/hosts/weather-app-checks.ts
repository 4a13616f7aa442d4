/**
 * What a host sees of examples/apps' weather app, in both eras, with the 2.x client (`legacy` mode, and
 * pinned to 2026-07-28) declaring MCP Apps support: the tool links its view, the app-only tool is marked,
 * the view reads back as the built HTML with its `_meta.ui`, and both tools answer. Shared by the
 * example's runs on Node and in workerd.
 */
import { describe, expect, it } from "vitest";
import { Client, StreamableHTTPClientTransport } from "@modelcontextprotocol/client";
import { ERAS, type Era } from "../helpers/era-clients.ts";
import { MODERN_PROTOCOL_VERSION } from "../helpers/modern-clients.ts";

const VIEW_URI = "ui://weather/view.html";
const APP_MIME_TYPE = "text/html;profile=mcp-app";

async function connect(era: Era, url: string): Promise<Client> {
  const client = new Client(
    { name: "weather-app-check", version: "1.0.0" },
    {
      capabilities: { extensions: { "io.modelcontextprotocol/ui": { mimeTypes: [APP_MIME_TYPE] } } },
      versionNegotiation: era === "modern" ? { mode: { pin: MODERN_PROTOCOL_VERSION } } : { mode: "legacy" },
    },
  );
  await client.connect(new StreamableHTTPClientTransport(new URL(url)));
  return client;
}

/** `url`: the example's MCP endpoint; `viewHtml`: the built view the example must serve, byte for byte. */
export function describeWeatherApp(url: () => string, viewHtml: () => string): void {
  describe.each(ERAS)("the weather app, %s era", (era) => {
    it("lists show_weather linked to its view and refresh_weather for the view only", async () => {
      const client = await connect(era, url());
      try {
        const { tools } = await client.listTools();
        const show = tools.find((tool) => tool.name === "show_weather");
        const refresh = tools.find((tool) => tool.name === "refresh_weather");
        expect(show?._meta).toMatchObject({
          ui: { resourceUri: VIEW_URI, visibility: ["model", "app"] },
          "ui/resourceUri": VIEW_URI,
        });
        expect(refresh?._meta).toMatchObject({ ui: { resourceUri: VIEW_URI, visibility: ["app"] } });
      } finally {
        await client.close();
      }
    });

    it("serves the built view as one HTML document with its _meta.ui", async () => {
      const client = await connect(era, url());
      try {
        const { contents } = await client.readResource({ uri: VIEW_URI });
        expect(contents).toHaveLength(1);
        const [content] = contents;
        expect(content).toMatchObject({
          uri: VIEW_URI,
          mimeType: APP_MIME_TYPE,
          _meta: { ui: { csp: { connectDomains: [], resourceDomains: [] }, prefersBorder: true } },
        });
        expect((content as { text?: string }).text).toBe(viewHtml());
      } finally {
        await client.close();
      }
    });

    it("answers show_weather with text for the model and structured content for the view, and refresh_weather", async () => {
      const client = await connect(era, url());
      try {
        const shown = await client.callTool({ name: "show_weather", arguments: { city: "Lisbon" } });
        expect(shown.structuredContent).toMatchObject({ city: "Lisbon", reading: 1 });
        expect(shown.content).toEqual([{ type: "text", text: expect.stringMatching(/^Lisbon: \d+ °C, \w+$/) }]);
        const refreshed = await client.callTool({ name: "refresh_weather", arguments: { city: "Lisbon" } });
        expect(refreshed.structuredContent).toMatchObject({ city: "Lisbon", era });
      } finally {
        await client.close();
      }
    });
  });
}
