/**
 * The inspector page against an endpoint with bearer auth on (h3 v2 and v1), in headless Chromium, in
 * both eras: without a token the connection fails and the page says it was a 401 and that a token is
 * wanted; with the token typed in the page's field it connects, and a URL elicitation is shown as a
 * link the user opens, then accepted or declined, the answer coming back in the tool's result.
 * Screenshots go to test-results/inspector/. Under CI=true a missing chromium fails the suite.
 */
import { mkdirSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type Browser, type Page } from "playwright-core";
import { defineMcpHandler, defineTool, type McpEventHandler } from "mcp-h3";
import { defineMcpInspector } from "mcp-h3/inspector";
import { staticAuth } from "./helpers/auth.ts";
import { HOSTS } from "./helpers/hosts.ts";
import { startInspectorHost, type InspectorHost } from "./helpers/inspector-host.ts";
import { CHROMIUM, launchChromium, unavailable } from "./helpers/services.ts";

// Skipped, said loudly, where chromium is missing; a failure under CI (helpers/services.ts).
const haveChromium = !unavailable(CHROMIUM);

const SHOTS = fileURLToPath(new URL("../test-results/inspector/", import.meta.url));

const signIn = defineTool({
  name: "sign_in",
  description: "Asks the user to sign in on a web page (URL elicitation)",
  handler: async (event) => {
    const answer = await event.context.mcp!.elicitUrl(
      "login",
      "Sign in to continue",
      "https://login.example.com/start",
    );
    return `action=${answer.action}`;
  },
});

describe.skipIf(!haveChromium).each(HOSTS)("the inspector page against a bearer-auth endpoint on %s", (host) => {
  let server: InspectorHost;
  let browser: Browser | undefined;
  let handler: McpEventHandler;

  beforeAll(async () => {
    mkdirSync(SHOTS, { recursive: true });
    handler = defineMcpHandler({ name: "auth-inspected", version: "1.0.0", auth: staticAuth(), tools: [signIn] });
    server = await startInspectorHost(host, handler, defineMcpInspector({ auth: true }));
    browser = await launchChromium();
  }, 60_000);

  afterAll(async () => {
    await browser?.close();
    await server?.close();
    await handler?.close();
  });

  describe.each(["legacy", "modern"] as const)("in the %s era", (era) => {
    let page: Page;
    beforeAll(async () => {
      page = await browser!.newPage({ viewport: { width: 1280, height: 900 } });
      await page.goto(`${server.origin}/inspector?era=${era}`);
    });
    afterAll(() => page?.close());

    it("shows the 401 clearly without a token, then connects with the token typed in the page", async () => {
      expect(await page.locator("#auth-box").getAttribute("open")).not.toBeNull();
      await page.click("#connect");
      await page.locator("#connection-state.error").waitFor();
      const failed = (await page.textContent("#connection-state"))!;
      expect(failed).toMatch(/401/);
      expect(failed).toMatch(/token/i);
      expect(await page.locator("#tools button").count()).toBe(0);
      await page.screenshot({ path: `${SHOTS}auth-${era}-${host}-401.png`, fullPage: true });
      await page.fill("#token", "alice-token");
      await page.click("#connect");
      await page.locator("#era-shown", { hasText: era }).waitFor();
      await page.locator("#tools button[data-tool='sign_in']").waitFor();
    });

    it("shows a URL elicitation as a link to open, then accepts or declines it", async () => {
      await page.click("#tools button[data-tool='sign_in']");
      await page.getByRole("button", { name: "Call sign_in" }).click();
      await page.locator("#ask-message", { hasText: "Sign in to continue" }).waitFor();
      const link = page.locator("a#ask-url");
      expect(await link.getAttribute("href")).toBe("https://login.example.com/start");
      expect(await link.getAttribute("target")).toBe("_blank");
      expect(await link.getAttribute("rel")).toContain("noopener");
      await page.screenshot({ path: `${SHOTS}auth-${era}-${host}-url-elicitation.png`, fullPage: true });
      await page.getByRole("button", { name: "Done (accept)" }).click();
      await page.locator("#result pre.text", { hasText: "action=accept" }).waitFor();

      await page.getByRole("button", { name: "Call sign_in" }).click();
      await page.locator("a#ask-url").waitFor();
      await page.getByRole("button", { name: "Decline" }).click();
      await page.locator("#result pre.text", { hasText: "action=decline" }).waitFor();
    });
  });
});
