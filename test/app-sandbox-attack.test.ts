/**
 * The MCP App sandbox under attack (issue 32, item 1), in headless Chromium with host names mapped to 127.0.0.1
 * (`--host-resolver-rules`): an attacker's page on another host name (`evil.test`) frames the inspector's sandbox
 * proxy, asks for `allow-scripts allow-same-origin`, and sends HTML that calls a tool on `/mcp` and posts what it got
 * to its parent. In the default mode (the page on localhost, the sandbox on the machine's other loopback name) and in
 * the deployed one (`enabled: true`, page on `app.test`, `appSandboxOrigin` on `sandbox.test`), the proxy must never
 * answer that page, the HTML must never run, and no call may reach the server. The views the inspector shows itself
 * still work, and run in an opaque origin: never the origin of `/mcp`.
 * Under CI=true a missing chromium fails the suite; elsewhere it is skipped with a note.
 */
import { createServer, type RequestListener, type Server } from "node:http";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { chromium, type Browser, type Frame, type Page } from "playwright-core";
import { H3, toNodeHandler } from "h3";
import { defineMcpHandler, defineTool, type McpEventHandler } from "mcp-h3";
import { defineMcpInspector, type McpInspectorHandler } from "mcp-h3/inspector";
import { CHROMIUM, unavailable } from "./helpers/services.ts";
import { fixtureApp } from "./conformance/app-tools.ts";
import { ensureInspectorPage } from "./helpers/inspector-host.ts";
import { freePort } from "./helpers/free-port.ts";

const haveChromium = !unavailable(CHROMIUM);
const chromiumPath = CHROMIUM.path ?? "chromium";

/**
 * The attacker's HTML for the view slot: it says where it runs, then calls `secret` on /mcp (the modern era, every
 * header a client sends) and posts the answer to its parent, which the proxy relays to whoever it takes for its host.
 */
const PAYLOAD = `<script>
parent.postMessage({ ran: String(self.origin) }, "*");
fetch("/mcp", {
  method: "POST",
  headers: { "content-type": "application/json", accept: "application/json, text/event-stream",
    "mcp-protocol-version": "2026-07-28", "mcp-method": "tools/call", "mcp-name": "secret" },
  body: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "tools/call", params: { name: "secret", arguments: {},
    _meta: { "io.modelcontextprotocol/protocolVersion": "2026-07-28", "io.modelcontextprotocol/clientCapabilities": {} } } }),
}).then((response) => response.text()).then((text) => parent.postMessage({ stolen: text }, "*"),
  (error) => parent.postMessage({ failed: String(error) }, "*"));
</script>`;

/** The attacker's page: frames `?target=` with the flags it likes and plays the host to whatever answers. */
function attackerPage(): string {
  return `<!doctype html><html><body><script>
window.seen = [];
const target = new URLSearchParams(location.search).get("target");
const csp = { connectDomains: [new URL(target).origin] };
const frame = document.createElement("iframe");
frame.setAttribute("sandbox", "allow-scripts allow-same-origin");
frame.src = target + "&csp=" + encodeURIComponent(JSON.stringify(csp));
addEventListener("message", (event) => {
  if (event.source !== frame.contentWindow) return;
  window.seen.push(event.data);
  if (event.data && event.data.method === "ui/notifications/sandbox-proxy-ready") {
    frame.contentWindow.postMessage({ jsonrpc: "2.0", method: "ui/notifications/sandbox-resource-ready",
      params: { html: ${JSON.stringify(PAYLOAD).replace(/<\//g, "<\\/")}, csp, sandbox: "allow-scripts allow-same-origin" } }, "*");
  }
});
document.body.append(frame);
</script></body></html>`;
}

function listen(server: Server, port: number): Promise<void> {
  return new Promise((resolve) => server.listen(port, "127.0.0.1", resolve));
}

function closeServer(server: Server | undefined): Promise<void> {
  if (!server) return Promise.resolve();
  server.closeAllConnections();
  return new Promise((resolve) => server.close(() => resolve()));
}

