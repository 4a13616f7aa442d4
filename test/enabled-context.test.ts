/**
 * A definition's `enabled(event)` sees `event.context.mcp` of the request it is asked for, in both
 * eras, on h3 v2 and h3 v1, over real HTTP: the listings and calls (the sequence builds the context
 * before the catalog), modern `subscriptions/listen` and legacy `resources/subscribe` (which ask for
 * the catalog outside it). `enabled: clientSupportsApps` hides an app from clients that render no
 * views; an `enabled` reading the era hides a tool from one era.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { clientSupportsApps, defineMcpApp } from "../src/_entries/apps.ts";
import { defineMcpHandler, defineTool } from "../src/index.ts";
import { MODERN_PROTOCOL_VERSION } from "./helpers/modern-clients.ts";
import { UI_CAPABILITIES } from "./helpers/app-clients.ts";
import { HOSTS, startHost, type RunningHost } from "./helpers/hosts.ts";
import { POST_HEADERS, post, single, toAnswer, type Answer } from "./helpers/rpc.ts";

const viewsOnly = defineMcpApp({
  name: "views-only",
  enabled: clientSupportsApps,
  handler: () => "drawn",
  view: { html: "<!doctype html><p>drawn</p>" },
});
/** What each `enabled` saw, by era: a context, and its era. */
const seen: string[] = [];
const modernOnly = defineTool({
  name: "modern-only",
  enabled: (event) => {
    seen.push(event.context.mcp?.era ?? "no context");
    return event.context.mcp?.era === "modern";
  },
  handler: () => "modern",
});

type Capabilities = Record<string, unknown>;

/** Opens a legacy session declaring `capabilities`; gives a function that posts on it. */
async function legacySession(url: string, capabilities: Capabilities) {
  const params = { protocolVersion: "2025-11-25", capabilities, clientInfo: { name: "raw", version: "1" } };
  const opened = await post(url, { jsonrpc: "2.0", id: 0, method: "initialize", params });
  const sessionId = opened.headers.get("mcp-session-id")!;
  const headers = { "mcp-session-id": sessionId, "mcp-protocol-version": "2025-11-25" };
  await post(url, { jsonrpc: "2.0", method: "notifications/initialized" }, headers);
  return (method: string, params: Record<string, unknown> = {}) =>
    post(url, { jsonrpc: "2.0", id: 1, method, params }, headers);
}

/** A modern request declaring `capabilities` in its `_meta`. */
function modernRequest(url: string, capabilities: Capabilities, method: string, params: Record<string, unknown> = {}) {
  const meta = {
    "io.modelcontextprotocol/protocolVersion": MODERN_PROTOCOL_VERSION,
    "io.modelcontextprotocol/clientCapabilities": capabilities,
  };
  const headers: Record<string, string> = {
    ...POST_HEADERS,
    "mcp-protocol-version": MODERN_PROTOCOL_VERSION,
    "mcp-method": method,
  };
  if (typeof params.name === "string") headers["mcp-name"] = params.name;
  const body = JSON.stringify({ jsonrpc: "2.0", id: 1, method, params: { ...params, _meta: meta } });
  return fetch(url, { method: "POST", headers, body });
}

/** A modern listen for `uris`: whether the server acknowledged it (the stream is then closed), else its error. */
async function listenFor(url: string, capabilities: Capabilities, uris: string[]): Promise<string> {
  const response = await modernRequest(url, capabilities, "subscriptions/listen", {
    notifications: { resourceSubscriptions: uris },
  });
  if (response.headers.get("content-type")?.includes("text/event-stream")) {
    await response.body?.cancel();
    return "acknowledged";
  }
  const answer: Answer = await toAnswer(response);
  return single(answer).error?.message ?? "no error";
}

const toolNames = (answer: Answer) => (single(answer).result!.tools as { name: string }[]).map((tool) => tool.name);

describe.each(HOSTS)("enabled(event) sees event.context.mcp on %s", (host) => {
  let server: RunningHost;
  beforeAll(async () => {
    server = await startHost(
      host,
      defineMcpHandler({
        name: "enabled-context",
        version: "1.0.0",
        tools: [viewsOnly.tool, modernOnly],
        resources: [viewsOnly.view],
      }),
    );
  });
  afterAll(() => server.close());

  it("tools/list and tools/call in both eras: an app for clients that render views, a tool for one era", async () => {
    seen.length = 0;
    const ui = await legacySession(server.url, UI_CAPABILITIES);
    const plain = await legacySession(server.url, {});
    expect(toolNames(await ui("tools/list"))).toEqual(["views-only"]);
    expect(toolNames(await plain("tools/list"))).toEqual([]);
    expect(single(await plain("tools/call", { name: "views-only" })).error?.message).toMatch(/Unknown tool/);
    expect(single(await ui("tools/call", { name: "modern-only" })).error?.message).toMatch(/Unknown tool/);

    const modernList = async (capabilities: Capabilities) =>
      toolNames(await toAnswer(await modernRequest(server.url, capabilities, "tools/list")));
    expect(await modernList(UI_CAPABILITIES)).toEqual(["views-only", "modern-only"]);
    expect(await modernList({})).toEqual(["modern-only"]);
    const called = await toAnswer(await modernRequest(server.url, {}, "tools/call", { name: "modern-only" }));
    expect(single(called).result!.content).toEqual([{ type: "text", text: "modern" }]);
    expect(seen).not.toContain("no context");
    expect(new Set(seen)).toEqual(new Set(["legacy", "modern"]));
  });

  it("legacy resources/subscribe asks enabled with the request's context", async () => {
    const ui = await legacySession(server.url, UI_CAPABILITIES);
    const plain = await legacySession(server.url, {});
    expect(single(await ui("resources/subscribe", { uri: viewsOnly.uri })).result).toEqual({});
    expect(single(await plain("resources/subscribe", { uri: viewsOnly.uri })).error?.message).toMatch(
      /Resource not found/,
    );
  });

  it("modern subscriptions/listen asks enabled with the request's context", async () => {
    expect(await listenFor(server.url, UI_CAPABILITIES, [viewsOnly.uri])).toBe("acknowledged");
    expect(await listenFor(server.url, {}, [viewsOnly.uri])).toMatch(/Resource not found/);
  });
});
