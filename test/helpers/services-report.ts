/**
 * vitest's globalSetup: before any test file runs, says once, loudly, which system service is missing, how many test
 * files skip for it and how to install it (services.ts). Under CI a missing service fails the run here, at once.
 */
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { IN_CI, missingLine, SERVICES, type SystemService } from "./services.ts";

const TEST_DIR = fileURLToPath(new URL("..", import.meta.url));

/** Test files that skip without `service`: those that ask `unavailable(<its constant>)`. */
function filesNeeding(service: SystemService): string[] {
  const constant = service.name === "redis-server" ? "REDIS" : "CHROMIUM";
  const files = readdirSync(TEST_DIR, { recursive: true, encoding: "utf8" }).filter(
    (file) => file.endsWith(".test.ts") && !file.includes("node_modules"),
  );
  return files.filter((file) => readFileSync(join(TEST_DIR, file), "utf8").includes(`unavailable(${constant})`));
}

export default function reportServices(): void {
  for (const service of SERVICES) {
    if (service.path !== undefined) continue;
    const files = filesNeeding(service);
    if (IN_CI) throw new Error(missingLine(service, `CI is set and ${files.length} test files need it`));
    const bar = "!".repeat(100);
    console.warn(
      `\n${bar}\n!! ${missingLine(service, `the ${files.length} test files that need it are SKIPPED`)}\n${bar}\n`,
    );
  }
}
