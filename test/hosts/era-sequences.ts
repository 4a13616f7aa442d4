/**
 * The sequences every example must pass with the real clients, in both eras, against the shared
 * catalog of examples/catalog.ts: a legacy session with a progress stream and an elicitation over
 * its stream; a modern multi round-trip call (elicit) and a listen that receives a list change.
 */
import type { McpSubscription } from "@modelcontextprotocol/client";
import { describe, expect, it } from "vitest";
import { closeAfterEach } from "../helpers/cleanup.ts";
import { CLIENTS, type Progress, type TestClient } from "../helpers/clients.ts";
import { MODERN_MODES, connectModern, type ModernConnection } from "../helpers/modern-clients.ts";
import { textOf } from "../helpers/results.ts";

const CALL_TIMEOUT_MS = 5_000;

/** Declares the era sequences against the endpoint `url()` returns (read when each test runs). */
export function describeEraSequences(url: () => string): void {
  describe.each(CLIENTS)("legacy session with %s", (factory) => {
    const open = closeAfterEach<TestClient>();

    it("opens a session and streams progress on a call", async () => {
      const client = await factory.connect(url());
      open.push(client);
      expect(client.sessionId).toEqual(expect.any(String));
      const progress: Progress[] = [];
      const result = await client.callTool("countdown", {}, { onprogress: (p) => void progress.push(p) });
      expect(textOf(result)).toBe("liftoff");
      expect(progress.map((p) => p.progress)).toEqual([1, 2, 3]);
    });

    it("asks for input over the session's stream", async () => {
      const client = await factory.connect(url(), {
        onElicit: () => ({ action: "accept", content: { name: "Ada" } }),
      });
      open.push(client);
      expect(textOf(await client.callTool("greet", {}))).toBe("Hello, Ada!");
    });
  });

  describe.each(MODERN_MODES)("modern client in $name mode", (mode) => {
    const open = closeAfterEach<ModernConnection>();

    it("completes a multi round-trip call (elicit)", async () => {
      const connection = await connectModern(url(), mode, {
        onElicit: () => ({ action: "accept", content: { name: "Grace" } }),
      });
      open.push(connection);
      const result = await connection.client.callTool({ name: "greet", arguments: {} }, { timeout: CALL_TIMEOUT_MS });
      expect(textOf(result)).toBe("Hello, Grace!");
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
        const announced = await caller.client.callTool(
          { name: "announce", arguments: {} },
          { timeout: CALL_TIMEOUT_MS },
        );
        expect(textOf(announced)).toBe("announced");
        await expect.poll(() => changes).toHaveLength(1);
      } finally {
        await subscription?.close();
      }
    });
  });
}
