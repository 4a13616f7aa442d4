/**
 * mcp-h3/testing: `createMcpTestClient` in both eras, in process (no port), on a `defineMcpHandler`
 * handler mounted in an h3 v2 app, on the handler itself and on a `defineMcpFetchHandler` handler:
 * every option (era, headers, capabilities, elicitation, sampling, roots, apps, timeout) and helper
 * (`textOf`, the notifications in order, a task answered and one cancelled, an app's view, `await
 * using`), and the errors a test author meets (an unknown tool, a request never answered, a
 * modern header mismatch), each the SDK's error with the server's message.
 */
import { LOG_LEVEL_META_KEY, ProtocolError, SdkError, SdkErrorCode } from "@modelcontextprotocol/client";
import { H3 } from "h3";
import { afterAll, describe, expect, it, vi } from "vitest";
import { createMcpTestClient, McpTestClient, textOf, type McpTestTarget } from "../src/_entries/testing.ts";
import { buildEventHandler, buildFetchHandler, watchCancel } from "./helpers/testing-server.ts";

const eventHandler = buildEventHandler();
const fetchHandler = buildFetchHandler();
const h3App = new H3().all("/mcp", eventHandler);
afterAll(async () => {
  await eventHandler.close();
  await fetchHandler.close();
});

const TARGETS: [string, McpTestTarget][] = [
  ["an h3 v2 app", h3App],
  ["a defineMcpHandler handler", eventHandler],
  ["a defineMcpFetchHandler handler", fetchHandler],
];
const ERAS = ["legacy", "modern"] as const;
const accept = (name: string) => () => ({ action: "accept" as const, content: { name } });

