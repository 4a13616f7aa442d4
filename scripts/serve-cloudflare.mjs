#!/usr/bin/env node
/**
 * `npm run example:cloudflare`: bundles examples/cloudflare as wrangler would (esbuild, the
 * `workerd` condition, no Node built-ins) and serves it in workerd, offline, with the Durable Object
 * bindings, SQLite classes, compatibility date and flags of its wrangler.jsonc, and the objects'
 * storage in examples/cloudflare/.state (kept between runs, as `wrangler dev` keeps .wrangler/state).
 * MCP is on http://127.0.0.1:$PORT/mcp (PORT defaults to 8787); STATE_DIR puts the storage elsewhere
 * (the tests start from an empty one). The fixture's app view is built
 * first and bundled in as text: a Worker has no file system to read it from.
 *
 * Usage: node scripts/serve-cloudflare.mjs   (after `npm run build`: the example imports mcp-h3)
 */
import { spawn } from "node:child_process";
import { mkdir, readFile, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { build } from "esbuild";
import { buildAppView } from "./build-app-views.mjs";
import { durableClassesOf, parseJsonc, workerdConfig } from "./workerd-config.mjs";

const EXAMPLE = fileURLToPath(new URL("../examples/cloudflare/", import.meta.url));
const WORKERD = fileURLToPath(new URL("../node_modules/.bin/workerd", import.meta.url));
const port = Number(process.env.PORT ?? 8787);

const wrangler = /** @type {any} */ (parseJsonc(await readFile(join(EXAMPLE, "wrangler.jsonc"), "utf8")));
const html = await buildAppView("weather-view");
await build({
  entryPoints: [join(EXAMPLE, wrangler.main)],
  outfile: join(EXAMPLE, "dist/worker.js"),
  bundle: true,
  minify: true,
  format: "esm",
  platform: "browser",
  conditions: ["workerd", "worker", "browser"],
  logLevel: "error",
  plugins: [
    {
      // The fixture builds its app view on first read (Node, esbuild): here it is built already.
      name: "prebuilt-app-view",
      setup(bundler) {
        bundler.onResolve({ filter: /build-app-views\.mjs$/ }, () => ({ path: "app-view", namespace: "prebuilt" }));
        bundler.onLoad({ filter: /.*/, namespace: "prebuilt" }, () => ({
          contents: `export const buildAppView = async () => ${JSON.stringify(html)};`,
          loader: "js",
        }));
      },
    },
  ],
});
const storageDir = process.env.STATE_DIR ?? join(EXAMPLE, ".state");
await mkdir(storageDir, { recursive: true });
await writeFile(
  join(EXAMPLE, "dist/config.capnp"),
  workerdConfig({
    module: "worker.js",
    classes: durableClassesOf(wrangler),
    storageDir,
    address: `127.0.0.1:${port}`,
    compatibilityDate: wrangler.compatibility_date,
    compatibilityFlags: wrangler.compatibility_flags,
  }),
);

const workerd = spawn(WORKERD, ["serve", "config.capnp"], { cwd: join(EXAMPLE, "dist"), stdio: "inherit" });
console.log(`mcp-h3 Cloudflare example (workerd, Durable Objects on ${storageDir}): http://127.0.0.1:${port}/mcp`);
for (const signal of ["SIGINT", "SIGTERM"]) process.on(signal, () => workerd.kill(signal));
workerd.on("exit", (code) => process.exit(code ?? 1));
