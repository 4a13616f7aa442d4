/**
 * examples/h3-v2-srvx and examples/h3-v1 on Node 22 (TypeScript run by stripping types), each in its
 * own process, importing "mcp-h3" from the built package by the repository's self-reference; both
 * eras' sequences with the real clients. examples/apps/server.ts (an MCP App on h3 v2 + srvx) serves the
 * view built by scripts/build-app-views.mjs, as a host reads it.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { buildAppHost, buildAppView } from "../../scripts/build-app-views.mjs";
import { describeEraSequences } from "../helpers/era-sequences.ts";
import { EXAMPLE_TOOLS } from "./example-tools.ts";
import { NODE_22, startExample, type RunningExample } from "./runtime-process.ts";
import { describeWeatherApp } from "./weather-app-checks.ts";

describe.each(["h3-v2-srvx", "h3-v1"])("examples/%s on Node", (name) => {
  let example: RunningExample;
  beforeAll(async () => {
    example = await startExample(() => ({ file: NODE_22, args: ["--no-warnings", `examples/${name}/server.ts`] }));
  });
  afterAll(() => example?.close());

  describeEraSequences(() => example.url, EXAMPLE_TOOLS);
});

describe("examples/apps/server.ts on Node", () => {
  let example: RunningExample;
  let html = "";
  beforeAll(async () => {
    // As the example's README says: build the pages first, the server reads the files at start.
    [html] = await Promise.all([buildAppView("weather-view", { write: true }), buildAppHost({ write: true })]);
    example = await startExample(() => ({ file: NODE_22, args: ["--no-warnings", "examples/apps/server.ts"] }));
  }, 60_000);
  afterAll(() => example?.close());

  describeWeatherApp(
    () => example.url,
    () => html,
  );

  it("serves the minimal host page, framed by no page, and its sandbox framed only by the host page", async () => {
    const url = new URL(example.url);
    const host = await fetch(`${url.origin}/host`);
    expect(host.headers.get("content-type")).toBe("text/html; charset=utf-8");
    expect(host.headers.get("content-security-policy")).toBe("frame-ancestors 'none'");
    expect(await host.text()).toContain("<title>MCP Apps host</title>");
    // Asked on one loopback name, the sandbox is the host page's on the other; a ?csp= shapes nothing.
    const twin = url.hostname === "localhost" ? "127.0.0.1" : "localhost";
    const csp = encodeURIComponent(JSON.stringify({ connectDomains: ["https://api.example.com"] }));
    const sandbox = await fetch(`${url.origin}/sandbox?csp=${csp}`);
    const policy = sandbox.headers.get("content-security-policy");
    expect(policy).toContain(`frame-ancestors http://${twin}:${url.port};`);
    expect(policy).toMatch(/; sandbox allow-scripts allow-forms allow-popups allow-modals$/);
    expect(policy).not.toContain("api.example.com");
    expect(policy).not.toContain("unsafe-eval");
    expect(await sandbox.text()).toContain(`{"hostOrigin":"http://${twin}:${url.port}"}`);
  });
});