describe.each(TARGETS)("createMcpTestClient on %s", (_name, target) => {
  describe.each(ERAS)("in the %s era", (era) => {
    it("connects the official client in the era asked for, and the usual calls work", async () => {
      await using client = await createMcpTestClient(target, { era });
      expect(client).toBeInstanceOf(McpTestClient);
      expect(client.era).toBe(era);
      expect(client.getNegotiatedProtocolVersion()).toBe(era === "modern" ? "2026-07-28" : "2025-11-25");
      const { tools } = await client.listTools();
      expect(tools.map((tool) => tool.name)).toContain("echo");
      expect(textOf(await client.callTool({ name: "echo", arguments: { text: "hi" } }))).toBe("hi");
      expect(textOf(await client.readResource({ uri: "memo://readme" }))).toBe("read me");
      expect(textOf(await client.getPrompt({ name: "hello", arguments: { who: "Ada" } }))).toBe("Say hello to Ada");
      const completed = await client.complete({
        ref: { type: "ref/prompt", name: "hello" },
        argument: { name: "who", value: "w" },
      });
      expect(completed.completion.values).toEqual(["world", "web"]);
      // The SDK's own request() keeps its typed overloads.
      const listed = await client.request({ method: "tools/list" });
      expect(listed.tools.length).toBe(tools.length);
    });

    it("answers an elicitation with the elicitation option", async () => {
      const asked: unknown[] = [];
      await using client = await createMcpTestClient(target, {
        era,
        elicitation: (params) => {
          asked.push(params.message);
          return { action: "accept", content: { name: "Ada" } };
        },
      });
      expect(textOf(await client.callTool({ name: "greet", arguments: {} }))).toBe("Hello, Ada!");
      expect(asked).toEqual(["Who are you?"]);
    });

    it("answers a sampling request with the sampling option, and roots with the roots option", async () => {
      await using client = await createMcpTestClient(target, {
        era,
        sampling: () => ({ role: "assistant", content: { type: "text", text: "old pond" }, model: "test-model" }),
        roots: [{ uri: "file:///work", name: "work" }, { uri: "file:///tmp" }],
      });
      expect(textOf(await client.callTool({ name: "haiku", arguments: {} }))).toBe("model test-model wrote: old pond");
      expect(textOf(await client.callTool({ name: "roots", arguments: {} }))).toBe("file:///work file:///tmp");
    });

    it("collects progress and log notifications in order", async () => {
      await using client = await createMcpTestClient(target, { era });
      if (era === "legacy") await client.setLoggingLevel("info");
      const progress: number[] = [];
      // The modern era has no logging/setLevel: the level rides in each request's _meta.
      const meta = era === "modern" ? { _meta: { [LOG_LEVEL_META_KEY]: "info" } } : {};
      const result = await client.callTool(
        { name: "count", arguments: {}, ...meta },
        { onprogress: (update) => void progress.push(update.progress) },
      );
      expect(textOf(result)).toBe("counted");
      expect(progress).toEqual([1, 2, 3]);
      const seen = client.notifications
        .filter((each) => each.method === "notifications/progress" || each.method === "notifications/message")
        .map((each) =>
          each.method === "notifications/progress" ? `progress ${each.params?.progress}` : each.params?.data,
        );
      expect(seen).toEqual(["progress 1", "did step 1", "progress 2", "did step 2", "progress 3", "did step 3"]);
      expect(client.notificationsOf("notifications/message").map((each) => each.level)).toEqual([
        "info",
        "info",
        "info",
      ]);
    });

    it("collects list-changed notifications: a legacy session's stream, a modern subscriptions/listen", async () => {
      await using client = await createMcpTestClient(target, { era });
      if (era === "modern") await client.listen({ toolsListChanged: true });
      expect(textOf(await client.callTool({ name: "change", arguments: {} }))).toBe("changed");
      await vi.waitFor(() => expect(client.notificationsOf("notifications/tools/list_changed")).toHaveLength(1));
    });

    it("declares the given capabilities and sends the given headers", async () => {
      await using client = await createMcpTestClient(target, {
        era,
        capabilities: { elicitation: { url: {} } },
        elicitation: accept("x"),
        headers: { "x-test": "from the test" },
        clientInfo: { name: "my-test", version: "2.0.0" },
      });
      const seen = JSON.parse(textOf(await client.callTool({ name: "whoami", arguments: {} })));
      expect(seen).toMatchObject({
        era,
        client: "my-test",
        header: "from the test",
        capabilities: { elicitation: { url: {} } },
      });
    });

    it("runs a task to its result, answering its question with the elicitation option", async () => {
      await using client = await createMcpTestClient(target, { era, elicitation: accept("drafts") });
      const task = await client.startTask({ name: "report", arguments: {} });
      expect(task.taskId).toEqual(expect.any(String));
      expect(textOf(await task.result())).toBe("report for drafts");
      // The 2025-11-25 wire waits in tasks/result, so a poll may miss input_required there.
      expect(task.statuses[0]).toBe("working");
      expect(task.statuses.at(-1)).toBe("completed");
      if (era === "modern") expect(task.statuses.slice(0, 2)).toEqual(["working", "input_required"]);
      expect(textOf(await client.runTask({ name: "report", arguments: {} }))).toBe("report for drafts");
    });

    it("cancels a task: the handler's signal fires, and the task ends cancelled", async () => {
      await using client = await createMcpTestClient(target, { era });
      const id = `${era}-${_name}`;
      const seen = watchCancel(id);
      const task = await client.startTask({ name: "wait_cancel", arguments: { id } });
      await task.cancel();
      expect(await seen.promise).toEqual(expect.any(String));
      expect(await task.settled()).toEqual({ status: "cancelled" });
      expect(task.statuses.at(-1)).toBe("cancelled");
      await expect(task.result()).rejects.toBeInstanceOf(ProtocolError);
    });

    it("settles a failed task with the server's ProtocolError", async () => {
      await using client = await createMcpTestClient(target, { era, taskPollMs: 5 });
      const task = await client.startTask({ name: "doomed", arguments: {} });
      const outcome = await task.settled();
      expect(outcome.status).toBe("failed");
      const error = (outcome as { error: ProtocolError }).error;
      expect(error).toBeInstanceOf(ProtocolError);
      expect([error.code, error.message]).toEqual([-32050, expect.stringContaining("the report could not be built")]);
      expect(task.statuses.at(-1)).toBe("failed");
      await expect(task.result()).rejects.toBe(error);
    });

    it("reads an app tool's view with its _meta.ui", async () => {
      await using client = await createMcpTestClient(target, { era, apps: true });
      const view = await client.readAppView("weather");
      expect(view.uri).toBe("ui://weather/view.html");
      expect(view.mimeType).toBe("text/html;profile=mcp-app");
      expect(view.html).toContain("<title>Weather</title>");
      expect(view.toolUi).toMatchObject({ resourceUri: view.uri });
      expect(view.ui).toMatchObject({ csp: { connectDomains: ["https://api.example.com"] } });
    });

    it("surfaces an unknown tool as the SDK's ProtocolError with the server's message", async () => {
      await using client = await createMcpTestClient(target, { era });
      const error = await client.callTool({ name: "no_such_tool", arguments: {} }).catch((caught: unknown) => caught);
      expect(error).toBeInstanceOf(ProtocolError);
      expect((error as ProtocolError).code).toBe(-32602);
      expect((error as ProtocolError).message).toContain("no_such_tool");
    });

    it("fails a request the server never answers with the SDK's timeout error, not a hang", async () => {
      await using client = await createMcpTestClient(target, { era, timeout: 300 });
      const error = await client.callTool({ name: "hang", arguments: {} }).catch((caught: unknown) => caught);
      expect(error).toBeInstanceOf(SdkError);
      expect((error as SdkError).code).toBe(SdkErrorCode.RequestTimeout);
    });
  });

  it("closes on the end of an await using scope, and by close() without one", async () => {
    let kept: McpTestClient;
    {
      await using client = await createMcpTestClient(target);
      kept = client;
      expect(kept.transport).toBeDefined();
    }
    expect(kept.transport).toBeUndefined();
    const plain = await createMcpTestClient(target, { era: "legacy" });
    await plain.close();
    expect(plain.transport).toBeUndefined();
  });

  it("picks the modern era on its own with era: auto", async () => {
    await using client = await createMcpTestClient(target, { era: "auto" });
    expect(client.era).toBe("modern");
  });

  it("surfaces a modern header mismatch as the SDK's ProtocolError with the server's message", async () => {
    // The 2.x client mirrors Mcp-Param-* headers from the tool's definition; a stale one (here without the
    // tool's x-mcp-header) makes it send none, which the server refuses.
    await using client = await createMcpTestClient(target, { era: "modern" });
    const stale = { name: "regional", inputSchema: { type: "object" as const } };
    const error = await client
      .callTool({ name: "regional", arguments: { region: "eu" } }, { toolDefinition: stale })
      .catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(ProtocolError);
    expect((error as ProtocolError).code).toBe(-32020);
    expect((error as ProtocolError).message).toContain("Mcp-Param-Region header is required");
    expect(textOf(await client.callTool({ name: "regional", arguments: { region: "eu" } }))).toBe("region eu");
  });
});

describe("createMcpTestClient on an app that mounts the handler elsewhere", () => {
  it("finds the handler where an app mounts it, with path; roots may come from a function", async () => {
    const mounted = new H3().all("/api/mcp", eventHandler);
    await using client = await createMcpTestClient(mounted, {
      path: "/api/mcp",
      roots: async () => [{ uri: "file:///from-a-function" }],
    });
    expect(textOf(await client.callTool({ name: "roots", arguments: {} }))).toBe("file:///from-a-function");
    // Not where it is mounted: the app's 404 fails the connection at once.
    await expect(createMcpTestClient(mounted)).rejects.toThrow(/404/);
  });
});
