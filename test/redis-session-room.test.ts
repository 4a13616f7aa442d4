/**
 * Room for a new session on mcp-h3/redis, over real HTTP on h3 v2 and v1 with a real Redis: an idle
 * session is ended for a new `initialize` even when the oldest sessions hold GET streams; sessions
 * that never sent `notifications/initialized` go first and have their own cap; two instances on one
 * Redis creating at the cap at once never go past it; an initialize past the 64 KiB bound of what a
 * session keeps of its client writes nothing; and with auth on, reading a session is one command on
 * Redis.
 */
import { afterAll, afterEach, beforeAll, describe as vitestDescribe, expect, it } from "vitest";
import { createClient } from "redis";
import { defineMcpHandler } from "../src/index.ts";
import type { McpEventHandler } from "../src/handler-types.ts";
import { RedisConnection, RedisSessionStore, type RedisSessionStoreOptions } from "../src/_entries/redis.ts";
import { bearer, staticAuth } from "./helpers/auth.ts";
import { HOSTS, startHost, type RunningHost } from "./helpers/hosts.ts";
import { openGetStream, type LiveSse } from "./helpers/live-sse.ts";
import { startRedis, type RunningRedis } from "./helpers/redis-server.ts";
import { expectError, post, type Answer } from "./helpers/rpc.ts";
import { REDIS, unavailable } from "./helpers/services.ts";
import { redisKeyNames } from "./helpers/redis-key-names.ts";

// Every suite of this file needs redis-server: skipped, said loudly, where it is missing (helpers/services.ts).
const describe = vitestDescribe.skipIf(unavailable(REDIS));

const VERSION = "2025-11-25";
let nextId = 1;
let prefixes = 0;

let redis: RunningRedis;
beforeAll(async () => {
  redis = await startRedis();
});
afterAll(async () => {
  await redis?.stop();
});

function initializeMessage(): object {
  return {
    jsonrpc: "2.0",
    id: nextId++,
    method: "initialize",
    params: { protocolVersion: VERSION, capabilities: {}, clientInfo: { name: "room-test", version: "1" } },
  };
}

function headersOf(sessionId: string, extra: Record<string, string> = {}): Record<string, string> {
  return { "mcp-session-id": sessionId, "mcp-protocol-version": VERSION, ...extra };
}

/** `initialize` only: the session stays pending. */
async function openPending(url: string, extra: Record<string, string> = {}): Promise<string> {
  const answer = await post(url, initializeMessage(), extra);
  expect(answer.status, answer.text).toBe(200);
  return answer.headers.get("mcp-session-id")!;
}

/** `initialize` then `notifications/initialized`, as every client does. */
async function openInitialized(url: string, extra: Record<string, string> = {}): Promise<string> {
  const id = await openPending(url, extra);
  const initialized = await post(url, { jsonrpc: "2.0", method: "notifications/initialized" }, headersOf(id, extra));
  expect(initialized.status).toBe(202);
  return id;
}

function ping(url: string, sessionId: string, extra: Record<string, string> = {}): Promise<Answer> {
  return post(url, { jsonrpc: "2.0", id: nextId++, method: "ping" }, headersOf(sessionId, extra));
}

