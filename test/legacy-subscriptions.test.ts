/**
 * Legacy `resources/subscribe` (issue 21): a session's subscriptions live in the store beside the
 * session, never in its value, so a session holding 1,000 subscriptions of 16 KB URIs stays small in
 * Redis and a ping reads no more than before it subscribed (counted in bytes Redis sent); the cap
 * holds across two instances sharing the store; subscribing needs what reading needs (scopes,
 * `enabled`), and an update reaches a GET stream only while its reader may read the resource; a
 * session's subscriptions end with it. Both legacy clients, the memory store, a real Redis and a
 * 3-master Redis Cluster, h3 v2 and v1.
 */
import { afterAll, afterEach, beforeAll, describe as vitestDescribe, expect, it } from "vitest";
import type { createCluster } from "redis";
import { z } from "zod";
import {
  MemorySessionStore,
  defineMcpHandler,
  defineResource,
  defineResourceTemplate,
  defineTool,
  type AuthIdentity,
  type McpHandlerOptions,
  type SessionStore,
} from "../src/index.ts";
import { RedisBus, RedisConnection, RedisEventStore, RedisSessionStore } from "../src/_entries/redis.ts";
import { CLIENTS } from "./helpers/clients.ts";
import { HOSTS, startHost } from "./helpers/hosts.ts";
import { openGetStream } from "./helpers/live-sse.ts";
import { startRedis, type RunningRedis } from "./helpers/redis-server.ts";
import { startRedisTarget, type RedisTarget } from "./helpers/redis-target.ts";
import { POST_HEADERS, expectError, single, toAnswer, type Answer } from "./helpers/rpc.ts";
import { REDIS, unavailable } from "./helpers/services.ts";
import { redisKeyNames } from "./helpers/redis-key-names.ts";

// Every suite of this file needs redis-server: skipped, said loudly, where it is missing (helpers/services.ts).
const describe = vitestDescribe.skipIf(unavailable(REDIS));

const VERSION = "2025-11-25";
/** The Redis store on one Redis, and on a 3-master Redis Cluster. */
const REDIS_STORES = ["redis", "redis cluster"] as const;
/** The memory store, and the Redis store on each target. */
const STORES = ["memory", ...REDIS_STORES] as const;
type StoreKind = (typeof STORES)[number];

// A Redis of the file's own, not the shared one of `REDIS_URL` (the "one Redis" target): a ping's
// cost is counted in the bytes the whole server sent, which other files' traffic would add to.
let redis: RunningRedis;
let cluster: RedisTarget;
beforeAll(async () => {
  [redis, cluster] = await Promise.all([startRedis(), startRedisTarget("a Redis Cluster")]);
}, 60_000);
afterAll(async () => {
  await Promise.all([redis?.stop(), cluster?.stop()]);
});

const open: { close(): Promise<void> }[] = [];
afterEach(async () => {
  for (const item of open.splice(0).reverse()) await item.close();
});

let prefixes = 0;
let nextId = 1;

/** Tokens of two principals; alice holds one with the "secret" scope and one without. */
const TOKENS: Record<string, AuthIdentity> = {
  "alice-all": { subject: "alice", scopes: ["secret"] },
  "alice-plain": { subject: "alice", scopes: [] },
  "bob-plain": { subject: "bob", scopes: [] },
};

/** Whether `docs://flag` is enabled right now. */
let flag = true;

interface Instance {
  url: string;
  store: SessionStore;
  /** The Redis keys of this instance's store (redis only). */
  prefix: string;
  connection: RedisConnection | undefined;
  /** Whether this instance holds a connected GET stream of the session. */
  streaming(sessionId: string): boolean;
}

