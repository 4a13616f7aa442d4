/**
 * The checks every framework app passes, as a user would see them: the packed library installed
 * next to the framework leaves one h3 in the app, `event.context.mcp` is typed in the app's routes
 * (and a wrong use fails the type-check), the app's other routes work, the built server serves
 * both eras to the real clients, and its MCP App's view comes from the app's server assets.
 */
import { readFile, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { installApp, installedH3, TSC, type App, type RunningApp } from "./apps.ts";
import { APP_CLIENTS, connectAppClient } from "../helpers/app-clients.ts";
import { closeAfterEach } from "../helpers/cleanup.ts";
import { describeEraSequences, type EraTools } from "../helpers/era-sequences.ts";
import { jsonOf } from "../helpers/results.ts";

const SETUP_TIMEOUT_MS = 300_000;

/** The tools of the apps' MCP handler (routes/mcp.ts in each app under apps/), as the era sequences call them. */
const APP_TOOLS: EraTools = {
  progress: { name: "steps", text: "stepped" },
  ask: {
    name: "ask",
    check: (result, era, name) =>
      expect(jsonOf(result)).toEqual({ era, answer: { action: "accept", content: { name } } }),
  },
  announce: { name: "bump", text: "bumped" },
};

export interface AppSuite {
  /** The suite's title. */
  title: string;
  /** The fixture folder under apps/. */
  fixture: string;
  /** What the app installs besides the packed library (the framework, zod). */
  packages: readonly string[];
  /** Builds the app in its folder. */
  build(app: App): Promise<unknown>;
  /** Starts the built output (node, workerd, …). */
  serve(app: App): Promise<RunningApp>;
  /** The major version of h3 the framework runs on. */
  h3Major: 1 | 2;
  /** A route that uses `event.context.mcp` wrongly: it must fail the type-check. */
  wrongRoute: string;
  /** Where the app's routes live (default `routes`). */
  routesDir?: string;
  /** A second path the same handler is mounted on, the other way the framework allows (module or route file). */
  alsoMountedAt?: string;
  /** The app's server assets folder, where the MCP App's view is (default `assets`). */
  serverAssetsDir?: string;
  /** More checks on the same built app and its server, run after the common ones. */
  more?(app: () => App, server: () => RunningApp): void;
}

/** The MCP App of each app's handler: its view is `<serverAssetsDir>/weather.html`, read from `assets:server`. */
const VIEW_URI = "ui://weather/view.html";

export function describeBuiltApp(suite: AppSuite): void {
  describe(suite.title, () => {
    let app: App;
    let server: RunningApp;

    beforeAll(async () => {
      app = await installApp(suite.fixture, suite.packages);
      await suite.build(app);
      server = await suite.serve(app);
    }, SETUP_TIMEOUT_MS);
    afterAll(async () => {
      await server?.stop();
      await app?.remove();
    });

    it(`holds one h3, the framework's v${suite.h3Major}, at the app's root`, async () => {
      expect(await installedH3(app)).toEqual([join(app.dir, "node_modules/h3")]);
      const manifest = JSON.parse(await readFile(join(app.dir, "node_modules/h3/package.json"), "utf8")) as {
        version: string;
      };
      expect(manifest.version.startsWith(`${suite.h3Major}.`)).toBe(true);
    });

    it("types event.context.mcp in the app's routes, and a wrong use fails the type-check", async () => {
      await app.exec(process.execPath, [TSC, "-p", "."]);
      const wrongFile = `${suite.routesDir ?? "routes"}/wrong.ts`;
      await writeFile(join(app.dir, wrongFile), suite.wrongRoute);
      const failure = await app.exec(process.execPath, [TSC, "-p", "."]).then(
        () => "passed",
        (error: Error) => error.message,
      );
      expect(failure).toContain(wrongFile);
      expect(failure).toContain("TS2322");
    });

    it("keeps the app's other routes working (getQuery, readBody)", async () => {
      const response = await fetch(`${server.origin}/echo?page=2`, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ word: "hello" }),
      });
      expect(response.status).toBe(200);
      expect(await response.json()).toEqual({ query: { page: "2" }, word: "hello", mcpOnOtherRoutes: "absent" });
    });

    describe("an MCP App whose view is read from the server assets", () => {
      const open = closeAfterEach<{ close(): Promise<void> }>();
      // The fixture's own file: what the built server must serve, byte for byte.
      const assetUrl = new URL(
        `./apps/${suite.fixture}/${suite.serverAssetsDir ?? "assets"}/weather.html`,
        import.meta.url,
      );

      it.each(APP_CLIENTS)("%s lists the app's tool with its view and reads the view", async (name) => {
        const client = await connectAppClient(name, `${server.origin}/mcp`, { ui: true });
        open.push(client);
        const { tools } = await client.listTools();
        const tool = tools.find((listed) => listed.name === "weather");
        expect(tool?._meta?.ui).toMatchObject({ resourceUri: VIEW_URI });
        const { contents } = await client.readResource(VIEW_URI);
        const html = await readFile(fileURLToPath(assetUrl), "utf8");
        expect(contents).toEqual([
          { uri: VIEW_URI, mimeType: "text/html;profile=mcp-app", text: html, _meta: expect.any(Object) },
        ]);
      });
    });

    describeEraSequences(() => `${server.origin}/mcp`, APP_TOOLS);
    if (suite.alsoMountedAt !== undefined) {
      describe(`also mounted at ${suite.alsoMountedAt}`, () =>
        describeEraSequences(() => `${server.origin}${suite.alsoMountedAt}`, APP_TOOLS));
    }
    suite.more?.(
      () => app,
      () => server,
    );
  });
}
