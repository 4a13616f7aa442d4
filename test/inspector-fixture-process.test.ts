/**
 * The inspector as `npm run fixture` serves it: the fixture process (Node 22, the built package, Redis
 * stores) mounts the page at /inspector on h3 v1, the page module resolved through package.json
 * `imports` (#inspector-page) by Node itself. In Chromium, the page connects in the legacy era and
 * calls a tool with progress. Needs dist/ (npm run build). Under CI=true a missing chromium fails.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { chromium, type Browser } from "playwright-core";
import { CHROMIUM, unavailable } from "./helpers/services.ts";
import { startFixtureProcess, type FixtureProcess } from "./helpers/fixture-process.ts";
import { sharedOrOwnRedis } from "./helpers/redis-server.ts";

// Skipped, said loudly, where chromium is missing; a failure under CI (helpers/services.ts).
const haveChromium = !unavailable(CHROMIUM);
const chromiumPath = CHROMIUM.path ?? "chromium";

describe.skipIf(!haveChromium)("the inspector page of `npm run fixture` (h3 v1, the built package)", () => {
  let redis: Awaited<ReturnType<typeof sharedOrOwnRedis>>;
  let fixture: FixtureProcess;
  let browser: Browser | undefined;

  beforeAll(async () => {
    redis = await sharedOrOwnRedis();
    fixture = await startFixtureProcess({
      redis: redis.url,
      prefix: `inspector-${process.pid}:`,
      instance: "inspector",
      h3: "v1",
    });
    browser = await chromium.launch({ executablePath: chromiumPath, args: ["--no-sandbox"] });
  }, 60_000);

  afterAll(async () => {
    await browser?.close();
    await fixture?.kill();
    await redis?.stop();
  });

  it("serves the page, which calls a tool in the legacy era", async () => {
    const page = await browser!.newPage();
    try {
      const inspectorUrl = fixture.url.replace(/\/mcp$/, "/inspector");
      const response = await page.goto(`${inspectorUrl}?era=legacy&connect=1`);
      expect(response?.status()).toBe(200);
      await page.locator("#negotiated-version", { hasText: "2025-11-25" }).waitFor({ timeout: 15_000 });
      await page.click("#tools button[data-tool='test_tool_with_progress']");
      await page.getByRole("button", { name: "Call test_tool_with_progress" }).click();
      await page.locator("#result pre.text", { hasText: "Progress test completed" }).waitFor({ timeout: 10_000 });
      expect(await page.locator("#protocol-rows tr", { hasText: "tools/call" }).count()).toBe(1);
      // A forwarded request gets the 404 (the process is on loopback, a proxy header says the visitor is not).
      const forwarded = await fetch(inspectorUrl, { headers: { "x-forwarded-for": "203.0.113.9" } });
      expect(forwarded.status).toBe(404);
    } finally {
      await page.close();
    }
  });
});
