/**
 * The UI extension a legacy client declared at `initialize` is the session's, wherever its later
 * requests land: two instances on one real Redis behind a balancer without sticky sessions, a
 * session opened on one, and `clientSupportsApps` answering on both (sdk 1.x and the 2.x client on
 * a legacy session, with and without the extension).
 */
import { afterAll, afterEach, beforeAll, describe as vitestDescribe, expect, it } from "vitest";
import { clientSupportsApps, defineMcpApp } from "../src/_entries/apps.ts";
import { defineMcpHandler, defineTool } from "../src/index.ts";
import { RedisBus, RedisConnection, RedisEventStore, RedisSessionStore } from "../src/_entries/redis.ts";
import { connectAppClient } from "./helpers/app-clients.ts";
import { startHost } from "./helpers/hosts.ts";
import { startRedis, type RunningRedis } from "./helpers/redis-server.ts";
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

const view = defineMcpApp({ name: "view", handler: () => "view", view: { html: "<!doctype html><p>view</p>" } });

function instance(prefix: string, name: string) {
  const connection = new RedisConnection({ url: redis.url, prefix });
  const handler = defineMcpHandler({
    name,
    version: "1.0.0",
    sessions: { store: new RedisSessionStore({ connection }) },
    events: new RedisEventStore({ connection }),
    bus: new RedisBus({ connection }),
    tools: [view.tool, defineTool({ name: "support", handler: (event) => `${name}:${clientSupportsApps(event)}` })],
    resources: [view.view],
  });
  return { handler, connection };
}

describe("a legacy session's UI extension across two instances on one Redis", () => {
  const open: { close(): Promise<void> }[] = [];
  let prefixes = 0;
  afterEach(async () => {
    for (const item of open.splice(0).reverse()) await item.close();
  });

  it.each(["sdk-1.x", "client-2.x-legacy"] as const)("%s: every instance reads it from the session", async (name) => {
    const prefix = `apps${++prefixes}:`;
    const a = instance(prefix, "A");
    const b = instance(prefix, "B");
    const serverA = await startHost("h3-v2", a.handler);
    const serverB = await startHost("h3-v2", b.handler);
    const balancer = await startRoundRobin([serverA.url, serverB.url]);
    open.push(a.connection, b.connection, serverA, serverB, balancer);
    for (const ui of [true, false]) {
      const client = await connectAppClient(name, balancer.url, { ui });
      open.push(client);
      const answers = new Set<string>();
      for (let call = 0; call < 4; call++) answers.add((await client.callTool("support")).content![0]!.text!);
      expect(answers).toEqual(new Set([`A:${ui}`, `B:${ui}`]));
    }
  });
});
