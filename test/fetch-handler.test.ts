/**
 * `defineMcpFetchHandler`: MCP without h3, as Workers, Deno and Bun serve it (`{ fetch }`). Here
 * it runs behind Node's HTTP server through srvx, with no h3 app, and the real clients drive both
 * eras: a legacy session with a progress stream, a modern multi round-trip call and a listen.
 */
import type { McpSubscription } from "@modelcontextprotocol/client";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { z } from "zod";
import { defineMcpFetchHandler, defineTool, type McpFetchHandler } from "../src/index.ts";
import { stepsTool } from "./helpers/catalog.ts";
import { closeAfterEach } from "./helpers/cleanup.ts";
import { CLIENTS, type Progress, type TestClient } from "./helpers/clients.ts";
import { startFetchHost, type RunningHost } from "./helpers/hosts.ts";
import { MODERN_MODES, connectModern, type ModernConnection } from "./helpers/modern-clients.ts";
import { jsonOf, textOf } from "./helpers/results.ts";

const CALL_TIMEOUT_MS = 5_000;

/** What a tool saw of its event: the minimal event a fetch handler builds. */
let seenEvent: { method: string; path: string; hasContext: boolean } | undefined;

function buildHandler(): McpFetchHandler {
  return defineMcpFetchHandler({
    name: "fetch-only",
    version: "1.0.0",
    tools: [
      stepsTool,
      defineTool({
        name: "ask",
        description: "Asks the user for a name",
        handler: async (event) => {
          const mcp = event.context.mcp!;
          seenEvent = { method: event.req.method, path: event.url.pathname, hasContext: mcp !== undefined };
          const answer = await mcp.elicit("who", "Who are you?", z.object({ name: z.string() }));
          return JSON.stringify({ era: mcp.era, answer });
        },
      }),
      defineTool({
        name: "bump",
        description: "Announces that the tool list changed",
        handler: async (event) => {
          await event.context.mcp!.notify.toolsChanged();
          return "bumped";
        },
      }),
    ],
  });
}

describe("defineMcpFetchHandler served without h3", () => {
  let handler: McpFetchHandler;
  let server: RunningHost;

  beforeAll(async () => {
    handler = buildHandler();
    server = await startFetchHost(handler);
  });
  afterAll(async () => {
    await handler.close();
    await server.close();
  });

  it("is a `{ fetch }` object with the handler's controls, and no h3 event handler", () => {
    expect(typeof handler.fetch).toBe("function");
    expect(typeof handler.close).toBe("function");
    expect(handler.incidents).toEqual(expect.any(Object));
    expect(handler.engine.services.options.maxBodyBytes).toBeGreaterThan(0);
    expect(typeof handler).toBe("object");
  });

  describe.each(CLIENTS)("legacy session with %s", (factory) => {
    const open = closeAfterEach<TestClient>();

    it("opens a session and streams progress on a call", async () => {
      const client = await factory.connect(server.url);
      open.push(client);
      expect(client.sessionId).toEqual(expect.any(String));
      const progress: Progress[] = [];
      const result = await client.callTool("steps", {}, { onprogress: (p) => void progress.push(p) });
      expect(textOf(result)).toBe("stepped");
      expect(progress.map((p) => p.progress)).toEqual([1, 2, 3]);
    });

    it("asks for input over the session's stream", async () => {
      const client = await factory.connect(server.url, {
        onElicit: () => ({ action: "accept", content: { name: "Ada" } }),
      });
      open.push(client);
      const result = await client.callTool("ask", {});
      expect(jsonOf(result)).toEqual({ era: "legacy", answer: { action: "accept", content: { name: "Ada" } } });
      expect(seenEvent).toEqual({ method: "POST", path: "/mcp", hasContext: true });
    });
  });

  describe.each(MODERN_MODES)("modern client in $name mode", (mode) => {
    const open = closeAfterEach<ModernConnection>();

    it("completes a multi round-trip call with the client's own handler", async () => {
      const connection = await connectModern(server.url, mode, {
        onElicit: () => ({ action: "accept", content: { name: "Grace" } }),
      });
      open.push(connection);
      const result = await connection.client.callTool({ name: "ask", arguments: {} }, { timeout: CALL_TIMEOUT_MS });
      expect(jsonOf(result)).toEqual({ era: "modern", answer: { action: "accept", content: { name: "Grace" } } });
      expect(connection.requests("tools/call")).toHaveLength(2);
      expect(connection.errors).toEqual([]);
    });

    it("delivers a list change on a listen stream", async () => {
      const listener = await connectModern(server.url, mode);
      const caller = await connectModern(server.url, mode);
      open.push(listener, caller);
      const changes: unknown[] = [];
      listener.client.setNotificationHandler("notifications/tools/list_changed", (n) => void changes.push(n));
      let subscription: McpSubscription | undefined;
      try {
        subscription = await listener.client.listen({ toolsListChanged: true }, { timeout: CALL_TIMEOUT_MS });
        const bumped = await caller.client.callTool({ name: "bump", arguments: {} }, { timeout: CALL_TIMEOUT_MS });
        expect(textOf(bumped)).toBe("bumped");
        await expect.poll(() => changes).toHaveLength(1);
      } finally {
        await subscription?.close();
      }
    });
  });

  it("answers a plain GET (no session, no event-stream Accept) with a 4xx", async () => {
    const response = await fetch(server.url, { method: "GET" });
    expect(response.status).toBeGreaterThanOrEqual(400);
    expect(response.status).toBeLessThan(500);
  });
});
