/**
 * Both eras' real-client sequences against a deployed MCP endpoint (the apps' routes/mcp.ts define
 * `steps`, `ask` and `bump`): a legacy session with a progress stream and an elicitation, a modern
 * multi round-trip call and a listen that receives a list change.
 */
import type { McpSubscription } from "@modelcontextprotocol/client";
import { describe, expect, it } from "vitest";
import { closeAfterEach } from "../helpers/cleanup.ts";
import { CLIENTS, type Progress, type TestClient } from "../helpers/clients.ts";
import { MODERN_MODES, connectModern, type ModernConnection } from "../helpers/modern-clients.ts";
import { jsonOf, textOf } from "../helpers/results.ts";

const CALL_TIMEOUT_MS = 10_000;

/** Declares the sequences; `url()` is the endpoint, known once the suite's beforeAll ran. */
export function describeBothEras(url: () => string): void {
  describe.each(CLIENTS)("legacy session with %s", (factory) => {
    const open = closeAfterEach<TestClient>();

    it("opens a session and streams progress on a call", async () => {
      const client = await factory.connect(url());
      open.push(client);
      const progress: Progress[] = [];
      const result = await client.callTool("steps", {}, { onprogress: (p) => void progress.push(p) });
      expect(textOf(result)).toBe("stepped");
      expect(progress.map((p) => p.progress)).toEqual([1, 2, 3]);
    });

    it("asks for input over the session's stream", async () => {
      const client = await factory.connect(url(), {
        onElicit: () => ({ action: "accept", content: { name: "Ada" } }),
      });
      open.push(client);
      const result = await client.callTool("ask", {});
      expect(jsonOf(result)).toEqual({ era: "legacy", answer: { action: "accept", content: { name: "Ada" } } });
    });
  });

  describe.each(MODERN_MODES)("modern client in $name mode", (mode) => {
    const open = closeAfterEach<ModernConnection>();

    it("completes a multi round-trip call with the client's own handler", async () => {
      const connection = await connectModern(url(), mode, {
        onElicit: () => ({ action: "accept", content: { name: "Grace" } }),
      });
      open.push(connection);
      const result = await connection.client.callTool({ name: "ask", arguments: {} }, { timeout: CALL_TIMEOUT_MS });
      expect(jsonOf(result)).toEqual({ era: "modern", answer: { action: "accept", content: { name: "Grace" } } });
      expect(connection.requests("tools/call")).toHaveLength(2);
      expect(connection.errors).toEqual([]);
    });

    it("delivers a list change on a listen stream", async () => {
      const listener = await connectModern(url(), mode);
      const caller = await connectModern(url(), mode);
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
}
