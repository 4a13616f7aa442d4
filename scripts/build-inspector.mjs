#!/usr/bin/env node
/**
 * Builds the inspector page (inspector/: index.html, inspector.css, main.ts and what it imports, the
 * 2.x MCP client included) into one HTML document with its script and style inline, and the MCP App
 * sandbox proxy (sandbox.html, sandbox.ts) into another, and writes it as
 * a module the `mcp-h3/inspector` handler imports (package.json `imports`: `#inspector-page`):
 *
 *   node scripts/build-inspector.mjs   writes dist/inspector-page.mjs and dist/inspector-page.d.mts
 *
 * `npm run build` runs it after unbuild (which empties dist/). One document, no other files: the
 * handler serves it from any route of any host (a Worker has no file system), and its CSP allows
 * exactly the inline script and style by their sha256 hashes, which this script computes.
 */
import { createHash } from "node:crypto";
import { mkdir, readFile, rename, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { bundleForInlineScript } from "./inline-bundle.mjs";

const ROOT = fileURLToPath(new URL("..", import.meta.url));
const PAGE_DIR = join(ROOT, "inspector");
export const INSPECTOR_PAGE_FILE = join(ROOT, "dist", "inspector-page.mjs");

const hashOf = (text) => `'sha256-${createHash("sha256").update(text, "utf8").digest("base64")}'`;

/** The page, its script's and style's CSP hashes. */
export async function buildInspectorPage() {
  const [template, style] = await Promise.all([
    readFile(join(PAGE_DIR, "index.html"), "utf8"),
    readFile(join(PAGE_DIR, "inspector.css"), "utf8"),
  ]);
  const script = await bundleForInlineScript(join(PAGE_DIR, "main.ts"));
  if (/<\/style/i.test(style)) throw new Error('inspector.css contains "</style"');
  const html = template
    // The whole element is replaced: the hash covers exactly its contents (whitespace included).
    .replace(/<style>[\s\S]*?<\/style>/, () => `<style>${style}</style>`)
    .replace('<script type="module" src="./main.ts"></script>', () => `<script type="module">${script}</script>`);
  if (html.includes("./main.ts")) throw new Error("inspector/index.html: the main.ts script tag was not replaced");
  // The MCP App sandbox proxy, served by the same handler on another origin (its CSP is built per view).
  const sandboxTemplate = await readFile(join(PAGE_DIR, "sandbox.html"), "utf8");
  const sandboxScript = await bundleForInlineScript(join(PAGE_DIR, "sandbox.ts"));
  const sandboxHtml = sandboxTemplate.replace(
    '<script type="module" src="./sandbox.ts"></script>',
    () => `<script type="module">${sandboxScript}</script>`,
  );
  if (sandboxHtml.includes("./sandbox.ts")) throw new Error("inspector/sandbox.html: the script tag was not replaced");
  return { html, scriptHash: hashOf(script), styleHash: hashOf(style), sandboxHtml };
}

async function writeWhole(file, text) {
  await mkdir(join(file, ".."), { recursive: true });
  const aside = `${file}.${process.pid}.${Date.now()}.tmp`;
  await writeFile(aside, text);
  await rename(aside, file);
}

/** Builds the page and writes dist/inspector-page.mjs (and its .d.mts); resolves with the page. */
export async function writeInspectorPage() {
  const page = await buildInspectorPage();
  await writeWhole(INSPECTOR_PAGE_FILE, `export default ${JSON.stringify(page)};\n`);
  await writeWhole(
    INSPECTOR_PAGE_FILE.replace(/\.mjs$/, ".d.mts"),
    "declare const page: { html: string; scriptHash: string; styleHash: string; sandboxHtml: string };\nexport default page;\n",
  );
  return page;
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  const page = await writeInspectorPage();
  console.log(`${INSPECTOR_PAGE_FILE} (${Math.round(page.html.length / 1024)} KiB)`);
}
