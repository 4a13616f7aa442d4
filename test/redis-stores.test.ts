/**
 * mcp-h3/redis against a real redis-server: two store objects with their own connections stand
 * for two instances. What one writes, the other reads: sessions, the event log with its bounds and
 * gaps, and bus messages.
 */
import { afterAll, afterEach, beforeAll, describe as vitestDescribe, expect, it } from "vitest";
import { RESP_TYPES, createClient } from "redis";
import {
  RedisBus,
  RedisConnection,
  RedisEventStore,
  RedisSessionStore,
  type RedisClient,
} from "../src/_entries/redis.ts";
import type { SessionData } from "../src/index.ts";
import { startRedis, type RunningRedis } from "./helpers/redis-server.ts";
import { REDIS, unavailable } from "./helpers/services.ts";
import { redisKeyNames } from "./helpers/redis-key-names.ts";

// Every suite of this file needs redis-server: skipped, said loudly, where it is missing (helpers/services.ts).
const describe = vitestDescribe.skipIf(unavailable(REDIS));

let redis: RunningRedis;
const connections: RedisConnection[] = [];

beforeAll(async () => {
  redis = await startRedis();
});
afterAll(async () => {
  await redis?.stop();
});
afterEach(async () => {
  for (const connection of connections.splice(0)) await connection.close();
});

/** A connection for one "instance", with a prefix of the test's own. */
function instance(prefix: string): RedisConnection {
  const connection = new RedisConnection({ url: redis.url, prefix });
  connections.push(connection);
  return connection;
}

function session(id: string): SessionData {
  return {
    id,
    protocolVersion: "2025-11-25",
    clientCapabilities: {},
    initialized: true,
    createdAt: 1,
  };
}

