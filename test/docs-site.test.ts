/**
 * The docs site as a reader meets it: built with VitePress (`vitepress build docs`, without the twoslash type
 * check, which test/docs-blocks.test.ts does), served from the built files on a real socket, and opened in
 * Debian's chromium, headless, through playwright-core. Every page of docs/ renders its title with no console
 * error; every internal link (sidebar, nav and prose) reaches a file, and every #anchor an element of its page; the
 * benchmark plots load; the search box finds pages by words only they hold.
 *
 * Under CI=true a missing chromium fails the suite; elsewhere it is skipped with a note.
 */
import { execFile } from "node:child_process";
import { existsSync, mkdtempSync, readFileSync, rmSync, statSync } from "node:fs";
import { createServer, type Server } from "node:http";
import { tmpdir } from "node:os";
import { extname, join, relative, resolve, sep } from "node:path";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import { type Browser, type Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { freePort } from "./helpers/free-port.ts";
import { CHROMIUM, launchChromium, unavailable } from "./helpers/services.ts";
import { markdownFiles } from "./helpers/docs-blocks.ts";

const run = promisify(execFile);
const root = fileURLToPath(new URL("..", import.meta.url));
const docs = join(root, "docs");

// Skipped, said loudly, where chromium is missing; a failure under CI (helpers/services.ts).
const haveChromium = !unavailable(CHROMIUM);

/** Each page of the site: its URL path and the title its h1 shows (the hero's name on the home page). */
const pages = markdownFiles(docs).map((file) => {
  const path = relative(docs, file).split(sep).join("/");
  const text = readFileSync(file, "utf8");
  const title = /^hero:\n\s+name:\s*(.+)$/m.exec(text)?.[1] ?? /^# (.+)$/m.exec(text)?.[1] ?? "";
  return {
    file: path,
    url: path === "index.md" ? "/" : `/${path.replace(/(^|\/)index\.md$/, "$1").replace(/\.md$/, ".html")}`,
    // The h1's text as rendered: inline code loses its backticks.
    title: title.replaceAll("`", ""),
  };
});

const TYPES: Record<string, string> = {
  ".html": "text/html; charset=utf-8",
  ".js": "text/javascript",
  ".css": "text/css",
  ".svg": "image/svg+xml",
  ".json": "application/json",
  ".woff2": "font/woff2",
};

/** Serves the built site as a static host does: `/dir/` is `dir/index.html`; anything else missing is 404. */
function serveStatic(dir: string, port: number): Promise<Server> {
  const server = createServer((req, res) => {
    const path = decodeURIComponent(new URL(req.url ?? "/", "http://x").pathname);
    let file = resolve(dir, `.${path}`);
    if (!file.startsWith(dir)) {
      res.writeHead(403).end();
      return;
    }
    if (existsSync(file) && statSync(file).isDirectory()) file = join(file, "index.html");
    if (!existsSync(file)) {
      res.writeHead(404, { "content-type": "text/plain" }).end("not found");
      return;
    }
    res.writeHead(200, { "content-type": TYPES[extname(file)] ?? "application/octet-stream" });
    res.end(readFileSync(file));
  });
  return new Promise((ok, fail) => {
    server.once("error", fail);
    server.listen(port, "127.0.0.1", () => ok(server));
  });
}

interface Visit {
  h1s: string[];
  ids: string[];
  links: string[];
  brokenImages: string[];
  errors: string[];
}

describe.skipIf(!haveChromium)("docs site in headless chromium", () => {
  let outDir = "";
  let server: Server | undefined;
  let origin = "";
  let browser: Browser | undefined;
  const visits = new Map<string, Visit>();

  beforeAll(async () => {
    outDir = mkdtempSync(join(tmpdir(), "mcp-h3-docs-site-"));
    await run(
      process.execPath,
      [join(root, "node_modules/vitepress/bin/vitepress.js"), "build", "docs", "--outDir", outDir],
      {
        cwd: root,
        env: { ...process.env, DOCS_TWOSLASH: "0" },
        maxBuffer: 64 * 1024 * 1024,
      },
    );
    const port = await freePort();
    server = await serveStatic(outDir, port);
    origin = `http://127.0.0.1:${port}`;
    browser = await launchChromium();
  }, 180_000);

  afterAll(async () => {
    await browser?.close();
    await new Promise((done) => (server ? server.close(done) : done(undefined)));
    if (outDir) rmSync(outDir, { recursive: true, force: true });
  });

  /** Opens `url` in `page` and reads what the checks need; `errors` collects what the console reported meanwhile. */
  async function visit(page: Page, url: string, errors: string[]): Promise<Visit> {
    const before = errors.length;
    const response = await page.goto(`${origin}${url}`, { waitUntil: "load" });
    expect(response?.status(), url).toBe(200);
    await page.locator("h1").first().waitFor();
    const seen = await page.evaluate(() => ({
      h1s: Array.from(document.querySelectorAll("h1"), (h) => (h.textContent ?? "").replace(/\u200b/g, "").trim()),
      ids: Array.from(document.querySelectorAll("[id]"), (e) => e.id),
      links: Array.from(document.querySelectorAll("a[href]"), (a) => (a as HTMLAnchorElement).href),
      brokenImages: Array.from(document.images)
        .filter((img) => !img.complete || img.naturalWidth === 0)
        .map((img) => img.src),
    }));
    return { ...seen, errors: errors.slice(before).map((error) => `${url}: ${error}`) };
  }

  it("lists exactly the pages of the site's plan", () => {
    expect(pages.map((p) => p.file).sort()).toEqual(
      [
        "index.md",
        "guide/tutorial.md",
        "guide/getting-started.md",
        "guide/hosts.md",
        "guide/modules.md",
        "guide/coming-from-mcp-toolkit.md",
        "guide/eras.md",
        "guide/definitions.md",
        "guide/context.md",
        "guide/asking-the-client.md",
        "guide/auth.md",
        "guide/scale-out.md",
        "guide/tasks.md",
        "guide/apps.md",
        "guide/skills.md",
        "guide/what-comes-next.md",
        "guide/inspector.md",
        "guide/options.md",
        "guide/testing.md",
        "guide/writing-an-extension.md",
        "guide/security.md",
        "guide/instrumentation.md",
        "guide/troubleshooting.md",
        "reference/conformance.md",
        "reference/benchmarks.md",
        "contributing/index.md",
      ].sort(),
    );
  });

  it("every page renders its title, with no console error and no broken image", { timeout: 120_000 }, async () => {
    const page = await browser!.newPage();
    const errors: string[] = [];
    page.on("console", (message) => {
      if (message.type() === "error") errors.push(`console: ${message.text()} (${message.location().url})`);
    });
    page.on("pageerror", (error) => errors.push(error.message));
    page.on("response", (response) => {
      if (response.status() >= 400) errors.push(`${response.url()} answered ${response.status()}`);
    });
    const problems: string[] = [];
    for (const { url, title } of pages) {
      const seen = await visit(page, url, errors);
      visits.set(url, seen);
      if (!seen.h1s.some((h1) => h1.includes(title))) problems.push(`${url}: no h1 "${title}" (h1s: ${seen.h1s})`);
      if (seen.h1s.length !== 1) problems.push(`${url}: ${seen.h1s.length} h1 elements`);
      problems.push(...seen.errors, ...seen.brokenImages.map((src) => `${url}: image did not load: ${src}`));
    }
    await page.close();
    expect(problems).toEqual([]);
  });

  it("every internal link reaches a file, and every anchor an element of its page", { timeout: 60_000 }, async () => {
    expect(visits.size).toBe(pages.length);
    const broken: string[] = [];
    const checkedFiles = new Map<string, number>();
    let anchors = 0;
    for (const [from, seen] of visits) {
      for (const href of seen.links) {
        const target = new URL(href);
        if (target.origin !== origin) continue;
        const path = target.pathname;
        if (!checkedFiles.has(path)) checkedFiles.set(path, (await fetch(`${origin}${path}`)).status);
        if (checkedFiles.get(path) !== 200) {
          broken.push(`${from}: ${href} answers ${checkedFiles.get(path)}`);
          continue;
        }
        if (target.hash.length > 1) {
          anchors++;
          const on = visits.get(path === "/index.html" ? "/" : path);
          const id = decodeURIComponent(target.hash.slice(1));
          if (!on) broken.push(`${from}: ${href} links an anchor on a page that is not part of the site`);
          else if (!on.ids.includes(id)) broken.push(`${from}: ${href}: no element #${id} on ${path}`);
        }
      }
    }
    expect(broken).toEqual([]);
    // The crawl saw the sidebar's pages and the prose's anchors, not an empty page.
    expect(checkedFiles.size).toBeGreaterThanOrEqual(pages.length);
    expect(anchors).toBeGreaterThan(50);
  });

  it("the search box finds a page by words only it holds", { timeout: 60_000 }, async () => {
    const page = await browser!.newPage();
    await page.goto(`${origin}/`, { waitUntil: "networkidle" });
    /**
     * Types `query` and waits (a hang guard, not a measure) until the first result, which the list selects, is a
     * link matching `expected`; the results follow the typing, so an earlier query's list may show first.
     */
    const findsFirst = async (query: string, expected: RegExp): Promise<void> => {
      await page.locator(".VPNavBarSearch button").first().click();
      await page.locator("input.search-input").fill(query);
      const first = page.locator(".VPLocalSearchBox .result.selected");
      await expect
        .poll(async () => ((await first.count()) ? await first.getAttribute("href") : ""), { timeout: 10_000 })
        .toMatch(expected);
      await page.keyboard.press("Escape");
    };
    await findsFirst("E404", /^\/guide\/troubleshooting\.html#npm-install-mcp-h3-answers-e404$/);
    await findsFirst("trustedFunctions", /^\/guide\/hosts\.html#node-versions$/);
    await findsFirst("defineMcpApp", /^\/guide\/apps\.html#/);
    await findsFirst("globSync", /^\/guide\/hosts\.html#node-versions$/);
    await page.close();
  });
});
