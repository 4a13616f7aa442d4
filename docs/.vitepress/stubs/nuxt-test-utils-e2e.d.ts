/**
 * The part of `@nuxt/test-utils/e2e` the testing guide's Nuxt block uses, so that block is type-checked with the
 * others: the package is not installed here (the Nuxt app of test/frameworks installs its own framework).
 * Signatures as @nuxt/test-utils 3.x declares them.
 */
export interface TestOptions {
  rootDir: string;
  server: boolean;
  browser: boolean;
  build: boolean;
  port: number;
}
/** Builds and starts the Nuxt app for the test file (registers the suite's hooks). */
export declare function setup(options?: Partial<TestOptions>): Promise<void>;
/** The running app's URL for `path`. */
export declare function url(path: string): string;
