/**
 * A handshake in flight is not pushed out of a full session store: a session younger than
 * `sessions.handshakeGraceMs` since its `initialize` (pending), or used that recently (initialized),
 * is not ended to make room, so concurrent clients connecting at the cap each complete their
 * handshake and first call, or get a clear 503 with `Retry-After` — never a 404 on
 * `notifications/initialized`. Strangers still cannot push out live or recent sessions, and a
 * pending session past the grace still goes first. Over real HTTP on both h3 majors, with the
 * 1.x SDK client and raw requests.
 */
import { afterEach, describe, expect, it, vi } from "vitest";
import { z } from "zod";
import { defineMcpHandler, defineTool, type McpHandlerOptions } from "../src/index.ts";
import type { McpEventHandler } from "../src/handler-types.ts";
import { deferred } from "./helpers/deferred.ts";
import {
  initializeMessage,
  headersOf,
  openPending,
  openInitialized,
  ping,
  sdkClientRun,
} from "./helpers/handshakes.ts";
import { HOSTS, startHost, type RunningHost } from "./helpers/hosts.ts";
import { openGetStream, type LiveSse } from "./helpers/live-sse.ts";
import { expectError, post, single } from "./helpers/rpc.ts";

const DEFAULT_GRACE_MS = 2000;

/** Moves the clock (Date only: timers and sockets run as usual) past the default grace. */
function pastGrace(): void {
  vi.setSystemTime(Date.now() + DEFAULT_GRACE_MS + 1);
}