describe.each(HOSTS)("room for a session on Redis, %s", (host) => {
  const open: { close(): Promise<void> | void }[] = [];
  afterEach(async () => {
    for (const item of open.splice(0).reverse()) await item.close();
  });

  /** One instance on the keys of `prefix`: its own connection, handler and server. */
  async function instance(
    prefix: string,
    options: RedisSessionStoreOptions,
    auth = false,
  ): Promise<{ url: string; handler: McpEventHandler; connection: RedisConnection }> {
    const connection = new RedisConnection({ url: redis.url, prefix });
    open.push(connection);
    const handler = defineMcpHandler({
      name: "room",
      version: "1.0.0",
      // These tests are about the order of eviction: no handshake grace (see redis-handshake-grace.test.ts).
      sessions: { store: new RedisSessionStore({ connection, handshakeGraceMs: 0, ...options }) },
      ...(auth ? { auth: staticAuth() } : {}),
    });
    open.push(handler);
    const server: RunningHost = await startHost(host, handler);
    open.push(server);
    return { url: server.url, handler, connection };
  }

  async function openStream(url: string, sessionId: string): Promise<LiveSse> {
    const { response, sse } = await openGetStream(url, headersOf(sessionId));
    expect(response.status).toBe(200);
    open.push(sse);
    return sse;
  }

  it("ends an idle session for a new initialize at once, while the 34 oldest hold GET streams", async () => {
    const { url } = await instance(`room${++prefixes}:`, { maxSessions: 40 });
    const streaming: string[] = [];
    for (let i = 0; i < 34; i++) {
      const id = await openInitialized(url);
      await openStream(url, id);
      streaming.push(id);
    }
    const idle: string[] = [];
    for (let i = 0; i < 6; i++) idle.push(await openInitialized(url));

    // Full, the oldest 34 live: each new client's initialize ends the least recently used idle session.
    const admitted = await openInitialized(url);
    expect((await ping(url, idle[0]!)).status).toBe(404);
    const again = await openInitialized(url);
    expect((await ping(url, idle[1]!)).status).toBe(404);
    for (const id of [...streaming, ...idle.slice(2), admitted, again]) expect((await ping(url, id)).status).toBe(200);
  });

  it("ends pending sessions first, and the oldest pending one at maxPendingSessions", async () => {
    const first = await instance(`room${++prefixes}:`, { maxSessions: 3, maxPendingSessions: 10 });
    const older = await openInitialized(first.url);
    const newer = await openInitialized(first.url);
    const pending = await openPending(first.url);
    await openPending(first.url); // full: the pending session goes, not the least recently used initialized one
    expect((await ping(first.url, pending)).status).toBe(404);
    expect((await ping(first.url, older)).status).toBe(200);
    expect((await ping(first.url, newer)).status).toBe(200);

    const second = await instance(`room${++prefixes}:`, { maxSessions: 100, maxPendingSessions: 2 });
    const initialized = await openInitialized(second.url);
    const [p1, p2, p3] = [await openPending(second.url), await openPending(second.url), await openPending(second.url)];
    expect((await ping(second.url, p1)).status).toBe(404);
    for (const id of [initialized, p2, p3]) expect((await ping(second.url, id)).status).toBe(200);
  });

  it("two instances creating at the cap at once never keep more than maxSessions", async () => {
    const maxSessions = 20;
    const prefix = `room${++prefixes}:`;
    const a = await instance(prefix, { maxSessions });
    const b = await instance(prefix, { maxSessions });
    const client = await a.connection.client();
    for (let i = 0; i < maxSessions; i++) await openInitialized(i % 2 ? a.url : b.url);
    // Several rounds of 30 initializes at once, half on each instance, all at the cap.
    for (let round = 0; round < 5; round++) {
      const answers = await Promise.all(
        Array.from({ length: 30 }, (_, i) => post(i % 2 ? a.url : b.url, initializeMessage())),
      );
      for (const answer of answers) expect(answer.status, answer.text).toBe(200);
      const keys = await client.keys(redisKeyNames(prefix).session("*"));
      expect(keys.length).toBeLessThanOrEqual(maxSessions);
      expect(await client.zCard(redisKeyNames(prefix).sessionIndex)).toBeLessThanOrEqual(maxSessions);
    }
  });

  it("an initialize with more than 64 KiB of clientInfo + capabilities is refused and writes nothing to Redis", async () => {
    const prefix = `room${++prefixes}:`;
    const { url, connection } = await instance(prefix, {});
    const kept = await openInitialized(url);
    const client = await connection.client();
    const keysBefore = (await client.keys(`${prefix}*`)).sort();
    const huge = {
      jsonrpc: "2.0",
      id: nextId++,
      method: "initialize",
      params: {
        protocolVersion: VERSION,
        capabilities: { experimental: { blob: "x".repeat(1 << 20) } },
        clientInfo: { name: "huge", version: "1" },
      },
    };
    const answer = await post(url, huge);
    expectError(answer, 400, -32602, /64 KiB/);
    expect(answer.headers.get("mcp-session-id")).toBeNull();
    expect((await client.keys(`${prefix}*`)).sort()).toEqual(keysBefore);
    expect(await client.zCard(redisKeyNames(prefix).sessionIndex)).toBe(1);
    expect((await ping(url, kept)).status).toBe(200);
  });

  it("with auth on, a request reads its session with one command on Redis, a stranger's too", async () => {
    const { url } = await instance(`room${++prefixes}:`, {}, true);
    const alice = bearer("alice-token");
    const sessionId = await openInitialized(url, alice);
    // MONITOR lists every command Redis runs, in order; those a script runs are marked "lua".
    const monitor = createClient({ url: redis.url });
    const marker = createClient({ url: redis.url });
    await monitor.connect();
    await marker.connect();
    open.push({ close: () => monitor.close() }, { close: () => marker.close() });
    const lines: string[] = [];
    let heard: (() => void) | undefined;
    await monitor.monitor((line) => {
      lines.push(String(line));
      heard?.();
    });
    /** Waits until MONITOR has shown the command with `text`. */
    const shown = async (text: string): Promise<number> => {
      for (;;) {
        const at = lines.findIndex((line) => line.includes(text));
        if (at !== -1) return at;
        await new Promise<void>((resolve) => (heard = resolve));
      }
    };
    let markers = 0;
    /** The commands (not those run by a script) Redis ran while `work` ran. */
    const commandsDuring = async (work: () => Promise<unknown>): Promise<string[]> => {
      const start = `start-${++markers}`;
      const end = `end-${markers}`;
      await marker.echo(start);
      await work();
      await marker.echo(end);
      const from = await shown(start);
      const to = await shown(end);
      return lines.slice(from + 1, to).filter((line) => !/\[\d+ lua\]/.test(line));
    };

    let answer: Answer | undefined;
    const own = await commandsDuring(async () => (answer = await ping(url, sessionId, alice)));
    expect(answer?.status).toBe(200);
    expect(own, own.join("\n")).toHaveLength(1);
    const stranger = await commandsDuring(async () => (answer = await ping(url, sessionId, bearer("bob-token"))));
    expect(answer?.status).toBe(404);
    expect(stranger, stranger.join("\n")).toHaveLength(1);
  });
});
