import { fileURLToPath } from "node:url";
import { defineConfig } from "vitest/config";

export default defineConfig({
  resolve: {
    // Tests exercise the source; the playground test exercises the built package.
    // A string key would also rewrite "mcp-h3/apps" to "src/index.ts/apps": each entry gets its own rule.
    alias: [
      { find: /^mcp-h3$/, replacement: fileURLToPath(new URL("./src/index.ts", import.meta.url)) },
      // The tests run on Node: requestState's engine is Node's (package.json `imports` under `node`).
      {
        find: /^#request-state-aead$/,
        replacement: fileURLToPath(new URL("./src/modern/mrtr/aead-node.ts", import.meta.url)),
      },
      {
        find: /^mcp-h3\/(apps|definitions|inspector|nitro|otel|redis|shared|skills|tasks|testing)$/,
        replacement: fileURLToPath(new URL("./src/_entries/$1.ts", import.meta.url)),
      },
    ],
  },
  test: {
    include: ["test/**/*.test.ts"],
    // The framework app builds run one at a time after the rest (vitest.apps.config.ts).
    exclude: ["test/frameworks/**", "test/newcomer-path.test.ts", "**/node_modules/**"],
    // Says once, before any test, which system service (redis-server, chromium) is missing and what skips for it.
    globalSetup: ["test/helpers/services-report.ts"],
    testTimeout: 30_000,
    hookTimeout: 30_000,
    // The library says once per process that it has no requestState secret; every test file is a process of its
    // own, so a run printed it once per file that serves the modern era (14 times). What it says is checked in
    // test/unit/request-state-keys.test.ts (a spy on console.warn, which this filter does not touch).
    onConsoleLog: (log) => !log.startsWith("mcp-h3: no requestState secret is set"),
  },
});
