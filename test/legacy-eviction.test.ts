/**
 * Who may be pushed out of a full session store (architecture §5): sessions that never sent
 * `notifications/initialized` go first and have their own cap; a session with an open stream or a
 * call in flight is never ended to make room; a store full of live sessions answers a new
 * `initialize` with 503 and `Retry-After` instead of ending someone's session. Over real HTTP, on
 * both h3 majors. The handshake grace is off here (the order of eviction on its own); it is tested
 * in legacy-handshake-grace.test.ts.
 */
import { afterEach, describe, expect, it, vi } from "vitest";
import { z } from "zod";
import { MemorySessionStore, defineMcpHandler, defineTool, type McpHandlerOptions } from "../src/index.ts";
import type { McpEventHandler } from "../src/handler-types.ts";
import { deferred } from "./helpers/deferred.ts";
import { HOSTS, startHost, type RunningHost } from "./helpers/hosts.ts";
import { openGetStream, type LiveSse } from "./helpers/live-sse.ts";
import { expectError, post, send, single, type Answer } from "./helpers/rpc.ts";
import { sleep } from "./helpers/wait.ts";

const VERSION = "2025-11-25";
const INTERNAL_ERROR = -32603;
let nextId = 1;

function initializeMessage(): object {
  return {
    jsonrpc: "2.0",
    id: nextId++,
    method: "initialize",
    params: { protocolVersion: VERSION, capabilities: {}, clientInfo: { name: "eviction-test", version: "1" } },
  };
}

function headersOf(sessionId: string): Record<string, string> {
  return { "mcp-session-id": sessionId, "mcp-protocol-version": VERSION };
}

/** `initialize` only: the session stays pending (never initialized). */
async function openPending(url: string): Promise<string> {
  const answer = await post(url, initializeMessage());
  expect(answer.status, answer.text).toBe(200);
  return answer.headers.get("mcp-session-id")!;
}

/** `initialize` then `notifications/initialized`, as every client does. */
async function openInitialized(url: string): Promise<string> {
  const id = await openPending(url);
  const initialized = await post(url, { jsonrpc: "2.0", method: "notifications/initialized" }, headersOf(id));
  expect(initialized.status).toBe(202);
  return id;
}

function ping(url: string, sessionId: string): Promise<Answer> {
  return post(url, { jsonrpc: "2.0", id: nextId++, method: "ping" }, headersOf(sessionId));
}

function callTool(url: string, sessionId: string, name: string): Promise<Answer> {
  return post(
    url,
    { jsonrpc: "2.0", id: nextId++, method: "tools/call", params: { name, arguments: {} } },
    headersOf(sessionId),
  );
}

