/**
 * `RedisSessionStore.reservePrincipal`/`releasePrincipal` against a real redis-server, two store
 * objects with their own connections standing for two instances: a reservation in flight counts,
 * the count is shared, and sessions that ended without a release (their key gone: TTL, eviction)
 * leave the count once past the reservation hold, also when they are not among the oldest the
 * script looks at first (the set holds more than its scan). Over HTTP, see auth-instances.test.ts.
 */
import { afterAll, afterEach, beforeAll, describe as vitestDescribe, expect, it } from "vitest";
import { RedisConnection, RedisSessionStore } from "../src/_entries/redis.ts";
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

function instance(prefix: string): RedisConnection {
  const connection = new RedisConnection({ url: redis.url, prefix });
  connections.push(connection);
  return connection;
}

function session(id: string, principal: string): SessionData {
  return { id, principal, protocolVersion: "2025-11-25", clientCapabilities: {}, initialized: true, createdAt: 1 };
}

/** The reservation hold of a store with the default TTL (see src/stores/redis/principal-sessions.ts). */
const HOLD_MS = 30_000;

describe("RedisSessionStore counts each principal's sessions", () => {
  it("a reservation in flight counts on every instance; a release frees it; principals are apart", async () => {
    const a = new RedisSessionStore({ connection: instance("p1:") });
    const b = new RedisSessionStore({ connection: instance("p1:") });
    expect(await a.reservePrincipal("alice", "one", 1)).toBe(true);
    // No session "one" yet: a create still in flight, so alice is at her cap on both instances.
    expect(await b.reservePrincipal("alice", "two", 1)).toBe(false);
    expect(await a.reservePrincipal("alice", "two", 1)).toBe(false);
    expect(await b.reservePrincipal("bob", "three", 1)).toBe(true);
    await b.releasePrincipal("alice", "one");
    expect(await a.reservePrincipal("alice", "two", 1)).toBe(true);
    // A release of an id not counted changes nothing.
    await a.releasePrincipal("alice", "unknown");
    expect(await b.reservePrincipal("alice", "four", 1)).toBe(false);
  });

  it("sessions whose key is gone leave the count past the hold, found beyond the first scan", async () => {
    const connection = instance("p2:");
    const a = new RedisSessionStore({ connection });
    const b = new RedisSessionStore({ connection: instance("p2:") });
    const cap = 40;
    const ids = Array.from({ length: cap }, (_, at) => `s${String(at).padStart(2, "0")}`);
    for (const id of ids) {
      expect(await a.reservePrincipal("carol", id, cap)).toBe(true);
      expect(await a.create(session(id, "carol"))).toBe("created");
    }
    expect(await b.reservePrincipal("carol", "extra", cap)).toBe(false);
    const client = await connection.client();
    const key = redisKeyNames("p2:").principalSessions("carol");
    // What waiting out the hold does: every entry counted that much earlier, in the same order.
    for (const { value, score } of await client.zRangeWithScores(key, 0, -1)) {
      await client.zAdd(key, { value, score: score - HOLD_MS - 1_000 });
    }
    // The three the script would look at last end without a release, as an eviction by another
    // instance ends them (their keys go, their entries stay).
    const ended = (await client.zRange(key, 0, -1)).slice(-3);
    for (const id of ended) await client.del(redisKeyNames("p2:").session(id));
    // The next call looks at the 32 oldest, all alive, and moves them to the newest end; the one
    // after looks at the rest and finds the three gone.
    expect(await b.reservePrincipal("carol", "extra", cap)).toBe(false);
    expect(await a.reservePrincipal("carol", "extra", cap)).toBe(true);
    const counted = await client.zRange(key, 0, -1);
    expect(counted).toHaveLength(cap - 2);
    for (const id of ended) expect(counted).not.toContain(id);
    expect(await b.reservePrincipal("carol", "more", cap)).toBe(true);
    expect(await b.reservePrincipal("carol", "more2", cap)).toBe(true);
    expect(await a.reservePrincipal("carol", "more3", cap)).toBe(false);
    expect(await client.zCard(key)).toBe(cap);
  });

  it("DELETE of a session by the store alone leaves it counted until the engine releases it", async () => {
    // The engine releases after a DELETE (see auth-instances.test.ts); the key gone is not enough
    // within the hold, since a create in flight has no key either.
    const a = new RedisSessionStore({ connection: instance("p3:") });
    expect(await a.reservePrincipal("dave", "d1", 1)).toBe(true);
    await a.create(session("d1", "dave"));
    expect(await a.delete("d1")).toBe(true);
    expect(await a.reservePrincipal("dave", "d2", 1)).toBe(false);
    await a.releasePrincipal("dave", "d1");
    expect(await a.reservePrincipal("dave", "d2", 1)).toBe(true);
  });
});
