/**
 * A fresh nitropack 2 app with the packed library installed as a user installs it: one h3 (Nitro's
 * v1) in the app, `event.context.mcp` typed in ordinary routes, the app's other routes working, and
 * the built node-server output serving both eras to the real clients.
 */
import { writeFile } from "node:fs/promises";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { installApp, installedH3, startBuilt, TSC, type App, type RunningApp } from "./apps.ts";
import { describeBothEras } from "./both-eras.ts";

const SETUP_TIMEOUT_MS = 300_000;

describe("nitropack 2 app, node-server preset, built", () => {
  let app: App;
  let server: RunningApp;

  beforeAll(async () => {
    app = await installApp("nitropack2", ["nitropack@2.13.6", "zod@^4.0.0"]);
    await app.exec("npx", ["nitropack", "build"], { NITRO_PRESET: "node-server" });
    server = await startBuilt(app, ".output/server/index.mjs");
  }, SETUP_TIMEOUT_MS);
  afterAll(async () => {
    await server?.stop();
    await app?.remove();
  });

  it("holds one h3, Nitro's v1, at the app's root", async () => {
    const copies = await installedH3(app);
    expect(copies).toEqual([join(app.dir, "node_modules/h3")]);
    const { version } = (await import(join(app.dir, "node_modules/h3/package.json"), { with: { type: "json" } }))
      .default as { version: string };
    expect(version).toMatch(/^1\./);
  });

  it("types event.context.mcp in the app's routes, and a wrong use fails the type-check", async () => {
    await app.exec(process.execPath, [TSC, "-p", "."]);
    await writeFile(
      join(app.dir, "routes/wrong.ts"),
      "export default defineEventHandler((event) => { const era: number = event.context.mcp!.era; return era; });\n",
    );
    const failure = await app.exec(process.execPath, [TSC, "-p", "."]).then(
      () => "passed",
      (error: Error) => error.message,
    );
    expect(failure).toContain("routes/wrong.ts");
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

  describeBothEras(() => `${server.origin}/mcp`);
});
