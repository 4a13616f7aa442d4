/**
 * MCP Apps in a real host (issue 24): Debian's chromium, headless (playwright-core), opens a host page
 * built on `@modelcontextprotocol/ext-apps/app-bridge` and the 2.x MCP client, which talks to mcp-h3 over
 * HTTP in the era the case names. The host lists the tools, reads the `ui://` view of the fixture's
 * `show_weather`, frames it through a sandbox proxy on another origin under a CSP built from the view's
 * `_meta.ui.csp`, and connects an AppBridge. The view is the bundled examples/apps/weather-view (the
 * ext-apps `App` class): the test sees the handshake, the tool's input and result shown in the view,
 * the view's own call to the app-only `refresh_weather` reach mcp-h3 through the host, and its answer
 * shown; no console error, no page error, no CSP violation in any frame.
 * Under CI=true a missing chromium fails the suite; elsewhere it is skipped with a note.
 */
import { createServer, type Server } from "node:http";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { chromium, type Browser, type Frame, type FrameLocator, type Page } from "playwright-core";
import { CHROMIUM, unavailable } from "./helpers/services.ts";
import { defineMcpHandler, defineTool, type McpEventHandler, type McpRequestInfo } from "mcp-h3";
import { appToolMeta } from "mcp-h3/apps";
import { appSandboxPolicy } from "mcp-h3/inspector";
import { fixtureApp } from "./conformance/app-tools.ts";
import { startAppHost, type AppHostServer } from "./helpers/app-host/server.ts";
import { freePort } from "./helpers/free-port.ts";

// Skipped, said loudly, where chromium is missing; a failure under CI (helpers/services.ts).
const haveChromium = !unavailable(CHROMIUM);
const chromiumPath = CHROMIUM.path ?? "chromium";

/** Reported by every frame (the init script runs in the host page, the sandbox and the view alike). */
const REPORT_CSP_VIOLATIONS = `document.addEventListener("securitypolicyviolation", (event) => {
  console.error("CSP violation: " + event.violatedDirective + " blocked " + (event.blockedURI || "(inline)") + " in " + location.href.slice(0, 40) + " at " + event.lineNumber + ":" + event.columnNumber + " sample " + event.sample);
});`;

/** Console errors, page errors and CSP violations of a page and all its frames. */
function watchProblems(page: Page): string[] {
  const problems: string[] = [];
  page.on("console", (message) => {
    if (message.type() === "error") problems.push(`console error: ${message.text()}`);
  });
  page.on("pageerror", (error) => problems.push(`page error: ${error.message}`));
  return problems;
}

/** Waits until the host's log has a line starting with `prefix`, and returns it. */
async function logLine(page: Page, prefix: string): Promise<string> {
  const line = page.locator("#log li", { hasText: prefix }).first();
  await line.waitFor({ timeout: 15_000 });
  return (await line.textContent()) ?? "";
}

/** Waits until `selector` in the view holds text matching `pattern`, and returns the text. */
async function viewText(view: FrameLocator, selector: string, pattern: RegExp): Promise<string> {
  const element = view.locator(selector).filter({ hasText: pattern });
  await element.waitFor({ timeout: 15_000 });
  return (await element.textContent()) ?? "";
}

