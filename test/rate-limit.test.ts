/**
 * The `rateLimit` option over real HTTP, on h3 v2 and v1, with the library's own token bucket on a
 * fake clock: past the budget a request gets 429 with `Retry-After` and a JSON-RPC error, before any
 * session is looked at; with auth on the budget is per principal; a hook that throws lets the request
 * through and is counted; `experimental.rateLimitErrors` answers with SEP-3304's draft `-32023`.
 */
import { afterEach, describe, expect, it } from "vitest";
import { createTokenBucket, defineMcpHandler, defineTool, type McpHandlerOptions } from "../src/index.ts";
import { HOSTS, startHost, type RunningHost } from "./helpers/hosts.ts";
import { post, type Answer } from "./helpers/rpc.ts";

const initialize = {
  jsonrpc: "2.0",
  id: 1,
  method: "initialize",
  params: { protocolVersion: "2025-11-25", capabilities: {}, clientInfo: { name: "raw", version: "1" } },
};

const TOKENS: Record<string, string> = { "alice-token": "alice", "bob-token": "bob" };

describe.each(HOSTS)("rateLimit on %s", (host) => {
  const open: RunningHost[] = [];
  afterEach(async () => {
    for (const server of open.splice(0)) await server.close();
  });

  async function serve(options: Partial<McpHandlerOptions>) {
    const handler = defineMcpHandler({
      name: "limited",
      version: "1.0.0",
      tools: [defineTool({ name: "ping", description: "Answers pong", handler: () => "pong" })],
      ...options,
    });
    const server = await startHost(host, handler);
    open.push(server);
    return { handler, url: server.url };
  }

  function expectLimited(answer: Answer, seconds: number): void {
    expect(answer.status).toBe(429);
    expect(answer.headers.get("retry-after")).toBe(String(seconds));
    expect(answer.json).toMatchObject({ jsonrpc: "2.0", id: null, error: { data: { retryAfterSeconds: seconds } } });
  }

  it("answers 429 with Retry-After past the budget, before the session is looked at, until tokens come back", async () => {
    let now = 0;
    const bucket = createTokenBucket({ capacity: 2, refillPerSecond: 0.5, maxKeys: 100, now: () => now });
    const seen: (string | undefined)[] = [];
    const { url } = await serve({
      rateLimit: (_event, principal) => {
        seen.push(principal);
        return bucket.take(principal ?? "anonymous");
      },
    });
    expect((await post(url, initialize)).status).toBe(200);
    expect((await post(url, initialize)).status).toBe(200);
    expectLimited(await post(url, initialize), 2);
    // Limited before anything else: an unknown session id gets 429, not 404.
    expectLimited(await post(url, { jsonrpc: "2.0", id: 2, method: "ping" }, { "mcp-session-id": "nope" }), 2);
    now += 2_000;
    expect((await post(url, initialize)).status).toBe(200);
    expect(seen.every((principal) => principal === undefined)).toBe(true);
  });

  it("with auth on, counts each principal apart", async () => {
    const bucket = createTokenBucket({ capacity: 1, refillPerSecond: 0.001, maxKeys: 100, now: () => 0 });
    const { url } = await serve({
      auth: { validate: (token) => (TOKENS[token] ? { subject: TOKENS[token], scopes: [] } : undefined) },
      rateLimit: (_event, principal) => bucket.take(principal!),
    });
    const as = (token: string) => ({ authorization: `Bearer ${token}` });
    expect((await post(url, initialize, as("alice-token"))).status).toBe(200);
    expect((await post(url, initialize, as("alice-token"))).status).toBe(429);
    expect((await post(url, initialize, as("bob-token"))).status).toBe(200);
    // No token: the auth gate answers first, and the budget is not touched.
    expect((await post(url, initialize)).status).toBe(401);
  });

  it("a hook that throws lets the request through, counted as a callback_failure", async () => {
    const { handler, url } = await serve({
      rateLimit: () => {
        throw new Error("limiter down");
      },
      onIncident: () => {},
    });
    expect((await post(url, initialize)).status).toBe(200);
    expect(handler.incidents.callback_failure).toBe(1);
  });

  it("experimental.rateLimitErrors: SEP-3304's -32023 with retryAfterMs, 429 and Retry-After, in both eras", async () => {
    const { url } = await serve({
      rateLimit: () => ({ ok: false, retryAfterSeconds: 2.5 }),
      experimental: { rateLimitErrors: true },
    });
    const modern = {
      jsonrpc: "2.0",
      id: 2,
      method: "tools/call",
      params: {
        name: "ping",
        _meta: {
          "io.modelcontextprotocol/protocolVersion": "2026-07-28",
          "io.modelcontextprotocol/clientCapabilities": {},
        },
      },
    };
    const modernHeaders = { "mcp-protocol-version": "2026-07-28", "mcp-method": "tools/call", "mcp-name": "ping" };
    for (const answer of [await post(url, initialize), await post(url, modern, modernHeaders)]) {
      expect(answer.status).toBe(429);
      expect(answer.headers.get("retry-after")).toBe("3");
      expect(answer.json).toMatchObject({ id: null, error: { code: -32023, data: { retryAfterMs: 3000 } } });
    }
  });
});
