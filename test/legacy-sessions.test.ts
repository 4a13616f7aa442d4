/**
 * Session lifetime on the legacy lane: idle TTL, the count limit, DELETE — and that nothing of an
 * ended session stays in memory (session store, event log, live registry).
 */
import { afterEach, describe, expect, it, vi } from "vitest";
import { z } from "zod";
import { defineMcpHandler, defineTool, MemoryEventStore, MemorySessionStore } from "../src/index.ts";
import { HOSTS, startHost, type RunningHost } from "./helpers/hosts.ts";
import { POST_HEADERS, initializeByHand } from "./helpers/rpc.ts";

function call(url: string, sessionId: string, id: number, name: string, args: object = {}): Promise<Response> {
  return fetch(url, {
    method: "POST",
    headers: { ...POST_HEADERS, "mcp-session-id": sessionId, "mcp-protocol-version": "2025-11-25" },
    body: JSON.stringify({
      jsonrpc: "2.0",
      id,
      method: "tools/call",
      params: { name, arguments: args, _meta: { progressToken: id } },
    }),
  });
}

describe.each(HOSTS)("legacy sessions on %s", (host) => {
  let server: RunningHost | undefined;
  afterEach(async () => {
    vi.useRealTimers();
    await server?.close();
    server = undefined;
  });

  function build(store: MemorySessionStore, events: MemoryEventStore) {
    return defineMcpHandler({
      name: "sessions",
      version: "1.0.0",
      sessions: { store },
      events,
      tools: [
        defineTool({
          name: "chatty",
          description: "Sends progress, so its events are logged for resumption",
          input: z.object({}),
          handler: async (event) => {
            await event.context.mcp!.progress(1, 1);
            return "done";
          },
        }),
      ],
    });
  }

  it("expires idle sessions and forgets everything of them", async () => {
    // The idle clock is `Date.now()`: faking only Date lets the test move it past the TTL, while
    // sockets keep their real timers.
    vi.useFakeTimers({ toFake: ["Date"] });
    const store = new MemorySessionStore({ ttlMs: 200 });
    const events = new MemoryEventStore();
    const handler = build(store, events);
    server = await startHost(host, handler);
    const sessionId = await initializeByHand(server.url);
    const response = await call(server.url, sessionId, 1, "chatty");
    expect(response.headers.get("content-type")).toContain("text/event-stream");
    expect(await response.text()).toContain('"result"');
    expect(store.size).toBe(1);
    expect(events.sessionCount).toBe(1);

    // Still alive just before the TTL (a request renews it); gone once it has passed.
    vi.advanceTimersByTime(199);
    const renewed = await call(server.url, sessionId, 2, "chatty");
    expect(renewed.status).toBe(200);
    expect(await renewed.text()).toContain('"result"');
    expect(store.size).toBe(1);
    vi.advanceTimersByTime(201);
    const expired = await call(server.url, sessionId, 3, "chatty");
    expect(expired.status).toBe(404);
    expect(store.size).toBe(0);
    expect(events.sessionCount).toBe(0);
    expect(handler.engine.services.sessions!.live.size).toBe(0);
  });

  it("keeps at most maxSessions, ending the least recently used", async () => {
    const store = new MemorySessionStore({ maxSessions: 2, handshakeGraceMs: 0 });
    const events = new MemoryEventStore();
    server = await startHost(host, build(store, events));
    const first = await initializeByHand(server.url);
    const second = await initializeByHand(server.url);
    await (await call(server.url, first, 1, "chatty")).text(); // first is now the most recently used
    const third = await initializeByHand(server.url);
    expect(store.size).toBe(2);
    expect((await call(server.url, second, 2, "chatty")).status).toBe(404);
    expect((await call(server.url, first, 3, "chatty")).status).toBe(200);
    expect((await call(server.url, third, 4, "chatty")).status).toBe(200);
  });

  it("DELETE ends the session: later requests get 404 and its events are gone", async () => {
    const store = new MemorySessionStore();
    const events = new MemoryEventStore();
    const handler = build(store, events);
    server = await startHost(host, handler);
    const sessionId = await initializeByHand(server.url);
    await (await call(server.url, sessionId, 1, "chatty")).text();
    const deleted = await fetch(server.url, { method: "DELETE", headers: { "mcp-session-id": sessionId } });
    expect(deleted.status).toBe(200);
    expect(store.size).toBe(0);
    expect(events.sessionCount).toBe(0);
    expect(handler.engine.services.sessions!.live.size).toBe(0);
    expect((await call(server.url, sessionId, 2, "chatty")).status).toBe(404);
    const again = await fetch(server.url, { method: "DELETE", headers: { "mcp-session-id": sessionId } });
    expect(again.status).toBe(404);
  });

  it("issues session ids of visible ASCII, unique per session", async () => {
    server = await startHost(host, build(new MemorySessionStore(), new MemoryEventStore()));
    const ids = await Promise.all([1, 2, 3, 4].map(() => initializeByHand(server!.url)));
    for (const id of ids) expect(id).toMatch(/^[\x21-\x7E]+$/);
    expect(new Set(ids).size).toBe(4);
  });
});