describe.each(HOSTS)("handshakes at the session cap on %s", (host) => {
  let server: RunningHost | undefined;
  let handler: McpEventHandler | undefined;
  const streams: LiveSse[] = [];
  let release = deferred();

  afterEach(async () => {
    release.resolve();
    for (const stream of streams.splice(0)) stream.close();
    await handler?.close();
    await server?.close();
    server = handler = undefined;
    release = deferred();
    vi.useRealTimers();
  });

  async function start(sessions: NonNullable<Exclude<McpHandlerOptions["sessions"], false>>): Promise<string> {
    handler = defineMcpHandler({
      name: "grace",
      version: "1.0.0",
      sessions,
      tools: [
        defineTool({
          name: "echo",
          description: "Echoes its text",
          input: z.object({ text: z.string() }),
          handler: async (_event, { text }) => text,
        }),
        defineTool({
          name: "hold",
          description: "Runs until the test releases it",
          input: z.object({}),
          handler: async () => {
            await release.promise;
            return "released";
          },
        }),
      ],
    });
    server = await startHost(host, handler);
    return server.url;
  }

  for (const clients of [8, 32]) {
    it(`${clients} concurrent SDK clients at the cap: each completes its handshake and a call, or gets 503, never 404`, async () => {
      vi.useFakeTimers({ toFake: ["Date"] });
      const cap = 16;
      const url = await start({ maxSessions: cap });
      // The store is full of idle sessions, opened long enough ago that they may make room.
      for (let index = 0; index < cap; index++) await openInitialized(url);
      pastGrace();

      const outcomes = await Promise.all(
        Array.from({ length: clients }, (_, index) => sdkClientRun(url, `client ${index}`)),
      );
      const statuses = outcomes.flatMap((outcome) => outcome.statuses);
      expect(statuses, JSON.stringify(outcomes)).not.toContain(404);
      const served = outcomes.filter((outcome, index) => outcome.result === `client ${index}`);
      const refused = outcomes.filter((outcome) => outcome.statuses[0] === 503);
      // Every idle session made room for one client; the rest were told the store is full.
      expect(served.length, JSON.stringify(outcomes)).toBe(Math.min(clients, cap));
      expect(served.length + refused.length, JSON.stringify(outcomes)).toBe(clients);
      for (const outcome of refused) expect(outcome.statuses).toEqual([503]);
    });
  }

  it("the 503 of a store full of fresh handshakes names the cap and carries Retry-After; nothing is ended", async () => {
    const url = await start({ maxSessions: 100, maxPendingSessions: 2 });
    const [first, second] = [await openPending(url), await openPending(url)];
    const refused = await post(url, initializeMessage());
    expectError(refused, 503, -32603, /sessions\.maxPendingSessions/);
    expect(refused.headers.get("retry-after")).toMatch(/^[1-9][0-9]*$/);
    expect(refused.headers.get("mcp-session-id")).toBeNull();
    for (const id of [first, second]) {
      const initialized = await post(url, { jsonrpc: "2.0", method: "notifications/initialized" }, headersOf(id));
      expect(initialized.status).toBe(202);
      expect((await ping(url, id)).status).toBe(200);
    }
  });

  it("a flood of strangers' initializes ends no live or recent session, only stale handshakes", async () => {
    vi.useFakeTimers({ toFake: ["Date"] });
    const url = await start({ maxSessions: 10, maxPendingSessions: 4 });
    const streaming = await openInitialized(url);
    const { response, sse } = await openGetStream(url, headersOf(streaming));
    expect(response.status).toBe(200);
    streams.push(sse);
    const calling = await openInitialized(url);
    const held = post(
      url,
      { jsonrpc: "2.0", id: 900, method: "tools/call", params: { name: "hold", arguments: {} } },
      headersOf(calling),
    );
    held.catch(() => {}); // awaited below
    const stale = await openPending(url);
    pastGrace();
    // Used just now: recent, though idle.
    const recent = await openInitialized(url);

    const statuses = new Map<number, number>();
    for (let round = 0; round < 10; round++) {
      const answers = await Promise.all(Array.from({ length: 20 }, () => post(url, initializeMessage())));
      for (const answer of answers) statuses.set(answer.status, (statuses.get(answer.status) ?? 0) + 1);
    }
    // The stale handshake made room; then strangers filled the pending places and were refused.
    expect([...statuses.keys()].sort()).toEqual([200, 503]);
    expect(statuses.get(200)).toBe(4);
    expect((await ping(url, stale)).status).toBe(404);
    for (const id of [streaming, calling, recent]) expect((await ping(url, id)).status).toBe(200);
    release.resolve();
    expect(single(await held).result?.content).toEqual([{ type: "text", text: "released" }]);
  });

  it("past the grace, an idle session behind 40 with GET streams makes room on the first try (1.x SDK client)", async () => {
    vi.useFakeTimers({ toFake: ["Date"] });
    const url = await start({ maxSessions: 44 });
    const streaming: string[] = [];
    for (let index = 0; index < 40; index++) {
      const id = await openInitialized(url);
      const { response, sse } = await openGetStream(url, headersOf(id));
      expect(response.status).toBe(200);
      streams.push(sse);
      streaming.push(id);
    }
    const idle: string[] = [];
    for (let index = 0; index < 4; index++) idle.push(await openInitialized(url));
    pastGrace();

    // Full; the 40 least recently used are live, the 4 behind them idle and past the grace: a new
    // client is served at once, in place of the least recently used idle session.
    const first = await sdkClientRun(url, "first");
    expect(first, JSON.stringify(first)).toMatchObject({ result: "first" });
    expect(first.statuses).not.toContain(503);
    expect((await ping(url, idle[0]!)).status).toBe(404);
    // A raw initialize too, in place of the next one.
    expect((await post(url, initializeMessage())).status).toBe(200);
    expect((await ping(url, idle[1]!)).status).toBe(404);
    for (const id of [...streaming, ...idle.slice(2)]) expect((await ping(url, id)).status).toBe(200);
  });

  it("past the grace, a pending session goes before an idle initialized one, oldest first", async () => {
    vi.useFakeTimers({ toFake: ["Date"] });
    const url = await start({ maxSessions: 3, maxPendingSessions: 10 });
    const idle = await openInitialized(url);
    const older = await openPending(url);
    const newer = await openPending(url);
    // All three are fresh: nobody makes room.
    expectError(await post(url, initializeMessage()), 503, -32603, /sessions\.maxSessions/);
    pastGrace();
    await openPending(url);
    expect((await ping(url, older)).status).toBe(404);
    for (const id of [idle, newer]) expect((await ping(url, id)).status).toBe(200);
  });
});