describe.skipIf(!haveChromium)("an MCP Apps host in chromium shows the fixture's weather view", () => {
  let browser: Browser | undefined;
  let host: AppHostServer | undefined;
  let handler: McpEventHandler | undefined;
  /** What mcp-h3 served, from its hooks: the test's evidence that a call reached the server. */
  const served: Pick<McpRequestInfo, "era" | "method" | "name">[] = [];

  beforeAll(async () => {
    handler = defineMcpHandler({
      name: "mcp-h3-apps-host-test",
      version: "1.0.0",
      tools: [
        ...fixtureApp.tools,
        // For the model alone: the host must refuse the view's call to it.
        defineTool({
          name: "model_only",
          _meta: appToolMeta({ visibility: ["model"] }),
          handler: () => "for the model",
        }),
        // No _meta.ui at all: not the view's to call either.
        defineTool({ name: "plain", handler: () => "plain" }),
      ],
      resources: fixtureApp.resources,
      hooks: { onResponse: ({ era, method, name }) => void served.push({ era, method, name }) },
    });
    host = await startAppHost(handler);
    // Root in CI: chromium's sandbox needs a user namespace a container may not give.
    // evil.test: the attacker's host name, on this machine (the cases at the end).
    browser = await chromium.launch({
      executablePath: chromiumPath,
      args: ["--no-sandbox", "--host-resolver-rules=MAP evil.test 127.0.0.1"],
    });
  }, 60_000);

  afterAll(async () => {
    await browser?.close();
    await host?.close();
    await handler?.close();
  });

  /** Opens the host page on a new page with violation reporting in every frame. */
  async function openHost(era: "legacy" | "modern"): Promise<{ page: Page; problems: string[] }> {
    const page = await browser!.newPage();
    await page.addInitScript(REPORT_CSP_VIOLATIONS);
    const problems = watchProblems(page);
    // The sandbox goes to the same port on 127.0.0.1 (the host page's default for a page on localhost).
    const query = new URLSearchParams({ era, tool: "show_weather", args: JSON.stringify({ city: "Lisbon" }) });
    await page.goto(`${host!.origin}/host?${query}`);
    return { page, problems };
  }

  /** The view's frame: the inner frame of the sandbox proxy. */
  function viewFrame(page: Page): Frame {
    const frame = page.frames().find((candidate) => candidate.parentFrame()?.parentFrame() === page.mainFrame());
    if (!frame) throw new Error("no view frame");
    return frame;
  }

  describe.each(["modern", "legacy"] as const)("%s era", (era) => {
    let page: Page;
    let problems: string[];

    beforeAll(async () => {
      ({ page, problems } = await openHost(era));
    });
    afterAll(() => page?.close());

    it("reads the view and frames it through a sandbox on another origin, under the view's CSP", async () => {
      expect(await logLine(page, "connected")).toBe(`connected (${era})`);
      expect(await logLine(page, "read ")).toBe(
        'read ui://weather/view.html (text/html;profile=mcp-app, csp {"connectDomains":[],"resourceDomains":[]})',
      );
      await logLine(page, "sandbox ready");
      const outer = page.locator("#view-frame");
      expect(await outer.getAttribute("sandbox")).toBe("allow-scripts allow-same-origin");
      expect(new URL((await outer.getAttribute("src"))!).origin).toBe(host!.sandboxOrigin);
      const sandbox = page.frames().find((frame) => frame.parentFrame() === page.mainFrame())!;
      const response = await fetch(sandbox.url());
      // The server's policy: an opaque origin, framed only by the host page; no URL parameter shapes it.
      expect(response.headers.get("content-security-policy")).toBe(appSandboxPolicy(host!.origin));
      await response.body?.cancel();
      expect(await sandbox.evaluate(() => self.origin)).toBe("null");
      // The view's own policy, from its _meta.ui.csp, stands first in its document.
      const view = viewFrame(page);
      expect(await view.evaluate(() => document.querySelector("meta[http-equiv]")?.getAttribute("content"))).toBe(
        "default-src 'none'; script-src 'self' 'unsafe-inline'; style-src 'self' 'unsafe-inline'; " +
          "img-src 'self' data:; font-src 'self' data:; media-src 'self' data:; connect-src 'none'; " +
          "frame-src 'none'; base-uri 'self'; object-src 'none'",
      );
      expect(await view.evaluate(() => self.origin)).toBe("null");
      expect(await page.frameLocator("#view-frame").locator("iframe").getAttribute("sandbox")).toBe("allow-scripts");
    });

    it("completes ui/initialize → initialized, and the view shows the tool's input and result", async () => {
      expect(await logLine(page, "initialized")).toBe("initialized weather-view 1.0.0");
      const view = page.frameLocator("#view-frame").frameLocator("iframe");
      expect(await viewText(view, "#status", /^Connected/)).toBe("Connected to mcp-h3-minimal-host");
      expect(await viewText(view, "#input", /Lisbon/)).toBe("city: Lisbon");
      await logLine(page, "tool result sent");
      const result = await viewText(view, "#result", /Lisbon/);
      expect(result).toMatch(/^Lisbon: \d+ °C, \w+ \(reading 1\)$/);
      expect(await viewText(view, "#title", /Lisbon/)).toBe("Weather in Lisbon");
      expect(served).toContainEqual({ era, method: "tools/call", name: "show_weather" });
      expect(served).toContainEqual({ era, method: "resources/read", name: "ui://weather/view.html" });
    });

    it("forwards the view's call to the app-only tool to mcp-h3 and shows its answer in the view", async () => {
      const view = page.frameLocator("#view-frame").frameLocator("iframe");
      const before = served.filter((entry) => entry.name === "refresh_weather").length;
      await view.getByRole("button", { name: "Refresh through the host" }).click();
      const refreshed = await viewText(view, "#refreshed", /served by/);
      expect(refreshed).toMatch(
        new RegExp(`^Lisbon: \\d+ °C, \\w+ \\(reading \\d+\\), served by mcp-h3 in the ${era} era$`),
      );
      const calls = served.filter((entry) => entry.name === "refresh_weather");
      expect(calls).toHaveLength(before + 1);
      expect(calls.at(-1)).toEqual({ era, method: "tools/call", name: "refresh_weather" });
    });

    it.each(["model_only", "plain"])(
      'refuses the view\'s call to %s (visibility without "app", or none), without asking mcp-h3',
      async (name) => {
        const before = served.length;
        // Sent as the view would (a JSON-RPC request to its parent), from a timer of the view's own.
        const frame = viewFrame(page);
        await frame.evaluate((name) => {
          const id = `call_${name}`;
          window.addEventListener("message", (event) => {
            if (event.data?.id === id) document.body.dataset[id] = JSON.stringify(event.data);
          });
          const call = { jsonrpc: "2.0", id, method: "tools/call", params: { name } };
          setTimeout(() => window.parent.postMessage(call, "*"), 0);
        }, name);
        const reply = await frame.waitForFunction((id) => document.body.dataset[id], `call_${name}`);
        const answer = JSON.parse(String(await reply.jsonValue()));
        expect(answer.error.message).toContain(`the view may not call the tool "${name}"`);
        expect(served.slice(before).map((entry) => entry.name)).not.toContain(name);
      },
    );

    it("logged no console error, page error or CSP violation in any frame", () => {
      expect(problems).toEqual([]);
    });

    it("enforces the CSP in the view: the view's own eval is refused and reported (so the check above can fail)", async () => {
      // Run as the view's code (an inline script, which its CSP allows, appended from a timer), not within the
      // debugger's evaluate, which CSP exempts.
      const frame = viewFrame(page);
      await frame.evaluate(() => {
        const script = document.createElement("script");
        script.textContent = `try { new Function("return 1")(); document.body.dataset.evalOutcome = "evaluated"; }
          catch (error) { document.body.dataset.evalOutcome = error.name; }`;
        setTimeout(() => document.head.append(script), 0);
      });
      const outcome = await (await frame.waitForFunction(() => document.body.dataset.evalOutcome)).jsonValue();
      expect(outcome).toBe("EvalError");
      // Reported once by each policy that refuses it: the sandbox's and the view's own.
      await expect
        .poll(() => problems.filter((problem) => problem.startsWith("console error: CSP violation: script-src")))
        .toHaveLength(2);
    });

    it("narrows the sandbox's policy to the view's: a fetch to an origin the view did not declare is refused", async () => {
      // The sandbox's own policy allows any http origin; the view declared none (connect-src 'none').
      const frame = viewFrame(page);
      await frame.evaluate((url) => {
        const script = document.createElement("script");
        script.textContent = `fetch(${JSON.stringify(url)}).then(() => { document.body.dataset.fetchOutcome = "fetched"; },
          (error) => { document.body.dataset.fetchOutcome = error.name; });`;
        setTimeout(() => document.head.append(script), 0);
      }, `${host!.origin}/mcp`);
      const outcome = await (await frame.waitForFunction(() => document.body.dataset.fetchOutcome)).jsonValue();
      expect(outcome).toBe("TypeError");
      await expect
        .poll(() => problems.filter((problem) => problem.startsWith("console error: CSP violation: connect-src")))
        .toHaveLength(1);
    });
  });
  describe("against a page of another site (issue 32, item 2)", () => {
    let attacker: Server | undefined;
    let attackerOrigin = "";

    beforeAll(async () => {
      const port = await freePort();
      attackerOrigin = `http://evil.test:${port}`;
      // Frames the host page with the parameters that, before, chose the sandbox and the server.
      attacker = createServer((request, response) => {
        response.writeHead(200, { "content-type": "text/html; charset=utf-8" });
        const target = new URL(request.url!, attackerOrigin).searchParams.get("target") ?? "";
        response.end(`<!doctype html><iframe id="host" src="${target.replace(/"/g, "&quot;")}"></iframe>`);
      });
      await new Promise<void>((resolve) => attacker!.listen(port, "127.0.0.1", resolve));
    });
    afterAll(() => new Promise<void>((resolve) => (attacker ? attacker.close(() => resolve()) : resolve())));

    const hostileQuery = (): string =>
      new URLSearchParams({
        tool: "show_weather",
        args: JSON.stringify({ city: "Lisbon" }),
        sandbox: attackerOrigin,
        mcp: `${attackerOrigin}/mcp`,
      }).toString();

    it("cannot frame the host page: it never connects, reads or calls anything", async () => {
      const page = await browser!.newPage();
      try {
        const before = served.length;
        const target = `${host!.origin}/host?${hostileQuery()}`;
        await page.goto(`${attackerOrigin}/?target=${encodeURIComponent(target)}`);
        await page.waitForTimeout(1500);
        expect(served.slice(before)).toEqual([]);
        const framed = page.frames().find((frame) => frame.parentFrame() === page.mainFrame());
        expect(framed?.url()).not.toContain("/host?");
      } finally {
        await page.close();
      }
    });

    it("takes neither its sandbox nor its server from the URL", async () => {
      const page = await browser!.newPage();
      try {
        await page.goto(`${host!.origin}/host?${hostileQuery()}`);
        expect(await logLine(page, "connected")).toBe("connected (modern)");
        await logLine(page, "sandbox ready");
        expect(new URL((await page.getAttribute("#view-frame", "src"))!).origin).toBe(host!.sandboxOrigin);
      } finally {
        await page.close();
      }
    });
  });
});
