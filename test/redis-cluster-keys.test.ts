/**
 * What a client sends cannot split one thing's keys over two Redis Cluster slots: a session id or a
 * principal holding braces (a client's `Mcp-Session-Id`, an auth subject) ends its hash tag early,
 * but the same way in each of its keys (src/stores/redis/slot-keys.ts), so every script of the
 * stores still touches one slot of a real 3-master cluster (a split would answer CROSSSLOT).
 */
import { afterAll, beforeAll, describe as vitestDescribe, expect, it } from "vitest";
import { RedisConnection, RedisEventStore, RedisSessionStore } from "../src/_entries/redis.ts";
import type { SessionData } from "../src/index.ts";
import { startRedisTarget, type RedisTarget } from "./helpers/redis-target.ts";
import { REDIS, unavailable } from "./helpers/services.ts";

const describe = vitestDescribe.skipIf(unavailable(REDIS));

describe("on a Redis Cluster", () => {
  let cluster: RedisTarget;
  const connections: RedisConnection[] = [];
  beforeAll(async () => {
    cluster = await startRedisTarget("a Redis Cluster");
  }, 60_000);
  afterAll(async () => {
    for (const connection of connections) await connection.close();
    await cluster?.stop();
  });

  it("a session, its subscriptions, its principal's count and its event log work under ids full of braces", async () => {
    const connection = new RedisConnection(cluster.options("keys:"));
    connections.push(connection);
    const sessions = new RedisSessionStore({ connection });
    const events = new RedisEventStore({ connection });
    for (const id of ["}{", "a}b", "{x}", "%7D", ""]) {
      const principal = `user}{${id}`;
      const session: SessionData = {
        id,
        protocolVersion: "2025-11-25",
        initialized: true,
        clientInfo: { name: "braces", version: "1" },
        clientCapabilities: {},
        principal,
        createdAt: Date.now(),
      };
      expect(await sessions.reservePrincipal(principal, id, 2)).toBe(true);
      expect(await sessions.create(session)).toBe("created");
      expect((await sessions.getOwned(id, principal))?.id).toBe(id);
      expect(await sessions.subscribe(id, "docs://a", 2)).toBe("subscribed");
      expect(await sessions.isSubscribed(id, "docs://a")).toBe(true);
      const first = await events.append(id, "get", null);
      await events.append(id, "get", null);
      expect((await events.replayAfter(id, first))?.events).toHaveLength(1);
      await events.dropSession(id);
      expect(await sessions.delete(id)).toBe(true);
      await sessions.releasePrincipal(principal, id);
      expect(await sessions.get(id)).toBeUndefined();
    }
  });
});