/** One instance of a server with resources of every kind, on the memory store or on Redis (`prefix` shared). */
async function startInstance(
  host: (typeof HOSTS)[number],
  kind: StoreKind,
  extra: Partial<McpHandlerOptions> = {},
  prefix = `subs${++prefixes}:`,
  sessionOptions: { ttlMs?: number } = {},
): Promise<Instance> {
  const connection =
    kind === "redis"
      ? new RedisConnection({ url: redis.url, prefix })
      : kind === "redis cluster"
        ? new RedisConnection(cluster.options(prefix))
        : undefined;
  const store = connection
    ? new RedisSessionStore({ connection, ...sessionOptions })
    : new MemorySessionStore(sessionOptions);
  const handler = defineMcpHandler({
    name: "subscriptions",
    version: "1.0.0",
    ...(connection ? { events: new RedisEventStore({ connection }), bus: new RedisBus({ connection }) } : {}),
    tools: [
      defineTool({
        name: "touch",
        description: "Announces that a resource changed",
        input: z.object({ uri: z.string() }),
        handler: async (event, { uri }) => {
          await event.context.mcp!.notify.resourceUpdated(uri);
          return "touched";
        },
      }),
    ],
    resources: [
      defineResource({ uri: "docs://watched", name: "watched", handler: () => "w" }),
      defineResource({ uri: "docs://open", name: "open", handler: () => "o" }),
      defineResource({ uri: "docs://secret", name: "secret", scopes: ["secret"], handler: () => "s" }),
      defineResource({ uri: "docs://flag", name: "flag", enabled: () => flag, handler: () => "f" }),
      defineResourceTemplate({ uriTemplate: "items://{id}", name: "item", handler: (_event, { id }) => id }),
      defineResourceTemplate({
        uriTemplate: "vault://{id}",
        name: "vault",
        scopes: ["secret"],
        handler: (_event, { id }) => id,
      }),
    ],
    ...extra,
    sessions: { store, ...extra.sessions },
  });
  const server = await startHost(host, handler);
  open.push(...(connection ? [connection] : []), server, { close: () => handler.close() });
  const streaming = (sessionId: string) =>
    handler.engine.services.sessions!.live.get(sessionId)?.getStream?.connected === true;
  return { url: server.url, store, prefix, connection, streaming };
}

/** A legacy request in a session (with a token when given). */
function rpcIn(
  url: string,
  sessionId: string,
  method: string,
  params: Record<string, unknown>,
  token?: string,
): Promise<Answer> {
  const headers: Record<string, string> = {
    ...POST_HEADERS,
    "mcp-session-id": sessionId,
    "mcp-protocol-version": VERSION,
    ...(token ? { authorization: `Bearer ${token}` } : {}),
  };
  const body = JSON.stringify({ jsonrpc: "2.0", id: nextId++, method, params });
  return fetch(url, { method: "POST", headers, body }).then(toAnswer);
}

/** initialize and notifications/initialized by hand (with a token when given); the session id. */
async function openSession(url: string, token?: string): Promise<string> {
  const auth: Record<string, string> = token ? { authorization: `Bearer ${token}` } : {};
  const init = { protocolVersion: VERSION, capabilities: {}, clientInfo: { name: "raw", version: "1" } };
  const opened = await fetch(url, {
    method: "POST",
    headers: { ...POST_HEADERS, ...auth },
    body: JSON.stringify({ jsonrpc: "2.0", id: 0, method: "initialize", params: init }),
  });
  await opened.body?.cancel();
  const id = opened.headers.get("mcp-session-id");
  if (opened.status !== 200 || !id) throw new Error(`initialize: ${opened.status}`);
  const done = await fetch(url, {
    method: "POST",
    headers: { ...POST_HEADERS, ...auth, "mcp-session-id": id, "mcp-protocol-version": VERSION },
    body: JSON.stringify({ jsonrpc: "2.0", method: "notifications/initialized" }),
  });
  await done.body?.cancel();
  return id;
}

/** Bytes Redis has sent to all its clients so far (`INFO stats`; on a cluster, of every master). */
async function redisBytesSent(connection: RedisConnection): Promise<number> {
  const client = await connection.client();
  const cluster = client as ReturnType<typeof createCluster>;
  const nodes: { info(section: string): Promise<string> }[] = connection.isCluster
    ? await Promise.all(cluster.masters.map((node) => cluster.nodeClient(node)))
    : [client];
  let sent = 0;
  for (const node of nodes) sent += Number(/total_net_output_bytes:(\d+)/.exec(await node.info("stats"))![1]);
  return sent;
}

