/**
 * The official tasks client library (`@modelcontextprotocol/ext-tasks`, its 2026-07-28 path) over
 * the 2.x SDK client against mcp-h3/tasks, on h3 v2 and h3 v1: a call that becomes a task settles
 * to the tool's result, polled by the library itself.
 */
import { createTaskSessionFromClient, resultFromTaskOutcome } from "@modelcontextprotocol/ext-tasks/client";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { defineMcpHandler, defineTool, type McpEventHandler } from "../src/index.ts";
import { tasks } from "../src/_entries/tasks.ts";
import { HOSTS, startHost, type RunningHost } from "./helpers/hosts.ts";
import { MODERN_MODES, connectModern } from "./helpers/modern-clients.ts";
import { POST_HEADERS, toAnswer } from "./helpers/rpc.ts";

const TASK_METHODS = new Set(["tasks/get", "tasks/update", "tasks/cancel"]);

describe.each(HOSTS)("the ext-tasks client against mcp-h3/tasks on %s", (host) => {
  let handler: McpEventHandler;
  let server: RunningHost;
  beforeAll(async () => {
    handler = defineMcpHandler({
      name: "ext-tasks",
      version: "1.0.0",
      extensions: [tasks({ pollIntervalMs: 20 })],
      tools: [
        defineTool({
          name: "slow_sum",
          task: "optional",
          input: { type: "object", properties: { a: { type: "number" }, b: { type: "number" } }, required: ["a", "b"] },
          handler: async (_event, { a, b }) => {
            await new Promise((resolve) => setTimeout(resolve, 30));
            return `sum ${Number(a) + Number(b)}`;
          },
        }),
      ],
    });
    server = await startHost(host, handler);
  });
  afterAll(async () => {
    await server.close();
    await handler.close();
  });

  it("calls a tool, gets a task, and settles it to the tool's result", async () => {
    const connection = await connectModern(server.url, MODERN_MODES[0]!);
    const seen: string[] = [];
    // The host's request coordinator: the library hands it the method and params (with their `_meta`
    // framing); the JSON-RPC id and the standard headers are the host's.
    let nextId = 0;
    const rawDispatch = async (request: unknown) => {
      const message = request as { method: string; params?: Record<string, unknown> };
      seen.push(message.method);
      const name =
        message.method === "tools/call"
          ? message.params?.name
          : TASK_METHODS.has(message.method)
            ? message.params?.taskId
            : undefined;
      const headers: Record<string, string> = {
        ...POST_HEADERS,
        "mcp-protocol-version": "2026-07-28",
        "mcp-method": message.method,
        ...(typeof name === "string" ? { "mcp-name": name } : {}),
      };
      const answer = await toAnswer(
        await fetch(server.url, {
          method: "POST",
          headers,
          body: JSON.stringify({ jsonrpc: "2.0", id: ++nextId, ...message }),
        }),
      );
      return (answer.json ?? JSON.parse(answer.events.at(-1)!.data)) as never;
    };
    const session = createTaskSessionFromClient(connection.client as never, {
      endpointId: `mcp-h3-${host}`,
      rawDispatch,
      v2RequestFraming: {
        protocolVersion: "2026-07-28",
        clientInfo: { name: "ext-tasks-test", version: "1" },
        clientCapabilities: {},
      },
    });
    try {
      const execution = await session.callTool("slow_sum", { a: 2, b: 3 });
      const { outcome } = await execution.settle();
      const result = resultFromTaskOutcome(outcome) as { content: { text: string }[] };
      expect(result.content[0]!.text).toBe("sum 5");
      expect(seen).toContain("tasks/get");
    } finally {
      await session.close();
      await connection.close();
    }
  });
});
