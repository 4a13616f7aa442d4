import { fileURLToPath } from "node:url";
import { defineConfig } from "vitest/config";

export default defineConfig({
  resolve: {
    // Tests exercise the source; the playground test exercises the built package. The entries
    // other than the main one are matched first (an alias is a prefix).
    alias: [
      { find: "mcp-h3/tasks", replacement: fileURLToPath(new URL("./src/tasks.ts", import.meta.url)) },
      { find: "mcp-h3", replacement: fileURLToPath(new URL("./src/index.ts", import.meta.url)) },
    ],
  },
  test: {
    include: ["test/**/*.test.ts"],
    // The framework app builds run one at a time after the rest (vitest.apps.config.ts).
    exclude: ["test/frameworks/**", "**/node_modules/**"],
    testTimeout: 30_000,
    hookTimeout: 30_000,
  },
});
