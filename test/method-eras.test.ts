/**
 * Per-era method tables over real HTTP on h3 v2 and h3 v1: a method of one era only (an
 * extension's, or the tasks extension's `tasks/result`, `tasks/list` and `tasks/update`) called in
 * the other era gets exactly what an unknown method gets there — the same request sent to a handler
 * without the method answers with the same status, headers and body. Modern: 404 -32601 before the
 * call runs, its `Mcp-Name` not asked for; legacy: 200 -32601 on the session.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { defineMcpHandler, defineTool, type McpExtension } from "../src/index.ts";
import type { McpEventHandler } from "../src/handler-types.ts";
import { tasks } from "../src/_entries/tasks.ts";
import { HOSTS, startHost, type RunningHost } from "./helpers/hosts.ts";
import { initializeByHand, post, type Answer } from "./helpers/rpc.ts";

const MODERN = "2026-07-28";
const LEGACY = "2025-11-25";
const MODERN_META = {
  "io.modelcontextprotocol/protocolVersion": MODERN,
  "io.modelcontextprotocol/clientCapabilities": {},
};

/** Serves one method in each era only, as an extension of a protocol to come might. */
const oneEraEach: McpExtension = {
  name: "example/one-era-each",
  plug(server) {
    server.method("example/legacy-only", () => ({ legacy: true }), ["legacy"]);
    server.method("example/modern-only", () => ({ modern: true }), ["modern"]);
  },
};

function handlerWith(extensions: McpExtension[]): McpEventHandler {
  const tools = [defineTool({ name: "noop", description: "Does nothing", handler: () => "ok" })];
  return defineMcpHandler({ name: "eras", version: "1.0.0", tools, extensions });
}

/** A modern request with the standard headers, and an `Mcp-Name` that names nothing the body says. */
function modernCall(url: string, method: string, params: Record<string, unknown> = {}): Promise<Answer> {
  const headers = { "mcp-protocol-version": MODERN, "mcp-method": method, "mcp-name": "not-the-task" };
  return post(url, { jsonrpc: "2.0", id: 9, method, params: { ...params, _meta: MODERN_META } }, headers);
}

/** A legacy request on a session opened for it. */
async function legacyCall(url: string, method: string, params: Record<string, unknown> = {}): Promise<Answer> {
  const headers = { "mcp-session-id": await initializeByHand(url), "mcp-protocol-version": LEGACY };
  return post(url, { jsonrpc: "2.0", id: 9, method, params }, headers);
}

/** What a client sees of an answer: status, headers (but the date and the session's own id) and body. */
function seen(answer: Answer): { status: number; headers: Record<string, string>; text: string } {
  const headers = Object.fromEntries(
    [...answer.headers].filter(([name]) => name !== "date" && name !== "mcp-session-id"),
  );
  return { status: answer.status, headers, text: answer.text };
}

describe.each(HOSTS)("a method of one era only, called in the other, on %s", (host) => {
  let served: RunningHost;
  let bare: RunningHost;

  beforeAll(async () => {
    served = await startHost(host, handlerWith([oneEraEach, tasks()]));
    bare = await startHost(host, handlerWith([]));
  });
  afterAll(async () => {
    await served.close();
    await bare.close();
  });

  it("is served in its own era", async () => {
    expect((await legacyCall(served.url, "example/legacy-only")).json).toMatchObject({ result: { legacy: true } });
    expect((await modernCall(served.url, "example/modern-only")).json).toMatchObject({ result: { modern: true } });
  });

  it("modern: a legacy-only method answers as an unknown one (404 -32601, no Mcp-Name asked for)", async () => {
    for (const [method, params] of [
      ["example/legacy-only", {}],
      ["tasks/result", { taskId: "some-task" }],
      ["tasks/list", {}],
    ] as const) {
      const answer = await modernCall(served.url, method, params);
      expect(seen(answer), method).toEqual(seen(await modernCall(bare.url, method, params)));
      expect(answer.status, method).toBe(404);
      expect(answer.json, method).toMatchObject({ error: { code: -32601, message: `Method not found: "${method}"` } });
    }
  });

  it("legacy: a modern-only method answers as an unknown one (200 -32601 on the session)", async () => {
    for (const [method, params] of [
      ["example/modern-only", {}],
      ["tasks/update", { taskId: "some-task", inputResponses: {} }],
    ] as const) {
      const answer = await legacyCall(served.url, method, params);
      expect(seen(answer), method).toEqual(seen(await legacyCall(bare.url, method, params)));
      expect(answer.status, method).toBe(200);
      expect(answer.json, method).toMatchObject({ error: { code: -32601, message: `Method not found: "${method}"` } });
    }
  });
});

describe("an extension serving a protocol method against its descriptor", () => {
  function plugging(method: string, eras?: ("legacy" | "modern")[]): () => McpEventHandler {
    const extension: McpExtension = {
      name: "example/wrong",
      plug: (server) => server.method(method, () => ({}), eras),
    };
    return () => handlerWith([extension]);
  }

  it("is refused when the handler is defined, naming the method and the era", () => {
    expect(plugging("ping", ["modern"])).toThrow(/serves ping in the modern era.*legacy era only/);
    expect(plugging("tasks/result")).toThrow(/serves tasks\/result in the modern era/);
    expect(plugging("tasks/update", ["legacy"])).toThrow(/serves tasks\/update in the legacy era.*modern era only/);
    expect(plugging("server/discover", ["modern"])).toThrow(/serves server\/discover, which the modern lane answers/);
  });

  it("may replace a method of the table, or add one of its own, in any era", () => {
    expect(plugging("tools/list")).not.toThrow();
    expect(plugging("example/anything")).not.toThrow();
  });
});
