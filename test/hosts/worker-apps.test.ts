/**
 * A Worker serving an MCP App: a fetch handler with `defineMcpApp` (its view read by an async
 * function), bundled with esbuild for the browser platform and run in workerd without
 * nodejs_compat. Hosts of both eras read the view and call the tool with the real clients, one
 * declaring the UI extension and one not.
 */
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { build } from "esbuild";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { APP_CLIENTS, connectAppClient } from "../helpers/app-clients.ts";
import { BIN, ROOT, startExample, type RunningExample } from "./runtime-process.ts";

const WORKER = `
import { defineMcpFetchHandler } from "./src/index.ts";
import { clientSupportsApps, defineMcpApp } from "./src/_entries/apps.ts";

const weather = defineMcpApp({
  name: "weather",
  handler: (event) =>
    clientSupportsApps(event)
      ? { content: [{ type: "text", text: "shown" }], structuredContent: { celsius: 21 } }
      : "21 °C",
  view: {
    html: async (event) => "<!doctype html><p>" + event.context.mcp?.era + "</p>",
    csp: { connectDomains: ["https://api.example.com"] },
  },
});

export default defineMcpFetchHandler({ name: "apps-worker", version: "1.0.0", tools: [weather.tool], resources: [weather.view] });
`;

const CONFIG = `using Workerd = import "/workerd/workerd.capnp";
const config :Workerd.Config = (
  services = [(name = "main", worker = .appsWorker)],
  sockets = [(name = "http", address = "127.0.0.1:8787", http = (), service = "main")],
);
const appsWorker :Workerd.Worker = (
  modules = [(name = "worker.js", esModule = embed "worker.js")],
  compatibilityDate = "2026-11-17",
  compatibilityFlags = ["no_nodejs_compat", "no_nodejs_compat_v2"],
);
`;

describe("a Worker serving an MCP App in workerd, without nodejs_compat", () => {
  const dir = mkdtempSync(join(tmpdir(), "mcp-h3-apps-worker-"));
  let worker: RunningExample;
  let bundle: string;

  beforeAll(async () => {
    const result = await build({
      stdin: { contents: WORKER, resolveDir: ROOT, loader: "ts" },
      bundle: true,
      minify: true,
      write: false,
      format: "esm",
      platform: "browser",
      logLevel: "silent",
    });
    bundle = result.outputFiles[0]!.text;
    writeFileSync(join(dir, "worker.js"), bundle);
    writeFileSync(join(dir, "config.capnp"), CONFIG);
    worker = await startExample((port) => ({
      file: BIN("workerd"),
      args: ["serve", "config.capnp", "--socket-addr", `http=127.0.0.1:${port}`],
      cwd: dir,
    }));
  }, 60_000);
  afterAll(async () => {
    await worker?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it("bundles without any node: import", () => {
    expect(bundle).not.toMatch(/["'`]node:/);
  });

  it.each(APP_CLIENTS)("%s: reads the view and calls the tool, with and without UI support", async (name) => {
    for (const ui of [true, false]) {
      const client = await connectAppClient(name, worker.url, { ui });
      try {
        const [content] = (await client.readResource("ui://weather/view.html")).contents;
        expect(content).toMatchObject({
          mimeType: "text/html;profile=mcp-app",
          text: `<!doctype html><p>${client.era}</p>`,
          _meta: { ui: { csp: { connectDomains: ["https://api.example.com"] } } },
        });
        const result = await client.callTool("weather");
        expect(result.content).toEqual([{ type: "text", text: ui ? "shown" : "21 °C" }]);
      } finally {
        await client.close();
      }
    }
  });
});
