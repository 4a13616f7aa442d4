/**
 * Redis going away and coming back, with real processes: requests that need the store get a clear
 * JSON-RPC error (503 with Retry-After) in bounded time, modern calls that need no store keep
 * working, nothing crashes, and once redis-server is back on its port, sessions work again by
 * themselves. On h3 v2 and h3 v1.
 */
import { afterAll, afterEach, beforeAll, describe as vitestDescribe, expect, it } from "vitest";
import { defineMcpHandler, defineTool } from "../src/index.ts";
import { RedisConnection, RedisEventStore, RedisSessionStore } from "../src/_entries/redis.ts";
import { HOSTS, startHost, type RunningHost } from "./helpers/hosts.ts";
import { MODERN_MODES, connectModern } from "./helpers/modern-clients.ts";
import { startRedis, type RunningRedis } from "./helpers/redis-server.ts";
import { textOf } from "./helpers/results.ts";
import { initializeByHand, post } from "./helpers/rpc.ts";
import { REDIS, unavailable } from "./helpers/services.ts";

// Every suite of this file needs redis-server: skipped, said loudly, where it is missing (helpers/services.ts).
const describe = vitestDescribe.skipIf(unavailable(REDIS));

let redis: RunningRedis;
beforeAll(async () => {
  redis = await startRedis();
});
afterAll(async () => {
  await redis?.stop();
});

const pinned = MODERN_MODES.find((mode) => mode.name === "pinned") ?? MODERN_MODES[0]!;
/** A hang guard, far above what an answer takes: the point is that one comes at all. */
const ANSWER_GUARD_MS = 15_000;

describe.each(HOSTS)("Redis unavailable, on %s", (host) => {
  const open: { close(): Promise<void> }[] = [];
  afterEach(async () => {
    for (const item of open.splice(0).reverse()) await item.close();
  });

  it("answers 503 with Retry-After while Redis is down, keeps modern calls working, and recovers", async () => {
    const connection = new RedisConnection({ url: redis.url, prefix: `f-${host}:` });
    const handler = defineMcpHandler({
      name: "faults",
      version: "1.0.0",
      sessions: { store: new RedisSessionStore({ connection }) },
      events: new RedisEventStore({ connection }),
      tools: [defineTool({ name: "ping", description: "Answers pong", handler: () => "pong" })],
    });
    const server: RunningHost = await startHost(host, handler);
    open.push(connection, server);
    const session = await initializeByHand(server.url);

    await redis.stop();
    const call = { jsonrpc: "2.0", id: 2, method: "tools/call", params: { name: "ping", arguments: {} } };
    const during = await post(server.url, call, { "mcp-session-id": session, "mcp-protocol-version": "2025-11-25" });
    expect(during.status).toBe(503);
    expect(Number(during.headers.get("retry-after"))).toBeGreaterThan(0);
    expect(during.json).toMatchObject({ jsonrpc: "2.0", error: { code: expect.any(Number) } });
    const opening = await post(server.url, {
      jsonrpc: "2.0",
      id: 1,
      method: "initialize",
      params: { protocolVersion: "2025-11-25", capabilities: {}, clientInfo: { name: "raw", version: "1" } },
    });
    expect(opening.status).toBe(503);
    // The modern era keeps nothing in the store: it goes on.
    const modern = await connectModern(server.url, pinned);
    open.push(modern);
    expect(textOf(await modern.client.callTool({ name: "ping", arguments: {} }))).toBe("pong");

    // redis-server back on the same port, empty (it persists nothing): new sessions work again.
    redis = await startRedis(redis.port);
    const deadline = Date.now() + ANSWER_GUARD_MS;
    let again: string | undefined;
    while (again === undefined && Date.now() < deadline) {
      again = await initializeByHand(server.url).catch(() => undefined);
      if (again === undefined) await new Promise((resolve) => setTimeout(resolve, 100));
    }
    expect(again).toBeTruthy();
    const after = await post(server.url, call, { "mcp-session-id": again!, "mcp-protocol-version": "2025-11-25" });
    expect(after.status).toBe(200);
  });
});

describe("closing a connection while Redis is away", () => {
  it("ends within its bound with a subscription queued (node-redis's close() alone waits for it forever)", async () => {
    const connection = new RedisConnection({ url: redis.url, prefix: "f-close:" });
    const listener = () => {};
    await connection.subscribe("first", listener);
    const subscriber = await connection.subscriber();
    await redis.stop();
    try {
      while (subscriber.isReady) await new Promise((resolve) => setTimeout(resolve, 10));
      // Subscriptions are queued for the reconnect, whatever the offline queue says.
      const queued = connection.subscribe("second", listener).then(
        () => "subscribed",
        (error: Error) => error.message,
      );
      const started = Date.now();
      await connection.close();
      expect(Date.now() - started).toBeLessThan(ANSWER_GUARD_MS);
      expect(await queued).not.toBe("subscribed");
    } finally {
      redis = await startRedis(redis.port);
    }
  });
});
