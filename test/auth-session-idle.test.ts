/**
 * A request from another principal carrying someone's session id changes nothing, not even the
 * session's idle timer: on h3 v2 and h3 v1, with the memory store on a fake clock and with
 * mcp-h3/redis on a real Redis (its key's TTL read back). Also on Redis: a session of alice's ended
 * through another instance leaves her count on this one when she reaches her cap.
 */
import { afterAll, afterEach, beforeAll, describe as vitestDescribe, expect, it, vi } from "vitest";
import { defineMcpHandler, defineTool, MemorySessionStore, type SessionStore } from "../src/index.ts";
import type { McpEventHandler } from "../src/handler-types.ts";
import { RedisConnection, RedisSessionStore } from "../src/_entries/redis.ts";
import { HOSTS, startHost, type RunningHost } from "./helpers/hosts.ts";
import { bearer, staticAuth } from "./helpers/auth.ts";
import { startRedis, type RunningRedis } from "./helpers/redis-server.ts";
import { POST_HEADERS, post, send, single, type Answer } from "./helpers/rpc.ts";
import { REDIS, unavailable } from "./helpers/services.ts";
import { redisKeyNames } from "./helpers/redis-key-names.ts";

// Every suite of this file needs redis-server: skipped, said loudly, where it is missing (helpers/services.ts).
const describe = vitestDescribe.skipIf(unavailable(REDIS));

const LEGACY = "2025-11-25";

function sessionHeaders(token: string, sessionId: string): Record<string, string> {
  return { ...POST_HEADERS, ...bearer(token), "mcp-session-id": sessionId, "mcp-protocol-version": LEGACY };
}

async function open(url: string, token: string): Promise<string> {
  const params = { protocolVersion: LEGACY, capabilities: {}, clientInfo: { name: "raw", version: "1" } };
  const answer = await post(url, { jsonrpc: "2.0", id: 1, method: "initialize", params }, bearer(token));
  expect(answer.status, answer.text).toBe(200);
  const sessionId = answer.headers.get("mcp-session-id")!;
  await post(url, { jsonrpc: "2.0", method: "notifications/initialized" }, sessionHeaders(token, sessionId));
  return sessionId;
}

function ping(url: string, token: string, sessionId: string): Promise<Answer> {
  return post(url, { jsonrpc: "2.0", id: 2, method: "ping" }, sessionHeaders(token, sessionId));
}

/**
 * Real event ids of alice's session: a call of hers answered on a stream (progress, then the
 * result), whose ids a resumption would replay from.
 */
async function aliceEventIds(url: string, sessionId: string): Promise<string[]> {
  const call = { name: "progress", arguments: {}, _meta: { progressToken: "p" } };
  const answer = await post(
    url,
    { jsonrpc: "2.0", id: 4, method: "tools/call", params: call },
    sessionHeaders("alice-token", sessionId),
  );
  expect(answer.headers.get("content-type")).toContain("text/event-stream");
  const ids = answer.events.map((event) => event.id).filter((id) => id !== undefined);
  expect(ids.length).toBeGreaterThan(1);
  return ids.slice(0, -1);
}

/** Everything bob can send with alice's session id (and her real event ids): each must get 404. */
async function bobTries(url: string, sessionId: string, eventIds: string[]): Promise<void> {
  const headers = sessionHeaders("bob-token", sessionId);
  const answers = [
    await ping(url, "bob-token", sessionId),
    await post(url, { jsonrpc: "2.0", method: "notifications/cancelled", params: { requestId: 1 } }, headers),
    await post(url, { jsonrpc: "2.0", id: 0, result: {} }, headers),
    await send(url, "GET", { ...headers, accept: "text/event-stream" }),
    await send(url, "DELETE", headers),
  ];
  for (const lastEventId of eventIds) {
    answers.push(await send(url, "GET", { ...headers, accept: "text/event-stream", "last-event-id": lastEventId }));
  }
  for (const answer of answers) expect(answer.status, answer.text).toBe(404);
  // notifySession from bob's own session to alice's is refused too.
  const bobs = await open(url, "bob-token");
  const poke = { jsonrpc: "2.0", id: 3, method: "tools/call", params: { name: "poke", arguments: { sessionId } } };
  const poked = single(await post(url, poke, sessionHeaders("bob-token", bobs)));
  expect(poked.result?.content).toEqual([{ type: "text", text: "refused" }]);
}

function handlerWith(store: SessionStore, maxSessionsPerPrincipal?: number): McpEventHandler {
  return defineMcpHandler({
    name: "idle",
    version: "1.0.0",
    auth: staticAuth(),
    sessions: { store, maxSessionsPerPrincipal },
    tools: [
      defineTool({
        name: "progress",
        description: "Reports progress, then answers",
        handler: async (event) => {
          await event.context.mcp!.progress(1, 2);
          return "done";
        },
      }),
      defineTool({
        name: "poke",
        description: "notifySession to the given session",
        handler: async (event, args: { sessionId?: unknown }) => {
          const mcp = event.context.mcp!;
          const sent = await mcp.notifySession(String(args.sessionId), "notifications/message", { level: "info" });
          return sent ? "delivered" : "refused";
        },
      }),
    ],
  });
}

