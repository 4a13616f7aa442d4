/**
 * Long calls stay alive through proxies: a call that emits nothing for longer than `keepAliveMs`
 * is upgraded to SSE and carries keep-alive comments until its result, on both eras and hosts.
 */
import { afterEach, describe, expect, it } from "vitest";
import { defineMcpHandler, defineTool } from "../src/index.ts";
import { HOSTS, startHost, type RunningHost } from "./helpers/hosts.ts";
import { postToolCall } from "./helpers/rpc.ts";

const slow = defineTool({
  name: "slow",
  description: "Answers after 250 ms without emitting anything",
  handler: async () => {
    await new Promise((resolve) => setTimeout(resolve, 250));
    return "late";
  },
});

const MODERN_META = {
  "io.modelcontextprotocol/protocolVersion": "2026-07-28",
  "io.modelcontextprotocol/clientCapabilities": {},
};

describe.each(HOSTS)("keep-alive on %s", (host) => {
  let server: RunningHost | undefined;
  afterEach(async () => {
    await server?.close();
    server = undefined;
  });

  it("upgrades a silent long modern call to SSE with keep-alive comments", async () => {
    server = await startHost(host, defineMcpHandler({ name: "k", version: "1", keepAliveMs: 50, tools: [slow] }));
    const response = await postToolCall(server.url, 1, { name: "slow", _meta: MODERN_META });
    expect(response.headers.get("content-type")).toBe("text/event-stream");
    const body = await response.text();
    expect(body).toContain(": keepalive");
    expect(body).toContain('"text":"late"');
  });

  it("answers a quick call as plain JSON", async () => {
    const quick = defineTool({ name: "quick", description: "Answers at once", handler: () => "now" });
    server = await startHost(host, defineMcpHandler({ name: "k", version: "1", keepAliveMs: 50, tools: [quick] }));
    const response = await postToolCall(server.url, 1, { name: "quick", _meta: MODERN_META });
    expect(response.headers.get("content-type")).toBe("application/json");
    expect((await response.json()).result.content).toEqual([{ type: "text", text: "now" }]);
  });
});
