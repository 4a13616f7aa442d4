import { fileURLToPath } from "node:url";
import { defineConfig } from "vitest/config";

export default defineConfig({
  resolve: {
    // Tests exercise the source; the playground test exercises the built package.
    alias: { "mcp-h3": fileURLToPath(new URL("./src/index.ts", import.meta.url)) },
  },
  test: {
    include: ["test/**/*.test.ts"],
    // The framework app builds run one at a time after the rest (vitest.apps.config.ts).
    exclude: ["test/frameworks/**", "**/node_modules/**"],
    testTimeout: 30_000,
    hookTimeout: 30_000,
  },
});
