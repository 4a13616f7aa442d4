/**
 * examples/worker bundled with esbuild for the browser platform (a `node:` import cannot resolve
 * there) and run in workerd (the binary from the lockfile) without nodejs_compat. A legacy session
 * lives as long as the isolate; workerd keeps one isolate here, so each session runs inside it.
 * Both eras' sequences with the real clients. examples/apps/worker.ts serves an MCP App the same way,
 * its view's HTML bundled in as text.
 */
import { readFile } from "node:fs/promises";
import { build } from "esbuild";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { describeEraSequences } from "../helpers/era-sequences.ts";
import { buildAppView } from "../../scripts/build-app-views.mjs";
import { EXAMPLE_TOOLS } from "./example-tools.ts";
import { BIN, ROOT, startExample, type RunningExample } from "./runtime-process.ts";
import { describeWeatherApp } from "./weather-app-checks.ts";

const WORKER_DIR = `${ROOT}examples/worker/`;

describe("examples/worker in workerd, without nodejs_compat", () => {
  let example: RunningExample;
  let bundle: string;

  beforeAll(async () => {
    // The same command as the example's README.
    await build({
      entryPoints: [`${WORKER_DIR}worker.ts`],
      outfile: `${WORKER_DIR}dist/worker.js`,
      bundle: true,
      minify: true,
      format: "esm",
      platform: "browser",
      logLevel: "silent",
    });
    bundle = await readFile(`${WORKER_DIR}dist/worker.js`, "utf8");
    example = await startExample((port) => ({
      file: BIN("workerd"),
      args: ["serve", "config.capnp", "--socket-addr", `http=127.0.0.1:${port}`],
      cwd: WORKER_DIR,
    }));
  }, 60_000);
  afterAll(() => example?.close());

  it("bundles without any node: import, and runs with Node.js compatibility turned off", async () => {
    expect(bundle.length).toBeGreaterThan(1000);
    expect(bundle).not.toMatch(/["'`]node:/);
    const config = await readFile(`${WORKER_DIR}config.capnp`, "utf8");
    expect(config).toMatch(/compatibilityFlags = \["no_nodejs_compat", "no_nodejs_compat_v2"\]/);
    expect(config).not.toMatch(/"nodejs_compat/);
  });

  describeEraSequences(() => example.url, EXAMPLE_TOOLS);
});

describe("examples/apps/worker.ts (an MCP App) in workerd, without nodejs_compat", () => {
  const APPS_DIR = `${ROOT}examples/apps/`;
  let example: RunningExample;
  let html = "";

  beforeAll(async () => {
    // The commands of the example's README: build the view, then bundle it into the Worker as text.
    html = await buildAppView("weather-view", { write: true });
    await build({
      entryPoints: [`${APPS_DIR}worker.ts`],
      outfile: `${APPS_DIR}dist/worker.js`,
      bundle: true,
      minify: true,
      format: "esm",
      platform: "browser",
      loader: { ".html": "text" },
      logLevel: "silent",
    });
    const bundle = await readFile(`${APPS_DIR}dist/worker.js`, "utf8");
    expect(bundle).not.toMatch(/["'`]node:/);
    example = await startExample((port) => ({
      file: BIN("workerd"),
      args: ["serve", "config.capnp", "--socket-addr", `http=127.0.0.1:${port}`],
      cwd: APPS_DIR,
    }));
  }, 60_000);
  afterAll(() => example?.close());

  describeWeatherApp(
    () => example.url,
    () => html,
  );
});