let redis: RunningRedis;
let prefixes = 0;
beforeAll(async () => {
  redis = await startRedis();
});
afterAll(async () => {
  await redis?.stop();
});

describe.each(HOSTS)("a stranger's request and the idle timer on %s", (host) => {
  const servers: RunningHost[] = [];
  const handlers: McpEventHandler[] = [];
  const connections: RedisConnection[] = [];
  afterEach(async () => {
    vi.useRealTimers();
    for (const server of servers.splice(0)) await server.close();
    for (const handler of handlers.splice(0)) await handler.close();
    for (const connection of connections.splice(0)) await connection.close();
  });

  async function serve(handler: McpEventHandler): Promise<string> {
    handlers.push(handler);
    const server = await startHost(host, handler);
    servers.push(server);
    return server.url;
  }

  // The memory store reads a session in one step (getOwned); a store without it is looked at (peek), then read.
  it.each([
    ["memory store", () => new MemorySessionStore({ ttlMs: 60_000 })],
    ["a store with peek only", () => Object.assign(new MemorySessionStore({ ttlMs: 60_000 }), { getOwned: undefined })],
  ])("%s: bob's requests with alice's session id do not keep it alive", async (_, makeStore) => {
    vi.useFakeTimers({ toFake: ["Date"] });
    const url = await serve(handlerWith(makeStore()));
    const left = await open(url, "alice-token");
    const used = await open(url, "alice-token");
    const eventIds = await aliceEventIds(url, left);
    vi.setSystemTime(Date.now() + 40_000);
    await bobTries(url, left, eventIds);
    // What refreshing looks like: alice's own request on her other session.
    expect((await ping(url, "alice-token", used)).status).toBe(200);
    vi.setSystemTime(Date.now() + 21_000);
    // 61 s since alice last used it: bob's requests 21 s ago did not count.
    expect((await ping(url, "alice-token", left)).status).toBe(404);
    expect((await ping(url, "alice-token", used)).status).toBe(200);
  });

  it("Redis store: bob's requests leave the session key's TTL as it was; alice's refresh it", async () => {
    const prefix = `idle${++prefixes}:`;
    const connection = new RedisConnection({ url: redis.url, prefix });
    connections.push(connection);
    const url = await serve(handlerWith(new RedisSessionStore({ connection, ttlMs: 60_000 })));
    const sessionId = await open(url, "alice-token");
    const eventIds = await aliceEventIds(url, sessionId);
    const client = await connection.client();
    const key = redisKeyNames(prefix).session(sessionId);
    await client.pExpire(key, 5_000);
    await bobTries(url, sessionId, eventIds);
    expect(await client.pTTL(key)).toBeLessThanOrEqual(5_000);
    expect(await client.pTTL(key)).toBeGreaterThan(0);
    expect((await ping(url, "alice-token", sessionId)).status).toBe(200);
    expect(await client.pTTL(key)).toBeGreaterThan(5_000);
  });

  // RedisSessionStore counts each principal's sessions itself, across instances (auth-instances.test.ts);
  // a shared store without `reservePrincipal` is counted by each instance, as here.
  it("shared store counted per instance: a session alice ended through another instance frees its place here when she is at her cap", async () => {
    const prefix = `cap${++prefixes}:`;
    const stores = [0, 1].map(() => {
      const connection = new RedisConnection({ url: redis.url, prefix });
      connections.push(connection);
      const store = new RedisSessionStore({ connection });
      Object.assign(store, { reservePrincipal: undefined, releasePrincipal: undefined });
      return store;
    });
    const a = await serve(handlerWith(stores[0]!, 2));
    const b = await serve(handlerWith(stores[1]!, 2));
    const first = await open(a, "alice-token");
    await open(a, "alice-token");
    const refused = await post(
      a,
      { jsonrpc: "2.0", id: 1, method: "initialize", params: { protocolVersion: LEGACY, capabilities: {} } },
      bearer("alice-token"),
    );
    expect(refused.status).toBe(429);
    // Instance B serves her DELETE; A still counts the session until it looks it up in the store.
    expect((await send(b, "DELETE", sessionHeaders("alice-token", first))).status).toBe(200);
    expect(handlers[0]!.engine.services.sessions!.perPrincipal.countOf("alice")).toBe(2);
    await open(a, "alice-token");
    expect(handlers[0]!.engine.services.sessions!.perPrincipal.countOf("alice")).toBe(2);
  });
});