describe.each(HOSTS)("legacy session eviction on %s", (host) => {
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
      name: "eviction",
      version: "1.0.0",
      sessions,
      tools: [
        defineTool({
          name: "announce",
          description: "Tells every GET stream that the tool list changed",
          input: z.object({}),
          handler: async (event) => {
            await event.context.mcp!.notify.toolsChanged();
            return "announced";
          },
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

  async function openStream(url: string, sessionId: string): Promise<LiveSse> {
    const { response, sse } = await openGetStream(url, headersOf(sessionId));
    expect(response.status).toBe(200);
    streams.push(sse);
    return sse;
  }

  it("a flood of anonymous initializes does not end an initialized session with an open GET stream", async () => {
    const url = await start({ maxSessions: 50, maxPendingSessions: 8, handshakeGraceMs: 0 });
    const owner = await openInitialized(url);
    const stream = await openStream(url, owner);

    const statuses = new Map<number, number>();
    for (let sent = 0; sent < 2100; sent += 50) {
      const answers = await Promise.all(Array.from({ length: 50 }, () => post(url, initializeMessage())));
      for (const answer of answers) statuses.set(answer.status, (statuses.get(answer.status) ?? 0) + 1);
    }
    // The owner works on: its calls are served and its GET stream still receives notifications.
    const announced = await callTool(url, owner, "announce");
    expect(announced.status, announced.text).toBe(200);
    const event = await stream.next(/list_changed/);
    expect(JSON.parse(event.data).method).toBe("notifications/tools/list_changed");

    // Pending sessions made room for each other: the flood was served, and never piled up.
    expect(statuses.get(200)).toBe(2100);
    const store = handler!.engine.services.sessions!.store as MemorySessionStore;
    expect(store.size).toBeLessThanOrEqual(1 + 8);
  });

  it("a store full of live sessions answers initialize with 503 and Retry-After; after a DELETE there is room", async () => {
    const url = await start({ maxSessions: 3 });
    const first = await openInitialized(url);
    const second = await openInitialized(url);
    const third = await openInitialized(url);
    await openStream(url, first);
    await openStream(url, second);
    // The third is live through a call in flight rather than a stream.
    const held = callTool(url, third, "hold");
    held.catch(() => {}); // awaited below; a failed assertion before that must not leave it unhandled
    await sleep(50);

    const refused = await post(url, initializeMessage());
    const error = expectError(refused, 503, INTERNAL_ERROR, /sessions\.maxSessions/);
    expect(refused.headers.get("retry-after")).toMatch(/^[1-9][0-9]*$/);
    expect(refused.headers.get("mcp-session-id")).toBeNull();
    expect(error.data).toEqual({ limit: "sessions.maxSessions", max: 3 });
    for (const id of [first, second, third]) expect((await ping(url, id)).status).toBe(200);

    expect((await send(url, "DELETE", headersOf(first))).status).toBe(200);
    const admitted = await post(url, initializeMessage());
    expect(admitted.status, admitted.text).toBe(200);
    release.resolve();
    expect(single(await held).result?.content).toEqual([{ type: "text", text: "released" }]);
  });

  it("ends pending sessions first, and the oldest pending one at the pending cap", async () => {
    const url = await start({ maxSessions: 3, maxPendingSessions: 10, handshakeGraceMs: 0 });
    const older = await openInitialized(url);
    const newer = await openInitialized(url);
    const pending = await openPending(url);
    await openPending(url); // full: the pending session goes, not the least recently used initialized one
    expect((await ping(url, pending)).status).toBe(404);
    expect((await ping(url, older)).status).toBe(200);
    expect((await ping(url, newer)).status).toBe(200);

    await handler!.close();
    await server!.close();
    const second = await start({ maxSessions: 100, maxPendingSessions: 2, handshakeGraceMs: 0 });
    const initialized = await openInitialized(second);
    const [p1, p2, p3] = [await openPending(second), await openPending(second), await openPending(second)];
    expect((await ping(second, p1)).status).toBe(404);
    for (const id of [initialized, p2, p3]) expect((await ping(second, id)).status).toBe(200);
  });

  it("an idle initialized session is still ended least recently used first", async () => {
    const url = await start({ maxSessions: 2, handshakeGraceMs: 0 });
    const first = await openInitialized(url);
    const second = await openInitialized(url);
    expect((await ping(url, first)).status).toBe(200); // first is now the most recently used
    const third = await openInitialized(url);
    expect((await ping(url, second)).status).toBe(404);
    for (const id of [first, third]) expect((await ping(url, id)).status).toBe(200);
  });

  it("the idle TTL spares a session while its GET stream is open, and counts from when it closes", async () => {
    vi.useFakeTimers({ toFake: ["Date"] });
    const url = await start({ ttlMs: 60_000 });
    const streaming = await openInitialized(url);
    const idle = await openInitialized(url);
    const stream = await openStream(url, streaming);
    vi.setSystemTime(Date.now() + 120_000);
    expect((await ping(url, idle)).status).toBe(404);
    const live = handler!.engine.services.sessions!.live;
    expect(live.get(streaming)?.getStream?.connected).toBe(true);

    vi.setSystemTime(Date.now() + 120_000);
    stream.close();
    for (let i = 0; i < 100 && live.get(streaming)?.getStream?.connected; i++) await sleep(10);
    expect(live.get(streaming)?.getStream?.connected).toBe(false);
    vi.setSystemTime(Date.now() + 30_000);
    expect((await ping(url, streaming)).status).toBe(200);
    vi.setSystemTime(Date.now() + 61_000);
    expect((await ping(url, streaming)).status).toBe(404);
  });
});
