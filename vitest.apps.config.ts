import { defineConfig } from "vitest/config";

// The framework apps (test/frameworks): each suite packs the built library, installs it into a
// fresh nitropack 2, nitro 3 or Nuxt 4 app, builds the app and serves its output. `npm test` runs
// them after the rest; `npm run test:apps` runs only them.
export default defineConfig({
  test: {
    // With them, the newcomer's path: the README's and the examples' commands on a fresh clone (installs, builds).
    include: ["test/frameworks/**/*.test.ts", "test/newcomer-path.test.ts"],
    testTimeout: 60_000,
    hookTimeout: 300_000,
    // The suites install and build apps: one at a time keeps the two cores for the builds.
    fileParallelism: false,
  },
});
