/**
 * The sequences every deployed endpoint must pass with the real clients, in both eras: a legacy
 * session with a progress stream and an elicitation over its stream; a modern multi round-trip call
 * (elicit) and a listen that receives a list change. The examples (examples/catalog.ts) and the
 * framework test apps name their tools differently: `tools` says which is which.
 */
import type { McpSubscription } from "@modelcontextprotocol/client";
import { describe, expect, it } from "vitest";
import { closeAfterEach } from "./cleanup.ts";
import { CLIENTS, type Progress, type TestClient } from "./clients.ts";
import { MODERN_MODES, connectModern, type ModernConnection } from "./modern-clients.ts";
import { textOf, type TextResult } from "./results.ts";

const CALL_TIMEOUT_MS = 10_000;

/** The endpoint's three tools the sequences call, and what each answers. */
export interface EraTools {
  /** Sends progress 1, 2, 3, then answers `text`. */
  progress: { name: string; text: string };
  /** Elicits a name; `check` asserts its answer for the era and the name the client gave. */
  ask: { name: string; check(result: TextResult, era: "legacy" | "modern", name: string): void };
  /** Sends toolsChanged, then answers `text`. */
  announce: { name: string; text: string };
}

/** Declares the era sequences against the endpoint `url()` returns (read when each test runs). */
export function describeEraSequences(url: () => string, tools: EraTools): void {
  describe.each(CLIENTS)("legacy session with %s", (factory) => {
    const open = closeAfterEach<TestClient>();

    it("opens a session and streams progress on a call", async () => {
      const client = await factory.connect(url());
      open.push(client);
      expect(client.sessionId).toEqual(expect.any(String));
      const progress: Progress[] = [];
      const result = await client.callTool(tools.progress.name, {}, { onprogress: (p) => void progress.push(p) });
      expect(textOf(result)).toBe(tools.progress.text);
      expect(progress.map((p) => p.progress)).toEqual([1, 2, 3]);
    });

    it("asks for input over the session's stream", async () => {
      const client = await factory.connect(url(), {
        onElicit: () => ({ action: "accept", content: { name: "Ada" } }),
      });
      open.push(client);
      tools.ask.check(await client.callTool(tools.ask.name, {}), "legacy", "Ada");
    });
  });

  describe.each(MODERN_MODES)("modern client in $name mode", (mode) => {
    const open = closeAfterEach<ModernConnection>();

    it("completes a multi round-trip call (elicit)", async () => {
      const connection = await connectModern(url(), mode, {
        onElicit: () => ({ action: "accept", content: { name: "Grace" } }),
      });
      open.push(connection);
      const result = await connection.client.callTool(
        { name: tools.ask.name, arguments: {} },
        { timeout: CALL_TIMEOUT_MS },
      );
      tools.ask.check(result, "modern", "Grace");
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
          { name: tools.announce.name, arguments: {} },
          { timeout: CALL_TIMEOUT_MS },
        );
        expect(textOf(announced)).toBe(tools.announce.text);
        await expect.poll(() => changes).toHaveLength(1);
      } finally {
        await subscription?.close();
      }
    });
  });
}
