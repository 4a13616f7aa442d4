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
import { accessSync, constants, existsSync } from "node:fs";
import { delimiter, join } from "node:path";
import type { Browser } from "playwright-core";

export interface SystemService {
  /** The command or program, as a reader would look for it. */
  readonly name: string;
  /** Where it was found, or undefined when it is missing. */
  readonly path: string | undefined;
  /** How to install it: the Debian/Ubuntu package, then elsewhere. */
  readonly install: string;
}

/** True when `CI` is set to anything but "", "0" or "false". */
export const IN_CI = !["", "0", "false"].includes((process.env.CI ?? "").toLowerCase());

function onPath(command: string): string | undefined {
  for (const dir of (process.env.PATH ?? "").split(delimiter)) {
    if (dir === "") continue;
    const candidate = join(dir, command);
    try {
      accessSync(candidate, constants.X_OK);
      return candidate;
    } catch {
      // not in this folder
    }
  }
  return undefined;
}

export const REDIS: SystemService = {
  name: "redis-server",
  path: onPath("redis-server"),
  install:
    "Debian/Ubuntu: sudo apt-get install -y redis-server; macOS: brew install redis; elsewhere: any Redis 7+ whose redis-server is on PATH",
};

/** chromium at `CHROMIUM_PATH`, else Debian's /usr/bin/chromium, else a `chromium` or `chromium-browser` on PATH. */
const chromiumPath =
  process.env.CHROMIUM_PATH ??
  (existsSync("/usr/bin/chromium") ? "/usr/bin/chromium" : (onPath("chromium") ?? onPath("chromium-browser")));

export const CHROMIUM: SystemService = {
  name: "chromium",
  path: chromiumPath !== undefined && existsSync(chromiumPath) ? chromiumPath : undefined,
  install:
    "Debian/Ubuntu: sudo apt-get install -y chromium; elsewhere: install Chromium or Chrome and set CHROMIUM_PATH to its binary",
};

export const SERVICES: readonly SystemService[] = [REDIS, CHROMIUM];

/** The line that says a service is missing, what skips and how to install it. */
export function missingLine(service: SystemService, consequence: string): string {
  return `${service.name} not found: ${consequence}. Install it (${service.install}).`;
}

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
