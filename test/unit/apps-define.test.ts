/**
 * mcp-h3/apps at definition time: what `defineMcpApp` and the `_meta` builders write, and the
 * mistakes they refuse with a message naming the app and the field (over HTTP: test/apps.test.ts).
 */
import { describe, expect, it } from "vitest";
import { appToolMeta, appViewMeta, clientSupportsApps, defineMcpApp, uiCapability } from "../../src/_entries/apps.ts";
import type { McpAppOptions } from "../../src/_entries/apps.ts";

const HTML = "<!doctype html><html><body>view</body></html>";

function app(overrides: Partial<McpAppOptions> = {}, view: Partial<McpAppOptions["view"]> = {}) {
  return defineMcpApp({ name: "weather", handler: () => "sunny", ...overrides, view: { html: HTML, ...view } });
}

describe("defineMcpApp", () => {
  it("links the tool to a ui:// view named after it by default, for every host's keys", () => {
    const { tool, view, uri } = app({ openai: { invoking: "Looking…", invoked: "Done" } });
    expect(uri).toBe("ui://weather/view.html");
    expect(view.uri).toBe(uri);
    expect(view.listing).toMatchObject({ uri, name: "weather-view", mimeType: "text/html;profile=mcp-app" });
    expect(tool.listing._meta).toEqual({
      ui: { resourceUri: uri, visibility: ["model", "app"] },
      "ui/resourceUri": uri,
      "openai/outputTemplate": uri,
      "openai/widgetAccessible": true,
      "openai/toolInvocation/invoking": "Looking…",
      "openai/toolInvocation/invoked": "Done",
    });
  });

  it("keeps the author's own _meta, and leaves the ChatGPT keys out with openai: false", () => {
    const { tool } = app({ _meta: { ui: { custom: 1 }, "example/x": true }, openai: false, visibility: ["app"] });
    expect(tool.listing._meta).toEqual({
      "example/x": true,
      ui: { custom: 1, resourceUri: "ui://weather/view.html", visibility: ["app"] },
      "ui/resourceUri": "ui://weather/view.html",
    });
  });

  it("writes the view's _meta.ui and ChatGPT's widget keys on its listing", () => {
    const { view } = app(
      {},
      {
        uri: "ui://weather/v2",
        description: "Forecast",
        csp: { connectDomains: ["https://api.example.com"], frameDomains: ["https://*.example.com"] },
        permissions: { camera: true, clipboardWrite: {} },
        domain: "abc.claudemcpcontent.com",
        prefersBorder: false,
      },
    );
    expect(view.listing._meta).toEqual({
      ui: {
        csp: { connectDomains: ["https://api.example.com"], frameDomains: ["https://*.example.com"] },
        permissions: { camera: {}, clipboardWrite: {} },
        domain: "abc.claudemcpcontent.com",
        prefersBorder: false,
      },
      "openai/widgetCSP": {
        connect_domains: ["https://api.example.com"],
        resource_domains: [],
        frame_domains: ["https://*.example.com"],
      },
      "openai/widgetDomain": "abc.claudemcpcontent.com",
      "openai/widgetPrefersBorder": false,
      "openai/widgetDescription": "Forecast",
    });
  });

  it.each([
    [{}, { uri: "https://example.com/view.html" }, /App "weather": the view's uri must start with "ui:\/\/"/],
    [{}, { uri: "ui://" }, /needs a name after "ui:\/\/"/],
    [{}, { html: 42 as never }, /view.html must be the HTML document/],
    [{}, { cps: {} } as never, /view.cps is unknown \(use uri, name, title, description, html, cacheHints, csp,/],
    [{}, { csp: { connectDomains: ["api.example.com"] } }, /csp.connectDomains: "api.example.com" is not an origin/],
    [{}, { csp: { resourceDomains: ["https://cdn.example.com/lib/"] } }, /write "https:\/\/cdn.example.com"/],
    [{}, { csp: { connectDomains: ["ftp://files.example.com"] } }, /is not an origin/],
    [{}, { csp: { connectDomains: ["https://API.example.com"] } }, /write "https:\/\/api.example.com"/],
    [{}, { csp: { connectDomains: ["https://*.*.example.com"] } }, /is not an origin/],
    [{}, { csp: { connectDomains: ["https://a*b.example.com"] } }, /is not an origin/],
    [{}, { csp: { connectDomains: ["https://*"] } }, /is not an origin/],
    [{}, { csp: { connectDomains: ["https://user@example.com"] } }, /is not an origin/],
    [{}, { csp: { scriptDomains: [] } as never }, /csp.scriptDomains is unknown/],
    [{}, { csp: { connectDomains: "https://a.example" } as never }, /csp.connectDomains must be an array/],
    [{}, { permissions: { usb: true } as never }, /permissions.usb is unknown/],
    [{}, { permissions: { camera: "yes" } as never }, /permissions.camera must be true or \{\}/],
    [{}, { domain: "not a host" }, /domain "not a host" is neither a host name nor an origin/],
    [{}, { prefersBorder: "yes" as never }, /prefersBorder must be a boolean/],
    [{ visibility: [] }, {}, /visibility must list "model" and\/or "app"/],
    [{ visibility: ["model", "model"] }, {}, /visibility must list/],
    [{ visibility: ["user"] as never }, {}, /visibility must list/],
    [{ openai: { invoking: 1 } as never }, {}, /openai.invoking must be a string/],
    [{ name: "bad name" }, {}, /Invalid tool name "bad name"/],
  ] as [Partial<McpAppOptions>, Partial<McpAppOptions["view"]>, RegExp][])(
    "refuses a bad definition: %j %j",
    (overrides, view, message) => {
      expect(() => app(overrides, view)).toThrow(message);
    },
  );

  // Each entry must be what a CSP source expression naming an origin can be: a character that ends the
  // source (";", ",", a space) or a keyword's quote would add a directive, a keyword or another source.
  it.each([
    ["a semicolon", "https://a.example.com;script-src"],
    ["a semicolon and a directive", "https://a.example.com; script-src 'unsafe-eval'"],
    ["a comma", "https://a.example.com,https://evil.example"],
    ["a comma in the host", "https://a,b.example.com"],
    ["a single quote", "https://a'unsafe-eval'.example.com"],
    ["a double quote", 'https://a"b.example.com'],
    ["a space", "https://a.example.com https://evil.example"],
    ["a keyword", "'unsafe-eval'"],
    ["a bare *", "*"],
    ["a javascript: scheme", "javascript:alert(1)"],
    ["a data: scheme", "data:text/html,<script>alert(1)</script>"],
    ["a path", "https://a.example.com/x;script-src"],
    ["a query", "https://a.example.com?x"],
    ["an empty label", "https://a..example.com"],
    ["a $ in the host", "https://a$b.example.com"],
    ["an IPv6 literal", "https://[::1]:8080"],
    ["a port out of range", "https://a.example.com:65536"],
    ["a port with a sign", "https://a.example.com:+80"],
  ])("refuses a CSP entry with %s, naming the app and the entry", (_, entry) => {
    for (const key of ["connectDomains", "resourceDomains", "frameDomains", "baseUriDomains"]) {
      let thrown: unknown;
      try {
        app({}, { csp: { [key]: ["https://ok.example.com", entry] } });
      } catch (error) {
        thrown = error;
      }
      expect(thrown, `${key}: ${entry}`).toBeInstanceOf(TypeError);
      const message = (thrown as Error).message;
      expect(message).toContain('App "weather"');
      expect(message).toContain(`csp.${key}: ${JSON.stringify(entry)} is not an origin`);
    }
  });

  it("accepts an origin with a wildcard subdomain, a port, any port, and the ws schemes", () => {
    const entries = [
      "https://*.example.com",
      "https://api.example.com:8443",
      "https://cdn.example.com:*",
      "http://127.0.0.1:3000",
      "wss://live.example.com",
      "ws://localhost:8080",
    ];
    const { view } = app({}, { csp: { connectDomains: entries } });
    expect(view.listing._meta).toMatchObject({ ui: { csp: { connectDomains: entries } } });
    // A view's own origin is one origin: any port is for the CSP lists only.
    expect(() => app({}, { domain: "https://cdn.example.com:*" })).toThrow(/domain: .* is not an origin/);
  });

  it("refuses an app without a view", () => {
    expect(() => defineMcpApp({ name: "x", handler: () => "" } as never)).toThrow(/App "x": view must be an object/);
  });
});

describe("the _meta builders", () => {
  it("appToolMeta writes an app-only tool's keys, and checks its URI", () => {
    expect(appToolMeta({ resourceUri: "ui://a/b", visibility: ["app"] })).toEqual({
      ui: { resourceUri: "ui://a/b", visibility: ["app"] },
      "ui/resourceUri": "ui://a/b",
      "openai/outputTemplate": "ui://a/b",
      "openai/widgetAccessible": true,
      "openai/visibility": "private",
    });
    expect(appToolMeta({ visibility: ["model"], openai: false })).toEqual({ ui: { visibility: ["model"] } });
    expect(() => appToolMeta({ resourceUri: "file:///x.html" })).toThrow(/appToolMeta: the view's uri must start/);
    expect(() => appToolMeta({ resourceURI: "ui://a/b" } as never)).toThrow(/appToolMeta: resourceURI is unknown/);
  });

  it("appViewMeta writes the content item's keys, and checks them", () => {
    expect(appViewMeta({ csp: { baseUriDomains: ["https://cdn.example.com"] }, openai: false })).toEqual({
      ui: { csp: { baseUriDomains: ["https://cdn.example.com"] } },
    });
    expect(() => appViewMeta({ domain: "https://x.example/path" })).toThrow(/appViewMeta: domain: .* is not an origin/);
    expect(() => appViewMeta({ border: true } as never)).toThrow(/appViewMeta: border is unknown \(use csp,/);
  });
});

describe("clientSupportsApps", () => {
  const ui = (value: unknown) => ({ extensions: { "io.modelcontextprotocol/ui": value } }) as never;

  it("reads the UI extension's mimeTypes from capabilities", () => {
    expect(clientSupportsApps(ui({ mimeTypes: ["text/html;profile=mcp-app"] }))).toBe(true);
    expect(clientSupportsApps(ui({ mimeTypes: ["text/html"] }))).toBe(false);
    expect(clientSupportsApps(ui({}))).toBe(false);
    expect(clientSupportsApps(ui("yes"))).toBe(false);
    expect(clientSupportsApps(ui({ mimeTypes: "text/html;profile=mcp-app" }))).toBe(false);
    expect(clientSupportsApps({})).toBe(false);
    expect(clientSupportsApps(undefined)).toBe(false);
    expect(uiCapability(ui({ mimeTypes: [1, "a"], features: ["x"] }))).toEqual({ mimeTypes: ["a"], features: ["x"] });
  });
});