describe.skipIf(!haveChromium)("the MCP App sandbox against a page of another site", () => {
  let browser: Browser | undefined;
  let app: Server | undefined;
  let attacker: Server | undefined;
  let handler: McpEventHandler;
  let port = 0;
  let attackerOrigin = "";
  /** Tools that reached the server, by name. */
  const called: string[] = [];
  let deployed: McpInspectorHandler | undefined;

  beforeAll(async () => {
    await ensureInspectorPage();
    port = await freePort();
    const names = ["localhost", "127.0.0.1", "app.test", "sandbox.test"];
    handler = defineMcpHandler({
      name: "sandbox-attack",
      version: "1.0.0",
      tools: [...fixtureApp.tools, defineTool({ name: "secret", handler: () => "the secret" })],
      resources: fixtureApp.resources,
      allowedHosts: names,
      allowedOrigins: names,
      hooks: { onResponse: ({ method, name }) => void (method === "tools/call" && called.push(String(name))) },
    });
    deployed = defineMcpInspector({
      enabled: true,
      appSandboxOrigin: `http://sandbox.test:${port}`,
      pageOrigin: `http://app.test:${port}`,
    } as Parameters<typeof defineMcpInspector>[0]);
    const loopback = defineMcpInspector();
    const h3 = new H3()
      .all("/mcp", handler)
      .get("/inspector", loopback)
      .get("/deployed", (event) => deployed!(event));
    app = createServer(toNodeHandler(h3) as RequestListener);
    await listen(app, port);
    const attackerPort = await freePort();
    attackerOrigin = `http://evil.test:${attackerPort}`;
    attacker = createServer((_request, response) => {
      response.writeHead(200, { "content-type": "text/html; charset=utf-8" });
      response.end(attackerPage());
    });
    await listen(attacker, attackerPort);
    browser = await chromium.launch({
      executablePath: chromiumPath,
      args: [
        "--no-sandbox",
        "--host-resolver-rules=MAP evil.test 127.0.0.1, MAP app.test 127.0.0.1, MAP sandbox.test 127.0.0.1",
      ],
    });
  }, 60_000);

  afterAll(async () => {
    await browser?.close();
    await closeServer(app);
    await closeServer(attacker);
    await handler?.close();
  });

  /** Opens the attacker's page framing `target`, waits long enough for the whole exchange, returns what it saw. */
  async function attack(target: string): Promise<unknown[]> {
    const page = await browser!.newPage();
    try {
      const before = called.length;
      await page.goto(`${attackerOrigin}/?target=${encodeURIComponent(target)}`);
      // The whole exchange takes a few milliseconds when it works (see the first case before the fix).
      await page.waitForTimeout(1500);
      const seen = await page.evaluate(() => (window as unknown as { seen: unknown[] }).seen);
      expect(called.slice(before)).toEqual([]);
      return seen;
    } finally {
      await page.close();
    }
  }

  const loopbackTargets = (): string[] => [
    `http://127.0.0.1:${port}/inspector?mcp-app-sandbox=1`,
    `http://localhost:${port}/inspector?mcp-app-sandbox=1`,
  ];

  it("default mode: a page on another host name that frames the sandbox (either loopback name) gets nothing", async () => {
    for (const target of loopbackTargets()) expect(await attack(target)).toEqual([]);
  });

  it("deployed mode: neither the sandbox origin nor the app's own host lets that page drive a sandbox", async () => {
    for (const host of ["sandbox.test", "app.test"]) {
      expect(await attack(`http://${host}:${port}/deployed?mcp-app-sandbox=1`)).toEqual([]);
    }
  });

  /** The inspector page at `url` calls show_weather and waits for its view; returns the proxy and view frames. */
  async function showWeather(page: Page, url: string): Promise<{ proxy: Frame; view: Frame }> {
    await page.goto(url);
    await page.click("#connect");
    await page.locator("#negotiated-version").waitFor({ timeout: 15_000 });
    await page.click("#tools button[data-tool='show_weather']");
    await page.fill("#arg-city", "Lisbon");
    await page.getByRole("button", { name: "Call show_weather" }).click();
    await page.locator("#app-log li", { hasText: "tool result sent" }).waitFor({ timeout: 15_000 });
    const viewLocator = page.frameLocator("#view-frame").frameLocator("iframe");
    await viewLocator.locator("#result", { hasText: /^Lisbon: -?\d+ °C/ }).waitFor();
    const proxy = page.frames().find((frame) => frame.parentFrame() === page.mainFrame())!;
    const view = page.frames().find((frame) => frame.parentFrame() === proxy)!;
    return { proxy, view };
  }

  for (const mode of ["default", "deployed"] as const) {
    it(`${mode} mode: the inspector's own view works, and neither it nor its proxy runs in the origin of /mcp`, async () => {
      const page = await browser!.newPage();
      try {
        const url =
          mode === "default"
            ? `http://localhost:${port}/inspector?era=modern`
            : `http://app.test:${port}/deployed?era=modern&endpoint=/mcp`;
        const { proxy, view } = await showWeather(page, url);
        expect(await proxy.evaluate(() => self.origin)).toBe("null");
        expect(await view.evaluate(() => self.origin)).toBe("null");
        expect(await page.frameLocator("#view-frame").locator("iframe").getAttribute("sandbox")).toBe("allow-scripts");
        const before = called.length;
        await page
          .frameLocator("#view-frame")
          .frameLocator("iframe")
          .getByRole("button", { name: "Refresh through the host" })
          .click();
        await page.locator("#app-log li", { hasText: "view got refresh_weather's result" }).waitFor();
        expect(called.slice(before)).toEqual(["refresh_weather"]);
      } finally {
        await page.close();
      }
    });
  }
});
