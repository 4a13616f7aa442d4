/**
 * A GET stream resumed across a Redis outage (h3 v2 and v1, raw SSE): the session's stream is open
 * when redis-server is killed; the client's connection drops meanwhile, and its resumption is
 * answered 503 while Redis is away; redis-server comes back on the same port from its append-only
 * file, and the client's resumption from its Last-Event-ID gets every event sent since, in order,
 * exactly once, under the ids that follow its own, then the stream goes on live.
 */
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe as vitestDescribe, expect, it } from "vitest";
import { z } from "zod";
import { defineMcpHandler, defineTool } from "../src/index.ts";
import { RedisConnection, RedisEventStore, RedisSessionStore } from "../src/_entries/redis.ts";
import { HOSTS, startHost, type HostName } from "./helpers/hosts.ts";
import type { LiveSse } from "./helpers/live-sse.ts";
import { startRedis, type RunningRedis } from "./helpers/redis-server.ts";
import { callTool, getStream, openSession, resultText, toldText } from "./helpers/routing-instances.ts";
import type { SseEvent } from "./helpers/sse.ts";
import { REDIS, unavailable } from "./helpers/services.ts";

// Every suite of this file needs redis-server: skipped, said loudly, where it is missing (helpers/services.ts).
const describe = vitestDescribe.skipIf(unavailable(REDIS));

/** A hang guard for the connection to come back, far above what reconnecting takes. */
const RECONNECT_GUARD_MS = 15_000;

describe.each(HOSTS)("a GET stream across a Redis outage, on %s", (host: HostName) => {
  const open: { close(): Promise<void> }[] = [];
  afterEach(async () => {
    for (const item of open.splice(0).reverse()) await item.close().catch(() => {});
  });

  it("the client's resumption after Redis came back gets every event, in order, exactly once", async () => {
    const persistDir = await mkdtemp(join(tmpdir(), "mcp-h3-redis-"));
    open.push({ close: () => rm(persistDir, { recursive: true, force: true }) });
    let redis: RunningRedis = await startRedis(undefined, { persistDir });
    open.push({ close: () => redis.stop() });
    const connection = new RedisConnection({ url: redis.url, prefix: "o:" });
    const handler = defineMcpHandler({
      name: "outage",
      version: "1.0.0",
      sessions: { store: new RedisSessionStore({ connection }) },
      events: new RedisEventStore({ connection }),
      tools: [
        defineTool({
          name: "tell",
          description: "Sends a log message to the GET stream of a session",
          input: z.object({ sessionId: z.string(), text: z.string() }),
          handler: async (event, { sessionId, text }) =>
            String(
              await event.context.mcp!.notifySession(sessionId, "notifications/message", { level: "info", data: text }),
            ),
        }),
      ],
    });
    const server = await startHost(host, handler);
    open.push(connection, { close: () => handler.close() }, server);
    const tell = async (sessionId: string, text: string): Promise<void> => {
      const caller = await openSession(server.url);
      expect(resultText(await callTool(server.url, caller, "tell", { sessionId, text }))).toBe("true");
    };

    const headers = await openSession(server.url);
    const sessionId = headers["mcp-session-id"]!;
    const first = await getStream(server.url, headers);
    open.push({ close: async () => first.sse.close() });
    expect(first.response.status).toBe(200);
    await tell(sessionId, "one");
    const one = await first.sse.next(/notifications\/message/);
    expect(toldText(one.data)).toBe("one");

    // Redis dies with the stream open; the client's connection drops too, and its resumption meets the outage.
    await redis.stop();
    first.sse.close();
    const during = await fetch(server.url, {
      method: "GET",
      headers: { accept: "text/event-stream", ...headers, "last-event-id": one.id! },
    });
    await during.body?.cancel();
    expect(during.status).toBe(503);
    expect(Number(during.headers.get("retry-after"))).toBeGreaterThan(0);

    redis = await startRedis(redis.port, { persistDir });
    const client = await connection.client();
    await expect.poll(() => client.isReady, { timeout: RECONNECT_GUARD_MS }).toBe(true);
    await tell(sessionId, "two");
    await tell(sessionId, "three");

    const resumed = await getStream(server.url, headers, one.id!);
    open.push({ close: async () => resumed.sse.close() });
    expect(resumed.response.status).toBe(200);
    const replayed = await readTold(resumed.sse, "three");
    expect(replayed.map((event) => toldText(event.data))).toEqual(["two", "three"]);
    const seq = Number(one.id!.slice("get/".length));
    expect(replayed.map((event) => event.id)).toEqual([`get/${seq + 1}`, `get/${seq + 2}`]);
    await tell(sessionId, "four");
    const four = await resumed.sse.next(/notifications\/message/);
    expect([toldText(four.data), four.id]).toEqual(["four", `get/${seq + 3}`]);
  });
});

/** The told messages `sse` delivers until `last` (a duplicate after it shows in the next read). */
async function readTold(sse: LiveSse, last: string): Promise<SseEvent[]> {
  const events: SseEvent[] = [];
  for (;;) {
    const event = await sse.next(/notifications\/message/);
    events.push(event);
    if (toldText(event.data) === last) return events;
  }
}
