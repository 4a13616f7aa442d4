/**
 * MCP Apps over real HTTP, on h3 v2 and h3 v1, with the real clients of both eras (sdk 1.x and the
 * 2.x client on a legacy session, the 2.x client pinned to 2026-07-28): the app tool's metadata in
 * `tools/list`, the view in `resources/list` and its `resources/read` content with `_meta.ui`, a
 * view from a function of the event and from bytes, the lower-level way (a plain `defineResource`),
 * an app-only tool, the client's UI support in the context of both eras (and the text a client
 * without it gets), `scopes` and `enabled` on both the tool and its view, and the modern cache
 * hints of a view.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  appToolMeta,
  appViewMeta,
  clientSupportsApps,
  defineMcpApp,
  MCP_APP_MIME_TYPE,
  uiCapability,
} from "../src/_entries/apps.ts";
import { defineMcpHandler, defineResource, defineTool } from "../src/index.ts";
import { APP_CLIENTS, connectAppClient, type AppClient } from "./helpers/app-clients.ts";
import { HOSTS, startHost, type RunningHost } from "./helpers/hosts.ts";
import { legacyPost, modernPost, staticAuth } from "./helpers/auth.ts";
import { expectError, single } from "./helpers/rpc.ts";

const HTML = "<!doctype html><html><head><title>Weather</title></head><body><main id=app></main></body></html>";
/** Origins in every form a CSP entry may take: a wildcard subdomain, a port, any port, the ws schemes. */
const CSP = {
  connectDomains: ["https://api.example.com", "wss://live.example.com", "https://*.example.com:8443"],
  resourceDomains: ["https://cdn.example.com", "https://*.cdn.example.com:*", "http://127.0.0.1:3000"],
};
const beta = { on: true };

const weather = defineMcpApp({
  name: "weather",
  description: "Shows the forecast for a city",
  input: { type: "object", properties: { city: { type: "string" } }, required: ["city"] },
  // A host that renders the view gets a short line and the data; any other client, the whole answer in text.
  handler: (event, { city }) =>
    clientSupportsApps(event)
      ? {
          content: [{ type: "text", text: `Forecast for ${String(city)} shown in the view.` }],
          structuredContent: { city: String(city), celsius: 21, sky: "sunny" },
        }
      : `${String(city)}: 21 °C, sunny`,
  openai: { invoking: "Fetching the forecast…", invoked: "Forecast ready" },
  view: {
    title: "Weather",
    description: "The forecast, drawn",
    html: HTML,
    csp: CSP,
    permissions: { clipboardWrite: true },
    prefersBorder: true,
    cacheHints: { ttlMs: 60_000, cacheScope: "public" },
  },
});

/** Called by the view only (through the host): hidden from the model. */
const refresh = defineTool({
  name: "weather-refresh",
  description: "Refreshes the forecast the view shows",
  _meta: appToolMeta({ resourceUri: weather.uri, visibility: ["app"] }),
  handler: () => ({ content: [{ type: "text", text: "22 °C" }], structuredContent: { celsius: 22 } }),
});

/** The lower-level way: a plain resource with the app MIME type and the view's metadata. */
const plainView = defineResource({
  uri: "ui://plain/view.html",
  name: "plain-view",
  mimeType: MCP_APP_MIME_TYPE,
  _meta: appViewMeta({ prefersBorder: false }),
  handler: (_event, uri) => ({
    uri: uri.href,
    mimeType: MCP_APP_MIME_TYPE,
    text: HTML,
    _meta: appViewMeta({ prefersBorder: false, csp: { frameDomains: ["https://*.example.com"] }, openai: false }),
  }),
});

/** A view made per request, from the event. */
const clock = defineMcpApp({
  name: "clock",
  handler: () => "12:00",
  view: { uri: "ui://clock/face", html: async (event) => `<!doctype html><p>era ${event.context.mcp?.era}</p>` },
});

/** A view read as bytes (as a file or a Nitro server asset may come): sent as a base64 blob. */
const bytes = defineMcpApp({
  name: "bytes",
  handler: () => "bytes",
  view: { html: () => new TextEncoder().encode(HTML) },
});

const gated = defineMcpApp({ name: "beta", enabled: () => beta.on, handler: () => "beta", view: { html: HTML } });

/** Shown only to clients that render app views: `enabled` reads the request's context. */
const viewsOnly = defineMcpApp({
  name: "views-only",
  enabled: clientSupportsApps,
  handler: () => "drawn",
  view: { html: HTML },
});

const support = defineTool({
  name: "ui-support",
  handler: (event) => JSON.stringify({ supports: clientSupportsApps(event), capability: uiCapability(event) ?? null }),
});