/** Bytes Redis sent while one ping of the session was served. */
async function bytesReadByPing(instance: Instance, sessionId: string): Promise<number> {
  const before = await redisBytesSent(instance.connection!);
  expect(single(await rpcIn(instance.url, sessionId, "ping", {})).result).toEqual({});
  return (await redisBytesSent(instance.connection!)) - before;
}

describe.each(HOSTS)("legacy subscriptions on %s", (host) => {
  describe.each(STORES)("with the %s store", (kind) => {
    it.each(CLIENTS)("subscribe, updated and unsubscribe with the $name client", async (factory) => {
      const instance = await startInstance(host, kind);
      const updated: string[] = [];
      const client = await factory.connect(instance.url, { onResourceUpdated: (uri) => updated.push(uri) });
      open.push(client);
      await client.subscribeResource("docs://watched");
      await client.subscribeResource("items://7");
      expect(await instance.store.isSubscribed!(client.sessionId!, "docs://watched")).toBe(true);
      // The client opens its GET stream on its own: updates reach it once it is there.
      await expect.poll(() => instance.streaming(client.sessionId!)).toBe(true);
      await client.callTool("touch", { uri: "docs://other" });
      await client.callTool("touch", { uri: "items://7" });
      await client.callTool("touch", { uri: "docs://watched" });
      await expect.poll(() => updated.length).toBe(2);
      expect(updated).toEqual(["items://7", "docs://watched"]);
      await client.unsubscribeResource("docs://watched");
      expect(await instance.store.isSubscribed!(client.sessionId!, "docs://watched")).toBe(false);
      await client.callTool("touch", { uri: "docs://watched" });
      await client.callTool("touch", { uri: "items://7" });
      await expect.poll(() => updated.length).toBe(3);
      expect(updated).toEqual(["items://7", "docs://watched", "items://7"]);
    });

    it("a session's subscriptions end with it: DELETE, and expiry", async () => {
      const instance = await startInstance(host, kind);
      const sessionId = await openSession(instance.url);
      expect(
        single(await rpcIn(instance.url, sessionId, "resources/subscribe", { uri: "docs://watched" })).result,
      ).toEqual({});
      const setKey = redisKeyNames(instance.prefix).subscriptions(sessionId);
      const client = await instance.connection?.client();
      if (client) expect(await client.exists(setKey)).toBe(1);
      const deleted = await fetch(instance.url, {
        method: "DELETE",
        headers: { "mcp-session-id": sessionId, "mcp-protocol-version": VERSION },
      });
      expect(deleted.status).toBe(200);
      expect(await instance.store.isSubscribed!(sessionId, "docs://watched")).toBe(false);
      if (client) expect(await client.exists(setKey)).toBe(0);

      // A session that expires: its subscriptions go with it.
      const short = await startInstance(host, kind, {}, undefined, { ttlMs: 300 });
      const expiring = await openSession(short.url);
      expect(single(await rpcIn(short.url, expiring, "resources/subscribe", { uri: "docs://watched" })).result).toEqual(
        {},
      );
      const shortClient = await short.connection?.client();
      const expiringKey = redisKeyNames(short.prefix).subscriptions(expiring);
      if (shortClient) {
        // The set never outlives its session by more than the slack (2 s), nor ends before it.
        const [setTtl, sessionTtl] = await Promise.all([
          shortClient.pTTL(expiringKey),
          shortClient.pTTL(redisKeyNames(short.prefix).session(expiring)),
        ]);
        expect(setTtl).toBeGreaterThanOrEqual(sessionTtl);
        expect(setTtl).toBeLessThanOrEqual(300 + 2000);
        await expect.poll(() => shortClient.exists(expiringKey), { timeout: 10_000, interval: 200 }).toBe(0);
      } else {
        // A look that does not refresh it (a read would keep it alive).
        await expect.poll(() => short.store.peek!(expiring), { timeout: 10_000, interval: 100 }).toBeUndefined();
      }
      expect(await short.store.isSubscribed!(expiring, "docs://watched")).toBe(false);
    });

    it("subscribing answers what reading answers: 403 without the scopes, -32002 unknown or not enabled", async () => {
      const instance = await startInstance(host, kind, {
        auth: { validate: (token) => TOKENS[token] },
      });
      const sessionId = await openSession(instance.url, "bob-plain");
      for (const uri of ["docs://secret", "vault://1"]) {
        const read = await rpcIn(instance.url, sessionId, "resources/read", { uri }, "bob-plain");
        const subscribe = await rpcIn(instance.url, sessionId, "resources/subscribe", { uri }, "bob-plain");
        expect(read.status).toBe(403);
        expect(subscribe.status, subscribe.text).toBe(403);
        expect(subscribe.headers.get("www-authenticate")).toBe(read.headers.get("www-authenticate"));
        expect(subscribe.text).toBe(read.text);
      }
      flag = false;
      try {
        for (const uri of ["docs://flag", "docs://missing"]) {
          const read = expectError(
            await rpcIn(instance.url, sessionId, "resources/read", { uri }, "bob-plain"),
            200,
            -32002,
          );
          const answer = await rpcIn(instance.url, sessionId, "resources/subscribe", { uri }, "bob-plain");
          const refused = expectError(answer, 200, -32002);
          expect(refused).toEqual(read);
        }
      } finally {
        flag = true;
      }
      for (const uri of ["docs://secret", "vault://1", "docs://flag", "docs://missing"]) {
        expect(await instance.store.isSubscribed!(sessionId, uri)).toBe(false);
      }
      // What it may read, it may subscribe to.
      expect(
        single(await rpcIn(instance.url, sessionId, "resources/subscribe", { uri: "docs://open" }, "bob-plain")).result,
      ).toEqual({});
    });

    it("an update reaches a GET stream only while its reader may read the resource", async () => {
      const instance = await startInstance(host, kind, { auth: { validate: (token) => TOKENS[token] } });
      const sessionId = await openSession(instance.url, "alice-all");
      for (const uri of ["docs://secret", "vault://9", "docs://flag", "docs://open"]) {
        const answer = await rpcIn(instance.url, sessionId, "resources/subscribe", { uri }, "alice-all");
        expect(single(answer).result, answer.text).toEqual({});
      }
      const touch = (uri: string) =>
        rpcIn(instance.url, sessionId, "tools/call", { name: "touch", arguments: { uri } }, "alice-all");
      const headers = { "mcp-session-id": sessionId, "mcp-protocol-version": VERSION };
      // The same principal reads the GET stream with a token that lacks "secret".
      const plain = await openGetStream(instance.url, { ...headers, authorization: "Bearer alice-plain" });
      expect(plain.response.status).toBe(200);
      try {
        flag = false;
        await touch("docs://secret");
        await touch("vault://9");
        await touch("docs://flag");
        await touch("docs://open");
        const first = await plain.sse.next(/resources\/updated/);
        expect(JSON.parse(first.data).params.uri).toBe("docs://open");
        flag = true;
        await touch("docs://flag");
        expect(JSON.parse((await plain.sse.next(/resources\/updated/)).data).params.uri).toBe("docs://flag");
      } finally {
        flag = true;
        plain.sse.close();
      }
      // A reader holding the scope gets what the other could not (once the server saw the first one go).
      await expect.poll(() => instance.streaming(sessionId)).toBe(false);
      const all = await openGetStream(instance.url, { ...headers, authorization: "Bearer alice-all" });
      try {
        expect(all.response.status).toBe(200);
        await touch("docs://secret");
        await touch("docs://open");
        const events = [await all.sse.next(/resources\/updated/), await all.sse.next(/resources\/updated/)];
        expect(events.map((event) => JSON.parse(event.data).params.uri)).toEqual(["docs://secret", "docs://open"]);
      } finally {
        all.sse.close();
      }
    });
  });

  describe.each(REDIS_STORES)("with the %s store", (kind) => {
    it("1,000 subscriptions of 16 KB URIs: the session's value in Redis stays small, a ping reads no more", async () => {
      const instance = await startInstance(host, kind);
      const sessionId = await openSession(instance.url);
      const client = await instance.connection!.client();
      const sessionKey = redisKeyNames(instance.prefix).session(sessionId);
      const emptySize = await client.strLen(sessionKey);
      // Twice, so the first ping's one-off work (a script loaded, an index write) is not counted.
      await bytesReadByPing(instance, sessionId);
      const pingBefore = await bytesReadByPing(instance, sessionId);
      const long = "a".repeat(16_000);
      for (let batch = 0; batch < 1000; batch += 20) {
        const answers = await Promise.all(
          Array.from({ length: 20 }, (_, i) =>
            rpcIn(instance.url, sessionId, "resources/subscribe", { uri: `items://${batch + i}${long}` }),
          ),
        );
        for (const answer of answers) expect(single(answer).result, answer.text.slice(0, 200)).toEqual({});
      }
      expect(await client.sCard(redisKeyNames(instance.prefix).subscriptions(sessionId))).toBe(1000);
      // The session's own value did not grow at all (16 MB before the subscriptions left it).
      expect(await client.strLen(sessionKey)).toBe(emptySize);
      expect(emptySize).toBeGreaterThan(0);
      expect(emptySize).toBeLessThan(1024);
      await bytesReadByPing(instance, sessionId);
      const pingAfter = await bytesReadByPing(instance, sessionId);
      // What Redis sends for a ping is the same few hundred bytes (an INFO reply's size varies by a few bytes).
      expect(pingAfter).toBeLessThan(pingBefore + 64);
      expect(pingAfter).toBeLessThan(16_000);
    });

    it("the cap holds across two instances sharing the store: 20 concurrent subscribes, 5 kept", async () => {
      const prefix = `cap${++prefixes}:`;
      const a = await startInstance(host, kind, { sessions: { maxSubscriptions: 5 } }, prefix);
      const b = await startInstance(host, kind, { sessions: { maxSubscriptions: 5 } }, prefix);
      const sessionId = await openSession(a.url);
      const answers = await Promise.all(
        Array.from({ length: 20 }, (_, i) =>
          rpcIn(i % 2 === 0 ? a.url : b.url, sessionId, "resources/subscribe", { uri: `items://c${i}` }),
        ),
      );
      const kept = answers.filter((answer) => single(answer).result !== undefined);
      const capped = answers.filter((answer) => single(answer).error?.code === -32602);
      expect(kept).toHaveLength(5);
      expect(capped).toHaveLength(15);
      for (const answer of capped)
        expect(single(answer).error!.data).toEqual({ limit: "sessions.maxSubscriptions", max: 5 });
      const client = await a.connection!.client();
      expect(await client.sCard(redisKeyNames(prefix).subscriptions(sessionId))).toBe(5);
    });
  });
});

describe("a session store without the subscription methods", () => {
  /** A store written for the interface before subscriptions left `SessionData`. */
  function oldStore(): SessionStore {
    const inner = new MemorySessionStore();
    return {
      get: (id) => inner.get(id),
      create: (session) => inner.create(session),
      set: (session) => inner.set(session),
      delete: (id) => inner.delete(id),
    };
  }

  it("is refused by defineMcpHandler when the handler serves resources, with the methods it lacks", () => {
    const resources = [defineResource({ uri: "docs://a", name: "a", handler: () => "a" })];
    expect(() => defineMcpHandler({ name: "x", version: "1", sessions: { store: oldStore() }, resources })).toThrow(
      /sessions\.store must implement subscribe, unsubscribe, isSubscribed/,
    );
  });

  it("still serves a handler without resources", () => {
    const tools = [defineTool({ name: "t", description: "t", handler: () => "t" })];
    expect(() => defineMcpHandler({ name: "x", version: "1", sessions: { store: oldStore() }, tools })).not.toThrow();
  });
});