describe("RedisSessionStore", () => {
  it("a session created on one instance is read, updated and ended from another", async () => {
    const a = new RedisSessionStore({ connection: instance("s1:") });
    const b = new RedisSessionStore({ connection: instance("s1:") });
    expect(await a.create(session("one"))).toBe("created");
    expect(await b.get("one")).toEqual(session("one"));
    await b.set({ ...session("one"), logLevel: "debug" });
    expect((await a.get("one"))?.logLevel).toBe("debug");
    expect(await a.delete("one")).toBe(true);
    expect(await b.get("one")).toBeUndefined();
    // An ended session stays ended, even when a late write arrives.
    await b.set(session("one"));
    expect(await a.get("one")).toBeUndefined();
    expect(await a.delete("one")).toBe(false);
  });

  it("refuses to save a copy another instance saved over since it was read; a fresh copy saves", async () => {
    const a = new RedisSessionStore({ connection: instance("s9:") });
    const b = new RedisSessionStore({ connection: instance("s9:") });
    await a.create(session("shared"));
    const onA = (await a.get("shared"))!;
    const onB = (await b.get("shared"))!;
    onA.clientInfo = { name: "a", version: "1" };
    expect(await a.set(onA)).toBeUndefined();
    onB.logLevel = "debug";
    // B's copy was read before A's save: storing it would lose A's change.
    expect(await b.set(onB)).toBe("conflict");
    expect((await a.get("shared"))?.clientInfo).toEqual({ name: "a", version: "1" });
    const fresh = (await b.peek("shared"))!;
    fresh.logLevel = "debug";
    expect(await b.set(fresh)).toBeUndefined();
    // A saved copy can be saved again by the same store; A's first copy is now out of date.
    fresh.clientInfo = { name: "b", version: "1" };
    expect(await b.set(fresh)).toBeUndefined();
    expect(await a.set(onA)).toBe("conflict");
    expect(await a.get("shared")).toEqual({
      ...session("shared"),
      logLevel: "debug",
      clientInfo: { name: "b", version: "1" },
    });
  });

  it("keeps a session's subscriptions in a set beside it: capped, shared by instances, gone with the session", async () => {
    const connection = instance("s10:");
    const a = new RedisSessionStore({ connection });
    const b = new RedisSessionStore({ connection: instance("s10:") });
    expect(await a.subscribe("nobody", "docs://a", 2)).toBe("ended");
    await a.create(session("subs"));
    expect(await a.subscribe("subs", "docs://a", 2)).toBe("subscribed");
    expect(await b.subscribe("subs", "docs://b", 2)).toBe("subscribed");
    expect(await a.subscribe("subs", "docs://c", 2)).toBe("full");
    // A URI held already takes no room.
    expect(await b.subscribe("subs", "docs://a", 2)).toBe("subscribed");
    expect([await b.isSubscribed("subs", "docs://a"), await b.isSubscribed("subs", "docs://c")]).toEqual([true, false]);
    await b.unsubscribe("subs", "docs://a");
    expect(await a.subscribe("subs", "docs://c", 2)).toBe("subscribed");
    const client = await connection.client();
    // Nothing of them is in the session's own value, and nothing stays once it ends; an ended session gets no set.
    expect(await client.get(redisKeyNames("s10:").session("subs"))).not.toContain("docs://");
    expect(await b.delete("subs")).toBe(true);
    expect(await a.isSubscribed("subs", "docs://c")).toBe(false);
    expect(await a.subscribe("subs", "docs://d", 2)).toBe("ended");
    expect(await client.keys(redisKeyNames("s10:").subscriptions("*"))).toEqual([]);
  });

  it("makes room by ending the least recently used session that is not live here, else answers full", async () => {
    const store = new RedisSessionStore({ connection: instance("s2:"), maxSessions: 2, handshakeGraceMs: 0 });
    const evicted: string[] = [];
    store.onEvict((id) => evicted.push(id));
    const live = new Set(["first"]);
    store.addLiveCheck((id) => live.has(id));
    await store.create(session("first"));
    await store.create(session("second"));
    expect(await store.create(session("third"))).toBe("created");
    expect(evicted).toEqual(["second"]);
    expect(await store.get("second")).toBeUndefined();
    live.add("third");
    expect(await store.create(session("fourth"))).toBe("full");
    expect(await store.get("fourth")).toBeUndefined();
  });

  it("each session key carries the idle TTL, and a read starts it again", async () => {
    const connection = instance("s3:");
    const store = new RedisSessionStore({ connection, ttlMs: 60_000 });
    await store.create(session("timed"));
    const client = await connection.client();
    // Redis ends the key itself when the TTL runs out: set on create, and again on every read.
    await client.pExpire(redisKeyNames("s3:").session("timed"), 1_000);
    expect(await client.pTTL(redisKeyNames("s3:").session("timed"))).toBeLessThanOrEqual(1_000);
    await store.get("timed");
    expect(await client.pTTL(redisKeyNames("s3:").session("timed"))).toBeGreaterThan(1_000);
    expect(await client.pTTL(redisKeyNames("s3:").session("timed"))).toBeLessThanOrEqual(60_000);
  });

  it("a session in steady use moves in the order of use at most once a second, and no sweep takes it out", async () => {
    const connection = instance("s8:");
    const store = new RedisSessionStore({ connection, ttlMs: 300, maxSessions: 2, handshakeGraceMs: 0 });
    const client = await connection.client();
    await store.create(session("busy"));
    const created = await client.zScore(redisKeyNames("s8:").sessionIndex, "busy");
    // Read every 100 ms for longer than the TTL: each read starts the key's TTL again, none moves it
    // in the index (the last move is under INDEX_TOUCH_MS old), so its entry is now older than the TTL.
    for (let i = 0; i < 6; i++) {
      await new Promise((resolve) => setTimeout(resolve, 100));
      expect(await store.get("busy")).toEqual(session("busy"));
    }
    expect(await client.zScore(redisKeyNames("s8:").sessionIndex, "busy")).toBe(created);
    expect(Date.now() - Number(created)).toBeGreaterThan(300);
    // A create sweeps stale entries: the busy session's is not one of them (it still counts).
    expect(await store.create(session("second"))).toBe("created");
    expect(await client.zRange(redisKeyNames("s8:").sessionIndex, 0, -1)).toEqual(["busy", "second"]);
    expect(await store.create(session("third"))).toBe("created");
    expect(await store.get("busy")).toBeUndefined();
    // Past INDEX_TOUCH_MS a read moves it again.
    const longer = new RedisSessionStore({ connection, ttlMs: 60_000 });
    await longer.create(session("later"));
    const before = await client.zScore(redisKeyNames("s8:").sessionIndex, "later");
    await new Promise((resolve) => setTimeout(resolve, 1_050));
    expect(await longer.get("later")).toEqual(session("later"));
    expect(Number(await client.zScore(redisKeyNames("s8:").sessionIndex, "later"))).toBeGreaterThan(Number(before));
  });

  it("peek reads a session without starting its TTL again, nor moving it in the order of use", async () => {
    const connection = instance("s4:");
    const store = new RedisSessionStore({ connection, ttlMs: 60_000 });
    await store.create(session("looked-at"));
    const client = await connection.client();
    await client.pExpire(redisKeyNames("s4:").session("looked-at"), 1_000);
    const score = await client.zScore(redisKeyNames("s4:").sessionIndex, "looked-at");
    expect(await store.peek("looked-at")).toEqual(session("looked-at"));
    expect(await client.pTTL(redisKeyNames("s4:").session("looked-at"))).toBeLessThanOrEqual(1_000);
    expect(await client.zScore(redisKeyNames("s4:").sessionIndex, "looked-at")).toBe(score);
    expect(await store.peek("never-made")).toBeUndefined();
  });

  it("getOwned refreshes a session for its principal only, whatever its data holds", async () => {
    const connection = instance("s10:");
    const store = new RedisSessionStore({ connection, ttlMs: 60_000 });
    // A client's capabilities may hold any key, "principal" too: only the session's own counts.
    const alices = {
      ...session("alices"),
      principal: "alice",
      clientCapabilities: { experimental: { principal: { principal: "bob" } } },
    };
    await store.create(alices);
    const client = await connection.client();
    await client.pExpire(redisKeyNames("s10:").session("alices"), 1_000);
    expect(await store.getOwned("alices", "bob")).toEqual(alices);
    expect(await client.pTTL(redisKeyNames("s10:").session("alices"))).toBeLessThanOrEqual(1_000);
    expect(await store.getOwned("alices", "alice")).toEqual(alices);
    expect(await client.pTTL(redisKeyNames("s10:").session("alices"))).toBeGreaterThan(1_000);
    expect(await store.getOwned("never-made", "alice")).toBeUndefined();
    expect(await client.exists(redisKeyNames("s10:").session("never-made"))).toBe(0);
  });

  it("a read of an unknown or ended session writes nothing: ids a client makes up fill no index", async () => {
    const connection = instance("s5:");
    const store = new RedisSessionStore({ connection, maxSessions: 2 });
    await store.create(session("ended"));
    await store.delete("ended");
    expect(await store.get("ended")).toBeUndefined();
    for (let i = 0; i < 5; i++) expect(await store.get(`made-up-${i}`)).toBeUndefined();
    await store.set(session("made-up-set"));
    const client = await connection.client();
    expect(await client.zCard(redisKeyNames("s5:").sessionIndex)).toBe(0);
    expect(
      await Promise.all([
        client.exists(redisKeyNames("s5:").session("ended")),
        client.exists(redisKeyNames("s5:").session("made-up-set")),
      ]).then(([x, y]) => x + y),
    ).toBe(0);
    // Room for the cap's worth of real sessions.
    expect(await store.create(session("a"))).toBe("created");
    expect(await store.create(session("b"))).toBe("created");
  });

  it("reads sessions through a client of yours that maps strings to Buffers", async () => {
    const client = createClient({ url: redis.url, disableOfflineQueue: true }).withTypeMapping({
      [RESP_TYPES.BLOB_STRING]: Buffer,
    });
    const connection = new RedisConnection({ client: client as unknown as RedisClient, prefix: "s7:" });
    connections.push(connection);
    const store = new RedisSessionStore({ connection });
    await store.create(session("mapped"));
    expect(await store.get("mapped")).toEqual(session("mapped"));
    expect(await store.peek("mapped")).toEqual(session("mapped"));
    expect(await store.get("unknown")).toBeUndefined();
  });

  it("reads and writes on after Redis forgets its scripts (a restart, SCRIPT FLUSH)", async () => {
    const connection = instance("s6:");
    const store = new RedisSessionStore({ connection, ttlMs: 60_000 });
    const events = new RedisEventStore({ connection });
    await store.create(session("kept"));
    const first = await events.append("kept", "s", null);
    expect(await store.get("kept")).toEqual(session("kept"));
    const client = await connection.client();
    await client.scriptFlush();
    await client.pExpire(redisKeyNames("s6:").session("kept"), 1_000);
    expect(await store.get("kept")).toEqual(session("kept"));
    expect(await client.pTTL(redisKeyNames("s6:").session("kept"))).toBeGreaterThan(1_000);
    await client.scriptFlush();
    await store.set({ ...session("kept"), initialized: false });
    expect((await store.peek("kept"))?.initialized).toBe(false);
    await client.scriptFlush();
    expect(await store.create(session("new"))).toBe("created");
    await client.scriptFlush();
    const second = await events.append("kept", "s", null);
    await client.scriptFlush();
    expect((await events.replayAfter("kept", first))?.events.map((event) => event.id)).toEqual([second]);
  });
});

