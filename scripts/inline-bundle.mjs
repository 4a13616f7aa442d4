/**
 * The browser bundle the page builders inline into one HTML document (the MCP App views and their
 * minimal host, scripts/build-app-views.mjs; the inspector page, scripts/build-inspector.mjs).
 */
import { build } from "esbuild";

/**
 * `entry` and what it imports, bundled and minified for the browser, as text ready to stand inside
 * a `<script type="module">` element. Throws when the bundle holds `</script`: esbuild escapes it
 * inside strings, but an early end of the element would otherwise go unnoticed.
 */
export async function bundleForInlineScript(entry) {
  const result = await build({
    entryPoints: [entry],
    bundle: true,
    write: false,
    format: "esm",
    platform: "browser",
    target: "es2022",
    minify: true,
    legalComments: "none",
    logLevel: "silent",
  });
  const code = result.outputFiles[0].text;
  if (/<\/script/i.test(code)) throw new Error(`${entry}: the bundle contains "</script" and cannot be inlined`);
  return code;
}
