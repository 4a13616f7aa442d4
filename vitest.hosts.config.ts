import { defineConfig } from "vitest/config";

// `npm run test:hosts`: tests that build and serve real apps (test/frameworks) and run real host
// runtimes (test/hosts). Slow, so `npm test` leaves them out; `.ci/run` runs both.
export default defineConfig({
  test: {
    include: ["test/frameworks/**/*.test.ts", "test/hosts/**/*.test.ts"],
    testTimeout: 60_000,
    hookTimeout: 300_000,
    // The suites install and build apps: one at a time keeps the two cores for the builds.
    fileParallelism: false,
  },
});
