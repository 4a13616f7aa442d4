/**
 * The system services some tests need, found once: `redis-server` (the mcp-h3/redis tests start their own on a free
 * port) and `chromium` (the page tests drive it headless through playwright-core). Neither comes from npm.
 *
 * A test that needs one skips when it is missing on a developer's machine, and says so: the run's first lines
 * (services-report.ts, vitest's globalSetup) name the service, how to install it and how many files skip, and each
 * skipped suite shows in vitest's report. Under CI (`CI` set, as `.ci/run` and most CI systems do) a missing
 * service fails the run instead: a test that needs one never passes by not running there.
 *
 * @example
 * import { REDIS, unavailable } from "./helpers/services.ts";
 * describe.skipIf(unavailable(REDIS))("sessions on Redis", () => { … startRedis() … });
 *
 * import { CHROMIUM, launchChromium, unavailable } from "./helpers/services.ts";
 * describe.skipIf(unavailable(CHROMIUM))("the page in chromium", () => { … await launchChromium() … });
 */
import type { Browser } from "playwright-core";
import { CHROMIUM, IN_CI, missingLine, type SystemService } from "../../scripts/system-services.mjs";

export { CHROMIUM, IN_CI, missingLine, REDIS, SERVICES, type SystemService } from "../../scripts/system-services.mjs";

/**
 * True when `service` is missing on a developer's machine: the caller skips (`describe.skipIf(unavailable(X))`).
 * Throws under CI, so a missing service fails the run there. False when it is installed.
 */
export function unavailable(service: SystemService): boolean {
  if (service.path !== undefined) return false;
  if (IN_CI) throw new Error(missingLine(service, "CI needs it (CI is set), so the run fails"));
  return true;
}

/** Headless chromium for a page test. Root in CI: chromium's sandbox needs a user namespace a container may not give. */
export async function launchChromium(): Promise<Browser> {
  if (CHROMIUM.path === undefined) throw new Error(missingLine(CHROMIUM, "cannot launch it"));
  const { chromium } = await import("playwright-core");
  return chromium.launch({ executablePath: CHROMIUM.path, args: ["--no-sandbox"] });
}
