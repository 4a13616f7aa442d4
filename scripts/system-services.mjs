/**
 * The system services the tests need and npm does not install: where each is, and how to install it. Shared by
 * scripts/check-prerequisites.mjs (the first step of `npm test`) and test/helpers/services.ts (the tests' skips).
 */
import { accessSync, constants, existsSync } from "node:fs";
import { delimiter, join } from "node:path";

/** The first executable `command` on PATH, or undefined. */
export function onPath(command) {
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

/** True when `CI` is set to anything but "", "0" or "false". */
export const IN_CI = !["", "0", "false"].includes((process.env.CI ?? "").toLowerCase());

export const REDIS = {
  name: "redis-server",
  path: onPath("redis-server"),
  install:
    "Debian/Ubuntu: sudo apt-get install -y redis-server; macOS: brew install redis; elsewhere: any Redis 7+ whose redis-server is on PATH",
};

/** chromium at `CHROMIUM_PATH`, else Debian's /usr/bin/chromium, else a `chromium` or `chromium-browser` on PATH. */
const chromiumPath =
  process.env.CHROMIUM_PATH ??
  (existsSync("/usr/bin/chromium") ? "/usr/bin/chromium" : (onPath("chromium") ?? onPath("chromium-browser")));

export const CHROMIUM = {
  name: "chromium",
  path: chromiumPath !== undefined && existsSync(chromiumPath) ? chromiumPath : undefined,
  install:
    "Debian/Ubuntu: sudo apt-get install -y chromium; elsewhere: install Chromium or Chrome and set CHROMIUM_PATH to its binary",
};

export const SERVICES = [REDIS, CHROMIUM];

/** The line that says a service is missing, what follows and how to install it. */
export function missingLine(service, consequence) {
  return `${service.name} not found: ${consequence}. Install it (${service.install}).`;
}