function handler() {
  return defineMcpHandler({
    name: "apps",
    version: "1.0.0",
    tools: [weather.tool, refresh, clock.tool, bytes.tool, gated.tool, viewsOnly.tool, support],
    resources: [weather.view, plainView, clock.view, bytes.view, gated.view, viewsOnly.view],
  });
}

describe.each(HOSTS)("MCP Apps on %s", (host) => {
  let server: RunningHost;
  beforeAll(async () => {
    server = await startHost(host, handler());
  });
  afterAll(() => server.close());

  describe.each(APP_CLIENTS)("with %s", (clientName) => {
    async function withClient<T>(ui: boolean, body: (client: AppClient) => Promise<T>): Promise<T> {
      const client = await connectAppClient(clientName, server.url, { ui });
      try {
        return await body(client);
      } finally {
        await client.close();
      }
    }

    it("tools/list: the app tool links its view for every host; the app-only tool says so", async () => {
      await withClient(true, async (client) => {
        const { tools } = await client.listTools();
        expect(tools.find((tool) => tool.name === "weather")?._meta).toEqual({
          ui: { resourceUri: "ui://weather/view.html", visibility: ["model", "app"] },
          "ui/resourceUri": "ui://weather/view.html",
          "openai/outputTemplate": "ui://weather/view.html",
          "openai/widgetAccessible": true,
          "openai/toolInvocation/invoking": "Fetching the forecast…",
          "openai/toolInvocation/invoked": "Forecast ready",
        });
        expect(tools.find((tool) => tool.name === "weather-refresh")?._meta).toMatchObject({
          ui: { resourceUri: "ui://weather/view.html", visibility: ["app"] },
          "openai/visibility": "private",
        });
      });
    });

    it("resources/list: the views are listed with the app MIME type and their metadata", async () => {
      await withClient(true, async (client) => {
        const { resources } = await client.listResources();
        expect(resources.map((resource) => [resource.uri, resource.name, resource.mimeType])).toEqual([
          ["ui://weather/view.html", "weather-view", MCP_APP_MIME_TYPE],
          ["ui://plain/view.html", "plain-view", MCP_APP_MIME_TYPE],
          ["ui://clock/face", "clock-view", MCP_APP_MIME_TYPE],
          ["ui://bytes/view.html", "bytes-view", MCP_APP_MIME_TYPE],
          ["ui://beta/view.html", "beta-view", MCP_APP_MIME_TYPE],
          ["ui://views-only/view.html", "views-only-view", MCP_APP_MIME_TYPE],
        ]);
        expect(resources[0]!._meta).toMatchObject({ ui: { csp: CSP, prefersBorder: true } });
      });
    });

    it("resources/read: one HTML document with _meta.ui on the content item", async () => {
      await withClient(true, async (client) => {
        const { contents } = await client.readResource(weather.uri);
        expect(contents).toEqual([
          {
            uri: "ui://weather/view.html",
            mimeType: MCP_APP_MIME_TYPE,
            text: HTML,
            _meta: {
              ui: { csp: CSP, permissions: { clipboardWrite: {} }, prefersBorder: true },
              "openai/widgetCSP": { connect_domains: CSP.connectDomains, resource_domains: CSP.resourceDomains },
              "openai/widgetPrefersBorder": true,
              "openai/widgetDescription": "The forecast, drawn",
            },
          },
        ]);
        expect((await client.readResource("ui://plain/view.html")).contents).toEqual([
          {
            uri: "ui://plain/view.html",
            mimeType: MCP_APP_MIME_TYPE,
            text: HTML,
            _meta: { ui: { prefersBorder: false, csp: { frameDomains: ["https://*.example.com"] } } },
          },
        ]);
        expect((await client.readResource("ui://clock/face")).contents[0]!.text).toBe(
          `<!doctype html><p>era ${client.era}</p>`,
        );
        const blob = (await client.readResource("ui://bytes/view.html")).contents[0]!;
        expect(blob.mimeType).toBe(MCP_APP_MIME_TYPE);
        expect(new TextDecoder().decode(Uint8Array.from(atob(blob.blob!), (c) => c.charCodeAt(0)))).toBe(HTML);
      });
    });

    it("a client that renders apps gets the data for the view; one that does not, the answer in text", async () => {
      const withUi = await withClient(true, (client) => client.callTool("weather", { city: "Oslo" }));
      expect(withUi.content).toEqual([{ type: "text", text: "Forecast for Oslo shown in the view." }]);
      expect(withUi.structuredContent).toEqual({ city: "Oslo", celsius: 21, sky: "sunny" });
      const without = await withClient(false, (client) => client.callTool("weather", { city: "Oslo" }));
      expect(without.content).toEqual([{ type: "text", text: "Oslo: 21 °C, sunny" }]);
      expect(without.structuredContent).toBeUndefined();
    });

    it("the context carries the client's UI extension (legacy: from initialize; modern: from the request)", async () => {
      const read = async (ui: boolean) =>
        withClient(ui, async (client) => JSON.parse((await client.callTool("ui-support")).content![0]!.text!));
      expect(await read(true)).toEqual({ supports: true, capability: { mimeTypes: [MCP_APP_MIME_TYPE] } });
      expect(await read(false)).toEqual({ supports: false, capability: null });
    });

    it("enabled sees event.context.mcp: `enabled: clientSupportsApps` hides an app from clients that render no views", async () => {
      const seen = async (ui: boolean) =>
        withClient(ui, async (client) => ({
          tool: (await client.listTools()).tools.some((tool) => tool.name === "views-only"),
          view: (await client.listResources()).resources.some((resource) => resource.uri === viewsOnly.uri),
          call: await client.callTool("views-only").then(
            (result) => result.content,
            (error: Error) => error.message,
          ),
        }));
      expect(await seen(true)).toEqual({ tool: true, view: true, call: [{ type: "text", text: "drawn" }] });
      const hidden = await seen(false);
      expect(hidden).toMatchObject({ tool: false, view: false });
      expect(hidden.call).toMatch(/Unknown tool/);
    });

    it("enabled hides both the tool and its view, and shows both again", async () => {
      await withClient(true, async (client) => {
        beta.on = false;
        try {
          expect((await client.listTools()).tools.map((tool) => tool.name)).not.toContain("beta");
          expect((await client.listResources()).resources.map((r) => r.uri)).not.toContain(gated.uri);
          await expect(client.readResource(gated.uri)).rejects.toThrow(/Resource not found/);
          await expect(client.callTool("beta")).rejects.toThrow(/Unknown tool/);
        } finally {
          beta.on = true;
        }
        expect((await client.listTools()).tools.map((tool) => tool.name)).toContain("beta");
        expect((await client.readResource(gated.uri)).contents[0]!.text).toBe(HTML);
        expect((await client.callTool("beta")).content).toEqual([{ type: "text", text: "beta" }]);
      });
    });
  });

  it("2026-07-28: the view's resources/read carries its cache hints; legacy has none", async () => {
    const modern = single(await modernPost(server.url, "unused", "resources/read", { uri: weather.uri }));
    expect(modern.result).toMatchObject({ ttlMs: 60_000, cacheScope: "public" });
    const legacy = single(await legacyPost(server.url, "unused", "resources/read", { uri: weather.uri }));
    expect(legacy.result).not.toHaveProperty("ttlMs");
    expect((legacy.result!.contents as { text: string }[])[0]!.text).toBe(HTML);
  });
});