describe("RedisEventStore", () => {
  /** The sequence number of an id of this store. */
  const seqOf = (id: string): number => Number(id.slice(id.lastIndexOf("/") + 1));

  it("replays on one instance, in order and once, what another appended", async () => {
    const a = new RedisEventStore({ connection: instance("e1:") });
    const b = new RedisEventStore({ connection: instance("e1:") });
    const ids: string[] = [];
    for (let n = 1; n <= 5; n++) {
      ids.push(await a.append("sess", "stream-1", { jsonrpc: "2.0", method: "notifications/message", params: { n } }));
    }
    // A stream starts at the Redis clock in microseconds, then counts one by one.
    const first = seqOf(ids[0]!);
    expect(Math.abs(first / 1000 - Date.now())).toBeLessThan(60_000);
    expect(ids).toEqual([0, 1, 2, 3, 4].map((step) => `stream-1/${first + step}`));
    const replay = await b.replayAfter("sess", ids[1]!);
    expect(replay?.gap).toBeFalsy();
    expect(
      replay?.events.map((event) => [event.id, (event.message as unknown as { params: { n: number } }).params.n]),
    ).toEqual([
      [ids[2], 3],
      [ids[3], 4],
      [ids[4], 5],
    ]);
    expect((await b.replayAfter("sess", ids[4]!))?.events).toEqual([]);
  });

  it("knows nothing of ids it never gave, of another session's ids, or of dropped streams and sessions", async () => {
    const store = new RedisEventStore({ connection: instance("e2:") });
    const s1 = await store.append("mine", "s", null);
    const t1 = await store.append("mine", "t", null);
    const next = `s/${seqOf(s1) + 1}`;
    for (const id of [next, "s/0", "s/01", "s", "/1", "other/1", "s/99999999999999999", `s/0${seqOf(s1)}`]) {
      expect(await store.replayAfter("mine", id)).toBeUndefined();
    }
    expect(await store.replayAfter("theirs", s1)).toBeUndefined();
    expect(await store.replayAfter("mine", s1)).toEqual({ streamId: "s", events: [] });
    await store.dropStream("mine", "s");
    expect(await store.replayAfter("mine", s1)).toBeUndefined();
    expect(await store.replayAfter("mine", t1)).toBeDefined();
    await store.dropSession("mine");
    expect(await store.replayAfter("mine", t1)).toBeUndefined();
  });

  it("keeps at most maxEventsPerStream events, and reports a gap rather than skip events", async () => {
    const store = new RedisEventStore({ connection: instance("e3:"), maxEventsPerStream: 3 });
    const ids: string[] = [];
    for (let n = 1; n <= 6; n++) ids.push(await store.append("sess", "s", null));
    expect(await store.replayAfter("sess", ids[0]!)).toEqual({ streamId: "s", events: [], gap: true });
    expect((await store.replayAfter("sess", ids[2]!))?.events.map((event) => event.id)).toEqual(ids.slice(3));
  });

  it("never gives an id again once a stream's keys are gone (expired, evicted or dropped): it sees a gap instead", async () => {
    const connection = instance("e4:");
    const store = new RedisEventStore({ connection });
    const before = [await store.append("sess", "s", null), await store.append("sess", "s", null)];
    const client = await connection.client();
    // The counter and the log gone, as after a silence longer than the TTL: the next ids are past the old ones.
    await client.del(["e4:{session:sess}:seq:s", "e4:{session:sess}:stream:s"]);
    const after = [await store.append("sess", "s", null), await store.append("sess", "s", null)];
    expect(seqOf(after[0]!)).toBeGreaterThan(seqOf(before[1]!));
    expect(seqOf(after[1]!)).toBe(seqOf(after[0]!) + 1);
    expect(await store.replayAfter("sess", before[0]!)).toEqual({ streamId: "s", events: [], gap: true });
    expect(await store.replayAfter("sess", before[1]!)).toEqual({ streamId: "s", events: [], gap: true });
    expect((await store.replayAfter("sess", after[0]!))?.events.map((event) => event.id)).toEqual([after[1]]);
    // The counter alone evicted while the log holds an id ahead of the clock: the log bounds the next id.
    await client.xAdd("e4:{session:sess}:stream:s", "0-8000000000000000", { m: "null" });
    await client.del("e4:{session:sess}:seq:s");
    expect(await store.append("sess", "s", null)).toBe("s/8000000000000001");
    // Every key it wrote expires.
    const keys = await client.keys("e4:{session:sess}:*");
    expect(keys.length).toBe(3);
    for (const key of keys) expect(await client.pTTL(key), key).toBeGreaterThan(0);
  });
});

describe("RedisBus", () => {
  it("delivers what one instance publishes to the subscribers of another, until they unsubscribe", async () => {
    const a = new RedisBus({ connection: instance("b1:") });
    const b = new RedisBus({ connection: instance("b1:") });
    const received: unknown[] = [];
    let arrived: () => void = () => {};
    const unsubscribe = await b.subscribe("changes", (message) => {
      received.push(message);
      arrived();
    });
    await new Promise<void>((resolve) => {
      arrived = resolve;
      void a.publish("changes", { method: "notifications/tools/list_changed" });
    });
    expect(received).toEqual([{ method: "notifications/tools/list_changed" }]);
    unsubscribe();
    // A message published after unsubscribing, then one on a channel still heard, arrive in order:
    // when the second arrives, the first would have.
    const other: unknown[] = [];
    await new Promise<void>((resolve) => {
      void b
        .subscribe("marker", (message) => {
          other.push(message);
          resolve();
        })
        .then(async () => {
          await a.publish("changes", { late: true });
          await a.publish("marker", { done: true });
        });
    });
    expect(other).toEqual([{ done: true }]);
    expect(received).toEqual([{ method: "notifications/tools/list_changed" }]);
  });
});
