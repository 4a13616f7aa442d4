/**
 * Two instances sharing one Redis (mcp-h3/redis) behind a balancer without sticky sessions: a
 * legacy session opened on instance A serves the calls that land on instance B (both legacy
 * clients), a legacy client subscribed to a resource receives its updates whichever instance
 * publishes them, and a modern listen stream held on A receives a list change published on B; on
 * h3 v2 and v1.
 */
import type { McpSubscription } from "@modelcontextprotocol/client";
import { afterAll, afterEach, beforeAll, describe as vitestDescribe, expect, it } from "vitest";
import { z } from "zod";
import { defineMcpHandler, defineResource, defineTool } from "../src/index.ts";
import { RedisBus, RedisConnection, RedisEventStore, RedisSessionStore } from "../src/_entries/redis.ts";
import { CLIENTS, type TestClient } from "./helpers/clients.ts";
import { MODERN_MODES, connectModern } from "./helpers/modern-clients.ts";
import { HOSTS, startHost } from "./helpers/hosts.ts";
import { startRedis, type RunningRedis } from "./helpers/redis-server.ts";
import { textOf } from "./helpers/results.ts";
import { startRoundRobin } from "./helpers/round-robin.ts";
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

let prefixes = 0;
const pinned = MODERN_MODES.find((mode) => mode.name === "pinned") ?? MODERN_MODES[0]!;

/** One instance: its own handler and its own Redis connection, on the shared keys of `prefix`. */
function instance(prefix: string, name: string) {
  const connection = new RedisConnection({ url: redis.url, prefix });
  const handler = defineMcpHandler({
    name,
    version: "1.0.0",
    sessions: { store: new RedisSessionStore({ connection }) },
    events: new RedisEventStore({ connection }),
    bus: new RedisBus({ connection }),
    tools: [
      defineTool({ name: "where", description: "Names the instance that answers", handler: () => name }),
      defineTool({
        name: "touch",
        description: "Announces that a resource changed",
        input: z.object({ uri: z.string() }),
        handler: async (event, { uri }) => {
          await event.context.mcp!.notify.resourceUpdated(uri);
          return name;
        },
      }),
      defineTool({
        name: "bump",
        description: "Announces that the tool list changed",
        handler: async (event) => {
          await event.context.mcp!.notify.toolsChanged();
          return "bumped";
        },
      }),
    ],
    resources: [
      defineResource({ uri: "docs://watched", name: "watched", handler: () => "w" }),
      defineResource({ uri: "docs://other", name: "other", handler: () => "o" }),
    ],
  });
  return { handler, connection };
}

describe.each(HOSTS)("two %s instances on one Redis", (host) => {
  const open: { close(): Promise<void> }[] = [];
  afterEach(async () => {
    for (const item of open.splice(0).reverse()) await item.close();
  });

  /** Instances A and B on one key prefix, each on its own server, behind a round-robin balancer. */
  async function behindBalancer() {
    const prefix = `i${++prefixes}:`;
    const a = instance(prefix, "A");
    const b = instance(prefix, "B");
    const serverA = await startHost(host, a.handler);
    const serverB = await startHost(host, b.handler);
    const balancer = await startRoundRobin([serverA.url, serverB.url]);
    open.push(a.connection, b.connection, serverA, serverB, balancer);
    return { a, b, balancer };
  }

  it.each(CLIENTS)("a session opened on A serves calls on B ($name)", async (factory) => {
    const { balancer } = await behindBalancer();
    const client: TestClient = await factory.connect(balancer.url);
    open.push(client);
    const answers = new Set<string>();
    for (let call = 0; call < 4; call++) answers.add(textOf(await client.callTool("where", {})));
    // Every call was served, by both instances, in the one session initialize opened.
    expect(answers).toEqual(new Set(["A", "B"]));
    expect(new Set(balancer.served)).toEqual(new Set([0, 1]));
  });

  it.each(CLIENTS)(
    "a resource update published on either instance reaches the subscribed client, once, and only for its uri ($name)",
    async (factory) => {
      const { a, b, balancer } = await behindBalancer();
      const updated: string[] = [];
      const client: TestClient = await factory.connect(balancer.url, { onResourceUpdated: (uri) => updated.push(uri) });
      open.push(client);
      await client.subscribeResource("docs://watched");
      // The session's GET stream is held by one instance: wait until it is open there.
      const holder = () =>
        [a, b].find((one) => one.handler.engine.services.sessions!.live.get(client.sessionId!)?.getStream?.connected);
      await expect.poll(holder).toBeDefined();
      const publishers = new Set<string>();
      for (let call = 0; call < 4; call++) {
        publishers.add(textOf(await client.callTool("touch", { uri: "docs://watched" })));
        publishers.add(textOf(await client.callTool("touch", { uri: "docs://other" })));
      }
      // Both instances published, so the holder heard some updates from the other one over Redis.
      expect(publishers).toEqual(new Set(["A", "B"]));
      await expect.poll(() => updated.length).toBe(4);
      expect(updated).toEqual(Array(4).fill("docs://watched"));
      await client.unsubscribeResource("docs://watched");
      await client.callTool("touch", { uri: "docs://watched" });
      await client.callTool("touch", { uri: "docs://watched" });
      await client.listTools(); // a round trip after the last publish, so a stray update would have come
      expect(updated).toHaveLength(4);
    },
  );

  it("a modern listen stream on A receives the toolsChanged a handler on B publishes", async () => {
    const prefix = `i${++prefixes}:`;
    const a = instance(prefix, "A");
    const b = instance(prefix, "B");
    const serverA = await startHost(host, a.handler);
    const serverB = await startHost(host, b.handler);
    open.push(a.connection, b.connection, serverA, serverB);
    const listener = await connectModern(serverA.url, pinned);
    const caller = await connectModern(serverB.url, pinned);
    open.push(listener, caller);
    const changes: unknown[] = [];
    listener.client.setNotificationHandler("notifications/tools/list_changed", (n) => void changes.push(n));
    let subscription: McpSubscription | undefined;
    try {
      subscription = await listener.client.listen({ toolsListChanged: true });
      expect(textOf(await caller.client.callTool({ name: "bump", arguments: {} }))).toBe("bumped");
      await expect.poll(() => changes).toHaveLength(1);
    } finally {
      await subscription?.close();
    }
  });
});
