/**
 * The handshake grace on mcp-h3/redis, over real HTTP on h3 v2 and v1 with a real Redis: concurrent
 * 1.x SDK clients connecting at the cap each complete their handshake and a call, or get a clear 503
 * with `Retry-After`, never a 404 on `notifications/initialized` — on one instance and on two
 * instances sharing the keys (clients alternating). A pending session is safe for
 * `handshakeGraceMs` since its `initialize` (a ping does not extend it), an initialized one for
 * that long since its last use; past the grace both make room again, pending ones first.
 *
 * The clock is Date only (`vi.useFakeTimers({ toFake: ["Date"] })`): the store's scripts take their
 * `now` from it, so the grace is judged on that one clock and the test moves it past the grace
 * instead of waiting.
 */
import { afterAll, afterEach, beforeAll, describe as vitestDescribe, expect, it, vi } from "vitest";
import { z } from "zod";
import { defineMcpHandler, defineTool } from "../src/index.ts";
import { RedisConnection, RedisSessionStore, type RedisSessionStoreOptions } from "../src/_entries/redis.ts";
import { initializeMessage, openPending, openInitialized, ping, sdkClientRun } from "./helpers/handshakes.ts";
import { HOSTS, startHost } from "./helpers/hosts.ts";
import { startRedis, type RunningRedis } from "./helpers/redis-server.ts";
import { expectError, post } from "./helpers/rpc.ts";
import { REDIS, unavailable } from "./helpers/services.ts";

// Every suite of this file needs redis-server: skipped, said loudly, where it is missing (helpers/services.ts).
const describe = vitestDescribe.skipIf(unavailable(REDIS));

const DEFAULT_GRACE_MS = 2000;
/** The index by last use is exact to a second (see index-touches.ts): the grace since last use is counted from it plus that. */
const INDEX_TOUCH_MS = 1000;
let prefixes = 0;

let redis: RunningRedis;
beforeAll(async () => {
  redis = await startRedis();
});
afterAll(async () => {
  await redis?.stop();
});

/** Moves the clock (Date only: timers and sockets run as usual) by `ms`. */
function advance(ms: number): void {
  vi.setSystemTime(Date.now() + ms);
}

describe.each(HOSTS)("the handshake grace on Redis, %s", (host) => {
  const open: { close(): Promise<void> | void }[] = [];
  afterEach(async () => {
    for (const item of open.splice(0).reverse()) await item.close();
    vi.useRealTimers();
  });

  /** One instance on the keys of `prefix`: its own connection, store, handler and server. */
  async function instance(prefix: string, options: RedisSessionStoreOptions): Promise<string> {
    const connection = new RedisConnection({ url: redis.url, prefix });
    open.push(connection);
    const handler = defineMcpHandler({
      name: "redis-grace",
      version: "1.0.0",
      sessions: { store: new RedisSessionStore({ connection, ...options }) },
      tools: [
        defineTool({
          name: "echo",
          description: "Echoes its text",
          input: z.object({ text: z.string() }),
          handler: async (_event, { text }) => text,
        }),
      ],
    });
    open.push(handler);
    const server = await startHost(host, handler);
    open.push(server);
    return server.url;
  }

  for (const instances of [1, 2]) {
    for (const clients of [8, 32]) {
      it(`${clients} concurrent SDK clients at the cap on ${instances} instance(s): each completes its handshake and a call, or gets 503, never 404`, async () => {
        vi.useFakeTimers({ toFake: ["Date"] });
        const cap = 16;
        const prefix = `grace${++prefixes}:`;
        const urls: string[] = [];
        for (let index = 0; index < instances; index++) urls.push(await instance(prefix, { maxSessions: cap }));
        // The store is full of idle sessions, used long enough ago that they may make room.
        for (let index = 0; index < cap; index++) await openInitialized(urls[index % instances]!);
        advance(DEFAULT_GRACE_MS + INDEX_TOUCH_MS + 1);

        const outcomes = await Promise.all(
          Array.from({ length: clients }, (_, index) => sdkClientRun(urls[index % instances]!, `client ${index}`)),
        );
        const report = JSON.stringify(outcomes);
        expect(
          outcomes.flatMap((outcome) => outcome.statuses),
          report,
        ).not.toContain(404);
        const served = outcomes.filter((outcome, index) => outcome.result === `client ${index}`);
        const refused = outcomes.filter((outcome) => outcome.statuses[0] === 503);
        expect(served.length + refused.length, report).toBe(clients);
        for (const outcome of refused) expect(outcome.statuses).toEqual([503]);
        // Every idle session made room for one client; the rest were told the store is full.
        expect(served.length, report).toBe(Math.min(clients, cap));
      });
    }
  }

  it("a ping does not extend a pending session's grace: past it since its initialize, it makes room", async () => {
    vi.useFakeTimers({ toFake: ["Date"] });
    const url = await instance(`grace${++prefixes}:`, { maxSessions: 2, maxPendingSessions: 10 });
    const idle = await openInitialized(url);
    const pinged = await openPending(url);
    // Both are within the grace: nobody makes room, and the 503 says why and when to retry.
    const refused = await post(url, initializeMessage());
    expectError(refused, 503, -32603, /sessions\.maxSessions/);
    expect(refused.headers.get("retry-after")).toMatch(/^[1-9][0-9]*$/);
    expect(refused.headers.get("mcp-session-id")).toBeNull();

    advance(DEFAULT_GRACE_MS - 500);
    // Used just now, but its initialize was 1.5 s ago: the ping moves it in the order of use only.
    expect((await ping(url, pinged)).status).toBe(200);
    advance(501);
    // `pinged` is past its grace since its initialize; `idle` (initialized) is within the grace
    // since its last use plus the index's second: the unfinished handshake goes.
    const newcomer = await openPending(url);
    expect((await ping(url, pinged)).status).toBe(404);
    for (const id of [idle, newcomer]) expect((await ping(url, id)).status).toBe(200);
  });

  it("an initialized session is safe for the grace since its last use, then makes room", async () => {
    vi.useFakeTimers({ toFake: ["Date"] });
    const url = await instance(`grace${++prefixes}:`, { maxSessions: 2 });
    const older = await openInitialized(url);
    const newer = await openInitialized(url);
    advance(DEFAULT_GRACE_MS + INDEX_TOUCH_MS - 1);
    // Just under the grace plus the index's second since their last use: both safe.
    expectError(await post(url, initializeMessage()), 503, -32603, /sessions\.maxSessions/);
    // A request moves `older` to the newest end again; `newer` then goes first, once past the grace.
    expect((await ping(url, older)).status).toBe(200);
    advance(2);
    await openInitialized(url);
    expect((await ping(url, newer)).status).toBe(404);
    expect((await ping(url, older)).status).toBe(200);
  });

  it("handshakeGraceMs: 0 ends a handshake in flight for room at once, as before", async () => {
    const url = await instance(`grace${++prefixes}:`, { maxSessions: 2, handshakeGraceMs: 0 });
    const first = await openPending(url);
    await openPending(url);
    await openPending(url);
    expect((await ping(url, first)).status).toBe(404);
  });
});
