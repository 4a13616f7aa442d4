/**
 * Long calls stay alive through proxies: a call that emits nothing for longer than `keepAliveMs`
 * is upgraded to SSE and carries keep-alive comments until its result, on both eras and hosts.
 */
import { afterEach, describe, expect, it } from "vitest";
import { defineMcpHandler, defineTool } from "../src/index.ts";
import { deferred, type Deferred } from "./helpers/deferred.ts";
import { HOSTS, startHost, type RunningHost } from "./helpers/hosts.ts";
import { postToolCall } from "./helpers/rpc.ts";

/** A tool that emits nothing and answers only when the test releases it (no clock involved). */
function slowTool(release: Deferred) {
  return defineTool({
    name: "slow",
    description: "Answers once released, without emitting anything before",
    handler: async () => {
      await release.promise;
      return "late";
    },
  });
}

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
    const release = deferred();
    const tools = [slowTool(release)];
    server = await startHost(host, defineMcpHandler({ name: "k", version: "1", keepAliveMs: 50, tools }));
    // The call stays unanswered until two keep-alive comments have arrived: the order is the
    // assertion, however slow the machine is (the test's timeout is only a hang guard).
    const response = await postToolCall(server.url, 1, { name: "slow", _meta: MODERN_META });
    expect(response.headers.get("content-type")).toBe("text/event-stream");
    const reader = response.body!.pipeThrough(new TextDecoderStream()).getReader();
    let body = "";
    while (body.split(": keepalive").length - 1 < 2) {
      const { done, value } = await reader.read();
      expect(done).toBe(false);
      body += value;
    }
    expect(body).not.toContain('"result"');
    release.resolve();
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      body += value;
    }
    expect(body).toContain('"text":"late"');
  });

  it("answers a quick call as plain JSON", async () => {
    const quick = defineTool({ name: "quick", description: "Answers at once", handler: () => "now" });
    // A keep-alive far beyond any machine's delay: the call is quick whatever the load.
    server = await startHost(host, defineMcpHandler({ name: "k", version: "1", keepAliveMs: 60_000, tools: [quick] }));
    const response = await postToolCall(server.url, 1, { name: "quick", _meta: MODERN_META });
    expect(response.headers.get("content-type")).toBe("application/json");
    expect((await response.json()).result.content).toEqual([{ type: "text", text: "now" }]);
  });
});
