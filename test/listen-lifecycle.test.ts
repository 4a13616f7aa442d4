/**
 * The lifecycle of `subscriptions/listen` as the transports working group's guidance has it, on
 * h3 v2 and h3 v1 over real HTTP: a listen of which nothing is honoured is acknowledged with
 * `notifications: {}` and completed at once (its typed result, then the stream ends, no slot
 * held); a server with nothing to notify does not offer the method (404, -32601); one whose only
 * notifications come from an extension (the tasks extension's `taskIds`) does.
 */
import { afterEach, describe, expect, it } from "vitest";
import { defineMcpHandler, defineTool, type McpHandlerOptions } from "../src/index.ts";
import { tasks } from "../src/_entries/tasks.ts";
import { HOSTS, startHost, type RunningHost } from "./helpers/hosts.ts";
import { POST_HEADERS, toAnswer, type Answer } from "./helpers/rpc.ts";

const VERSION = "2026-07-28";

function listen(url: string, notifications: unknown, id = 7): Promise<Answer> {
  const meta = { "io.modelcontextprotocol/protocolVersion": VERSION, "io.modelcontextprotocol/clientCapabilities": {} };
  return fetch(url, {
    method: "POST",
    headers: { ...POST_HEADERS, "mcp-protocol-version": VERSION, "mcp-method": "subscriptions/listen" },
    body: JSON.stringify({
      jsonrpc: "2.0",
      id,
      method: "subscriptions/listen",
      params: { notifications, _meta: meta },
    }),
  }).then(toAnswer);
}

const echo = defineTool({ name: "echo", handler: () => "echo" });

describe.each(HOSTS)("the listen lifecycle on %s", (host) => {
  let server: RunningHost | undefined;
  afterEach(async () => {
    await server?.close();
    server = undefined;
  });
  const serve = async (options: Partial<McpHandlerOptions>): Promise<string> => {
    server = await startHost(host, defineMcpHandler({ name: "listen", version: "1.0.0", maxListens: 1, ...options }));
    return server.url;
  };

  it("a listen honouring nothing is acknowledged empty and completed at once, holding no slot", async () => {
    const url = await serve({ tools: [echo] });
    // Nothing asked for, then only what this server has no part of (it serves no prompts):
    // both end (toAnswer reads each to its end), and the one slot of maxListens: 1 stays free.
    for (const [id, notifications] of [
      [7, {}],
      [8, { promptsListChanged: true, resourceSubscriptions: [] }],
    ] as const) {
      const answer = await listen(url, notifications, id);
      expect(answer.status).toBe(200);
      const messages = answer.events.map((event) => JSON.parse(event.data) as Record<string, unknown>);
      expect(messages).toEqual([
        {
          jsonrpc: "2.0",
          method: "notifications/subscriptions/acknowledged",
          params: { _meta: { "io.modelcontextprotocol/subscriptionId": id }, notifications: {} },
        },
        {
          jsonrpc: "2.0",
          id,
          result: {
            resultType: "complete",
            _meta: {
              "io.modelcontextprotocol/subscriptionId": id,
              "io.modelcontextprotocol/serverInfo": { name: "listen", version: "1.0.0" },
            },
          },
        },
      ]);
    }
    // The slot was never held: a listen that is honoured still gets the one stream.
    const controller = new AbortController();
    const honoured = await fetch(url, {
      method: "POST",
      signal: controller.signal,
      headers: { ...POST_HEADERS, "mcp-protocol-version": VERSION, "mcp-method": "subscriptions/listen" },
      body: JSON.stringify({
        jsonrpc: "2.0",
        id: 9,
        method: "subscriptions/listen",
        params: {
          notifications: { toolsListChanged: true },
          _meta: {
            "io.modelcontextprotocol/protocolVersion": VERSION,
            "io.modelcontextprotocol/clientCapabilities": {},
          },
        },
      }),
    });
    expect(honoured.headers.get("content-type")).toContain("text/event-stream");
    controller.abort();
  });

  it("a server with nothing to notify does not offer listen: 404, -32601", async () => {
    const url = await serve({});
    const answer = await listen(url, { toolsListChanged: true });
    expect(answer.status).toBe(404);
    expect(answer.json).toMatchObject({ error: { code: -32601 } });
  });

  it("one whose only notifications are an extension's offers it", async () => {
    const url = await serve({ extensions: [tasks()] });
    const answer = await listen(url, {});
    expect(answer.status).toBe(200);
    expect(answer.events.map((event) => JSON.parse(event.data).result?.resultType)).toEqual([undefined, "complete"]);
  });
});
