#!/usr/bin/env node
/**
 * Bundles the browser pages of examples/apps into self-contained HTML documents: each page's
 * `<script type="module" src="./<entry>.ts"></script>` is replaced by the esbuild bundle of that entry
 * (its imports included) as an inline module script.
 *
 * - The MCP App views, every folder `<name>-view/` (index.html loading ./view.ts, on the ext-apps `App`
 *   class): hosts load a view from a string (`srcdoc` or a sandbox proxy), so nothing can load relative
 *   to it, and under the spec's default CSP nothing from the network either: everything is inline.
 * - The minimal host of `host/` (host.html on the ext-apps `AppBridge`, sandbox.html its sandbox proxy),
 *   which the playground and the Chromium host test serve.
 *
 *   node scripts/build-app-views.mjs   writes examples/apps/<name>-view/dist/<name>-view.html and
 *                                      examples/apps/host/dist/{host,sandbox}.html
 *
 * `npm test`, `npm run fixture` and `npm run playground` run it first; tests and the fixture may call
 * {@link buildAppView} / {@link buildAppHost} themselves (they return the HTML, and write only when asked).
 */
import { mkdir, readdir, readFile, rename, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { bundleForInlineScript } from "./inline-bundle.mjs";

export const APPS_DIR = fileURLToPath(new URL("../examples/apps/", import.meta.url));
const SCRIPT_TAG = /<script type="module" src="\.\/([\w-]+\.ts)"><\/script>/;

/** Where the built view of `name` (e.g. "weather-view") is written. */
export function appViewFile(name) {
  return join(APPS_DIR, name, "dist", `${name}.html`);
}

/** Where the built page `page` ("host" or "sandbox") of the minimal host is written. */
export function appHostFile(page) {
  return join(APPS_DIR, "host", "dist", `${page}.html`);
}

/** The page `template` of `dir` with its module script bundled inline. */
async function inlinePage(dir, template) {
  const page = await readFile(join(dir, template), "utf8");
  const entry = SCRIPT_TAG.exec(page)?.[1];
  if (!entry)
    throw new Error(`${join(dir, template)}: no <script type="module" src="./<entry>.ts"></script> to inline`);
  const code = await bundleForInlineScript(join(dir, entry));
  // A function replacement: `$&` and friends in the bundle stay literal.
  return page.replace(SCRIPT_TAG, () => `<script type="module">${code}</script>`);
}

/** Writes aside, then renames: tests running at once build the same page, and a reader never sees half of it. */
async function writeWhole(file, text) {
  await mkdir(join(file, ".."), { recursive: true });
  const aside = `${file}.${process.pid}.${Date.now()}.tmp`;
  await writeFile(aside, text);
  await rename(aside, file);
}

/**
 * Builds the view `examples/apps/<name>/` and resolves with its HTML. With `write`, also writes it to
 * {@link appViewFile}. Throws when index.html lacks the view script tag or the bundle fails.
 */
export async function buildAppView(name, { write = false } = {}) {
  const html = await inlinePage(join(APPS_DIR, name), "index.html");
  if (write) await writeWhole(appViewFile(name), html);
  return html;
}

/** Builds the minimal host's two pages; with `write`, also writes them to {@link appHostFile}. */
export async function buildAppHost({ write = false } = {}) {
  const dir = join(APPS_DIR, "host");
  const [host, sandbox] = await Promise.all([inlinePage(dir, "host.html"), inlinePage(dir, "sandbox.html")]);
  if (write) await Promise.all([writeWhole(appHostFile("host"), host), writeWhole(appHostFile("sandbox"), sandbox)]);
  return { host, sandbox };
}

/** Every `<name>-view/` folder of examples/apps. */
export async function appViewNames() {
  const entries = await readdir(APPS_DIR, { withFileTypes: true });
  return entries.filter((entry) => entry.isDirectory() && entry.name.endsWith("-view")).map((entry) => entry.name);
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  for (const name of await appViewNames()) {
    const html = await buildAppView(name, { write: true });
    console.log(`${appViewFile(name)} (${Math.round(html.length / 1024)} KiB)`);
  }
  await buildAppHost({ write: true });
  console.log(`${appHostFile("host")}, ${appHostFile("sandbox")}`);
}
