/**
 * A GET stream taken over by B while A has not yet heard of it (h3 v2 and v1, a real Redis): A
 * still holds the stream's channel, disconnected, until B's "released" reaches it. A notification
 * sent on A meanwhile is kept in the log after B read its replay: A must hand it to B, which holds
 * the client's connection, instead of keeping it for a resumption that has already happened.
 */
import { afterAll, afterEach, beforeAll, describe as vitestDescribe, expect, it } from "vitest";
import { deferred } from "./helpers/deferred.ts";
import { HOSTS } from "./helpers/hosts.ts";
import { startRedis, type RunningRedis } from "./helpers/redis-server.ts";
import {
  callTool,
  getStream,
  openSession,
  resultText,
  startInstance,
  toldText,
  type Instance,
} from "./helpers/routing-instances.ts";
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

/** Connection options for the keys of `prefix` on this file's Redis. */
const oneRedis = (prefix: string) => ({ url: redis.url, prefix });

let prefixes = 0;

describe.each(HOSTS)("a GET stream taken over on %s before the former holder knows", (host) => {
  const open: { close(): Promise<void> }[] = [];
  afterEach(async () => {
    for (const item of open.splice(0).reverse()) await item.close().catch(() => {});
  });

  async function tell(instance: Instance, sessionId: string, text: string): Promise<void> {
    const caller = await openSession(instance.url);
    expect(resultText(await callTool(instance.url, caller, "tell", { sessionId, text }))).toBe("true");
  }

  it("a notification sent on the former holder reaches the client on the new one, once", async () => {
    const prefix = `r${++prefixes}:`;
    const a = await startInstance(host, oneRedis, prefix, "A");
    const b = await startInstance(host, oneRedis, prefix, "B");
    open.push({ close: a.stop }, { close: b.stop });
    const headers = await openSession(a.url);
    const sessionId = headers["mcp-session-id"]!;
    const first = await getStream(a.url, headers);
    open.push({ close: async () => first.sse.close() });
    await tell(a, sessionId, "one");
    const one = await first.sse.next(/notifications\/message/);
    expect(toldText(one.data)).toBe("one");
    first.sse.close();
    const heldOnA = () => a.handler.engine.services.sessions!.live.get(sessionId)?.getStream;
    await expect.poll(() => heldOnA()?.connected).toBe(false);

    // B takes the stream over; its word to A ("released") is held back, so A still holds its channel.
    const released = deferred();
    b.beforePublish = async (message) => {
      if (message.kind === "released") await released.promise;
    };
    const resumed = await getStream(b.url, headers, one.id!);
    open.push({ close: async () => resumed.sse.close() });
    expect(resumed.response.status).toBe(200);
    expect(heldOnA()).toBeDefined();

    await tell(a, sessionId, "two");
    const two = await resumed.sse.next(/notifications\/message/);
    expect([toldText(two.data), two.id]).toEqual(["two", `get/${Number(one.id!.slice(4)) + 1}`]);
    released.resolve();
    await expect.poll(() => heldOnA()).toBeUndefined();
    await tell(a, sessionId, "three");
    const three = await resumed.sse.next(/notifications\/message/);
    expect([toldText(three.data), three.id]).toEqual(["three", `get/${Number(one.id!.slice(4)) + 2}`]);
  });
});
