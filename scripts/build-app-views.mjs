#!/usr/bin/env node
/**
 * Bundles each MCP App view of examples/apps (a folder `<name>-view/` with an `index.html` that loads
 * `./view.ts`) into ONE self-contained HTML document: esbuild bundles view.ts (the ext-apps `App` class
 * and zod included) for the browser, and the bundle replaces the `<script type="module" src="./view.ts">`
 * tag as an inline module script. Hosts load a view from a string (`srcdoc` or a sandbox proxy), so a
 * view cannot fetch anything relative to itself, and under the spec's default CSP it may not load
 * remote scripts either: everything has to be inline.
 *
 *   node scripts/build-app-views.mjs        writes examples/apps/<name>-view/dist/<name>-view.html
 *
 * `npm run fixture`, `npm run playground` and `npm test` run it first; tests and the fixture may call
 * {@link buildAppView} themselves (it returns the HTML, and writes the file only when asked).
 */
import { mkdir, readdir, readFile, rename, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { build } from "esbuild";

export const APPS_DIR = fileURLToPath(new URL("../examples/apps/", import.meta.url));
const SCRIPT_TAG = /<script type="module" src="\.\/view\.ts"><\/script>/;

/** Where the built view of `name` (e.g. "weather-view") is written. */
export function appViewFile(name) {
  return join(APPS_DIR, name, "dist", `${name}.html`);
}

/**
 * Builds the view `examples/apps/<name>/` and resolves with its HTML. With `write`, also writes it to
 * {@link appViewFile}. Throws when index.html lacks the view script tag or the bundle fails.
 */
export async function buildAppView(name, { write = false } = {}) {
  const dir = join(APPS_DIR, name);
  const template = await readFile(join(dir, "index.html"), "utf8");
  if (!SCRIPT_TAG.test(template)) {
    throw new Error(`${name}/index.html: no <script type="module" src="./view.ts"></script> to inline the bundle into`);
  }
  const result = await build({
    entryPoints: [join(dir, "view.ts")],
    bundle: true,
    write: false,
    format: "esm",
    platform: "browser",
    target: "es2022",
    minify: true,
    legalComments: "none",
    logLevel: "silent",
  });
  // esbuild escapes `</script` inside strings of a browser bundle; check anyway, an early end would be silent.
  const code = result.outputFiles[0].text;
  if (/<\/script/i.test(code)) throw new Error(`${name}: the bundle contains "</script" and cannot be inlined`);
  // A function replacement: `$&` and friends in the bundle stay literal.
  const html = template.replace(SCRIPT_TAG, () => `<script type="module">${code}</script>`);
  if (write) {
    await mkdir(join(dir, "dist"), { recursive: true });
    // Written aside, then renamed: tests running at once build the same view, and a server reading the
    // file must never see half of it.
    const aside = `${appViewFile(name)}.${process.pid}.${Date.now()}.tmp`;
    await writeFile(aside, html);
    await rename(aside, appViewFile(name));
  }
  return html;
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
}