/** An app that needs the `write` scope: alice has it, reader does not. */
const ledger = defineMcpApp({
  name: "ledger",
  scopes: ["write"],
  handler: () => "balance: 10",
  view: { html: HTML },
});

describe.each(HOSTS)("MCP Apps with scopes on %s", (host) => {
  let server: RunningHost;
  beforeAll(async () => {
    server = await startHost(
      host,
      defineMcpHandler({
        name: "apps-scoped",
        version: "1.0.0",
        auth: staticAuth(),
        tools: [ledger.tool, support],
        resources: [ledger.view],
      }),
    );
  });
  afterAll(() => server.close());

  it.each(APP_CLIENTS)("%s: a token without the scope sees neither the tool nor its view", async (clientName) => {
    for (const [token, listed] of [
      ["reader-token", false],
      ["alice-token", true],
    ] as const) {
      const client = await connectAppClient(clientName, server.url, { ui: true, token });
      try {
        expect((await client.listTools()).tools.some((tool) => tool.name === "ledger")).toBe(listed);
        expect((await client.listResources()).resources.some((resource) => resource.uri === ledger.uri)).toBe(listed);
        if (listed) expect((await client.readResource(ledger.uri)).contents[0]!.text).toBe(HTML);
      } finally {
        await client.close();
      }
    }
  });

  for (const [era, send] of [
    ["modern", modernPost],
    ["legacy", legacyPost],
  ] as const) {
    it(`${era}: reading the view or calling the tool without the scope is refused (403)`, async () => {
      for (const [method, params] of [
        ["resources/read", { uri: ledger.uri }],
        ["tools/call", { name: "ledger", arguments: {} }],
      ] as const) {
        const answer = await send(server.url, "reader-token", method, params);
        expectError(answer, 403, -32000, /Forbidden/);
        expect(answer.text).not.toMatch(/doctype|balance/);
      }
      const read = single(await send(server.url, "alice-token", "resources/read", { uri: ledger.uri }));
      expect((read.result!.contents as { text: string }[])[0]!.text).toBe(HTML);
    });
  }
});
