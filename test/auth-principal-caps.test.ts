/**
 * Per-principal caps, on h3 v2 and h3 v1 with the real clients: one principal that fills
 * `sessions.maxSessionsPerPrincipal` gets 429 for its next `initialize` while another still gets in,
 * and its place comes back on every path a session ends (DELETE, idle TTL, eviction for room, a
 * store that failed or was full, the handler closing); one that fills `maxListensPerPrincipal` gets
 * `-32603` for its next `subscriptions/listen` and its place back when a stream closes.
 */
import { afterEach, describe, expect, it, vi } from "vitest";
import {
  MemorySessionStore,
  defineMcpHandler,
  defineTool,
  type McpHandlerOptions,
  type SessionOptions,
} from "../src/index.ts";
import type { McpEventHandler } from "../src/handler-types.ts";
import { CLIENTS, CALL_TIMEOUT_MS, type TestClient } from "./helpers/clients.ts";
import { HOSTS, startHost, type RunningHost } from "./helpers/hosts.ts";
import { MODERN_MODES, connectModern, type ModernConnection } from "./helpers/modern-clients.ts";
import { bearer, staticAuth } from "./helpers/auth.ts";
import { FailingSessionStore, Faults } from "./helpers/failing-stores.ts";
import { openGetStream, type LiveSse } from "./helpers/live-sse.ts";
import { POST_HEADERS, post, single, type Answer } from "./helpers/rpc.ts";
import { sleep } from "./helpers/wait.ts";

const LEGACY = "2025-11-25";

/** A raw `initialize` with the token; the session id when one was opened. */
async function initialize(url: string, token: string): Promise<{ answer: Answer; sessionId: string | null }> {
  const params = { protocolVersion: LEGACY, capabilities: {}, clientInfo: { name: "raw", version: "1" } };
  const answer = await post(url, { jsonrpc: "2.0", id: 1, method: "initialize", params }, bearer(token));
  return { answer, sessionId: answer.headers.get("mcp-session-id") };
}

/** A raw `initialize` that must open a session, then `notifications/initialized`. */
async function open(url: string, token: string): Promise<string> {
  const { answer, sessionId } = await initialize(url, token);
  expect(answer.status, answer.text).toBe(200);
  await post(url, { jsonrpc: "2.0", method: "notifications/initialized" }, sessionHeaders(token, sessionId!));
  return sessionId!;
}

function sessionHeaders(token: string, sessionId: string): Record<string, string> {
  return { ...POST_HEADERS, ...bearer(token), "mcp-session-id": sessionId, "mcp-protocol-version": LEGACY };
}

function ping(url: string, token: string, sessionId: string): Promise<Answer> {
  return post(url, { jsonrpc: "2.0", id: 2, method: "ping" }, sessionHeaders(token, sessionId));
}

/** The 429 of a principal at its cap: names the limit, opens nothing. */
function expectPrincipalFull(answer: Answer, max: number): void {
  expect(answer.status, answer.text).toBe(429);
  expect(answer.headers.get("mcp-session-id")).toBeNull();
  expect(answer.headers.get("retry-after")).toBeNull();
  const error = single(answer).error!;
  expect(error.code).toBe(-32603);
  expect(error.message).toContain(`already holds ${max} sessions (sessions.maxSessionsPerPrincipal)`);
  expect(error.data).toEqual({ limit: "sessions.maxSessionsPerPrincipal", max });
}

describe.each(HOSTS)("per-principal caps on %s", (host) => {
  let server: RunningHost | undefined;
  let handler: McpEventHandler | undefined;
  const clients: TestClient[] = [];
  const modern: ModernConnection[] = [];
  const streams: LiveSse[] = [];
  afterEach(async () => {
    vi.useRealTimers();
    for (const stream of streams.splice(0)) stream.close();
    for (const client of clients.splice(0)) await client.close().catch(() => {});
    for (const connection of modern.splice(0)) await connection.close().catch(() => {});
    await server?.close();
    await handler?.close();
    server = handler = undefined;
  });

  async function start(sessions: SessionOptions, extra: Partial<McpHandlerOptions> = {}): Promise<string> {
    handler = defineMcpHandler({
      name: "caps",
      version: "1.0.0",
      auth: staticAuth(),
      sessions,
      tools: [defineTool({ name: "echo", description: "Echoes", handler: () => "echo" })],
      ...extra,
    });
    server = await startHost(host, handler);
    return server.url;
  }

  const counted = (principal: string): number => handler!.engine.services.sessions!.perPrincipal.countOf(principal);

  it("alice fills her sessions: the next initialize gets 429, bob gets in, and a DELETE gives her place back", async () => {
    const url = await start({ maxSessionsPerPrincipal: 2 });
    for (const factory of CLIENTS) {
      const held: TestClient[] = [];
      for (let n = 0; n < 2; n++) held.push(await factory.connect(url, {}, "alice-token"));
      clients.push(...held);
      expect(counted("alice")).toBe(2);
      expectPrincipalFull((await initialize(url, "alice-token")).answer, 2);
      await expect(factory.connect(url, {}, "alice-token")).rejects.toThrow();
      expect(counted("alice")).toBe(2);

      const bob = await factory.connect(url, {}, "bob-token");
      clients.push(bob);
      expect((await bob.callTool("echo", {})).content).toEqual([{ type: "text", text: "echo" }]);
      // Alice's sessions still work; ending one through her client's DELETE frees its place.
      expect((await held[1]!.callTool("echo", {})).content).toEqual([{ type: "text", text: "echo" }]);
      await held[0]!.terminateSession();
      expect(counted("alice")).toBe(1);
      const again = await factory.connect(url, {}, "alice-token");
      clients.push(again);
      expect((await again.callTool("echo", {})).content).toEqual([{ type: "text", text: "echo" }]);
      for (const client of [...held, again, bob]) await client.terminateSession().catch(() => {});
      expect(counted("alice") + counted("bob")).toBe(0);
    }
  });

  it("a session that ends by its idle time gives its place back", async () => {
    vi.useFakeTimers({ toFake: ["Date"] });
    const url = await start({ maxSessionsPerPrincipal: 2, ttlMs: 60_000 });
    const first = await open(url, "alice-token");
    vi.setSystemTime(Date.now() + 30_000);
    const second = await open(url, "alice-token");
    expectPrincipalFull((await initialize(url, "alice-token")).answer, 2);
    // The first has been idle past the TTL: the store ends it, and alice may open one more.
    vi.setSystemTime(Date.now() + 31_000);
    const third = await open(url, "alice-token");
    expect((await ping(url, "alice-token", first)).status).toBe(404);
    for (const id of [second, third]) expect((await ping(url, "alice-token", id)).status).toBe(200);
    expect(counted("alice")).toBe(2);
    expectPrincipalFull((await initialize(url, "alice-token")).answer, 2);
  });

  it("a session ended to make room gives its place back, and closing the handler forgets every count", async () => {
    const url = await start({ maxSessionsPerPrincipal: 2, maxSessions: 3, handshakeGraceMs: 0 });
    const [oldest] = [await open(url, "alice-token"), await open(url, "alice-token")];
    await open(url, "bob-token");
    // The store is full: bob's next session ends the least recently used idle one, alice's oldest.
    await open(url, "bob-token");
    expect((await ping(url, "alice-token", oldest!)).status).toBe(404);
    expect([counted("alice"), counted("bob")]).toEqual([1, 2]);
    // Alice's next one makes room by ending her other one (now the least recently used): still one.
    await open(url, "alice-token");
    expect([counted("alice"), counted("bob")]).toEqual([1, 2]);
    await handler!.close();
    expect(counted("alice") + counted("bob")).toBe(0);
  });

  it("an initialize the store refuses (full, or failing) takes no place", async () => {
    const faults = new Faults();
    // A store without `peek`: the count still works (and is never checked against the store).
    const url = await start({ store: new FailingSessionStore(faults), maxSessionsPerPrincipal: 2 });
    await open(url, "alice-token");
    faults.fail("reject", "sessions.create");
    const failed = await initialize(url, "alice-token");
    expect(failed.answer.status).toBe(503);
    faults.fail("throw", "sessions.create");
    expect((await initialize(url, "alice-token")).answer.status).toBe(503);
    faults.heal();
    expect(counted("alice")).toBe(1);
    await open(url, "alice-token");
    expectPrincipalFull((await initialize(url, "alice-token")).answer, 2);
  });

  it("an initialize refused because every session is live takes no place", async () => {
    const url = await start({ maxSessionsPerPrincipal: 3, maxSessions: 2, handshakeGraceMs: 0 });
    for (const token of ["alice-token", "bob-token"]) {
      const id = await open(url, token);
      const { response, sse } = await openGetStream(url, sessionHeaders(token, id));
      expect(response.status).toBe(200);
      streams.push(sse);
    }
    const full = await initialize(url, "alice-token");
    expect(full.answer.status).toBe(503);
    expect(single(full.answer).error!.data).toMatchObject({ limit: "sessions.maxSessions" });
    expect(counted("alice")).toBe(1);
  });

  it("alice fills her listen streams: the next gets -32603, bob still listens, and closing one frees her place", async () => {
    await start({}, { maxListensPerPrincipal: 2 });
    const url = server!.url;
    const listens = handler!.engine.services.listens;
    const alice = await connectModern(url, MODERN_MODES[0]!, {}, {}, "alice-token");
    const bob = await connectModern(url, MODERN_MODES[0]!, {}, {}, "bob-token");
    modern.push(alice, bob);
    const options = { timeout: CALL_TIMEOUT_MS };
    const held = [
      await alice.client.listen({ toolsListChanged: true }, options),
      await alice.client.listen({ toolsListChanged: true }, options),
    ];
    expect(listens.countOf("alice")).toBe(2);
    await expect(alice.client.listen({ toolsListChanged: true }, options)).rejects.toThrow(
      /already holds 2 listen streams \(maxListensPerPrincipal\)/,
    );
    const bobs = await bob.client.listen({ toolsListChanged: true }, options);
    expect(listens.countOf("bob")).toBe(1);
    await held[0]!.close();
    for (let i = 0; i < 200 && listens.countOf("alice") > 1; i++) await sleep(10);
    expect(listens.countOf("alice")).toBe(1);
    const again = await alice.client.listen({ toolsListChanged: true }, options);
    expect(listens.countOf("alice")).toBe(2);
    // Closing the handler ends every stream and forgets every count.
    await handler!.close();
    expect(await again.closed).toBe("graceful");
    expect(await bobs.closed).toBe("graceful");
    expect(listens.countOf("alice") + listens.countOf("bob")).toBe(0);
    expect(listens.streams.size).toBe(0);
  });

  it("the defaults are a tenth of the process caps, and a cap that is not a positive whole number is refused", async () => {
    await start({ maxSessions: 50 }, { maxListens: 30 });
    expect(handler!.engine.services.options.sessions).toMatchObject({ maxSessionsPerPrincipal: 5 });
    expect(handler!.engine.services.options.maxListensPerPrincipal).toBe(3);
    const base = { name: "bad", version: "1.0.0" };
    expect(() => defineMcpHandler({ ...base, sessions: { maxSessionsPerPrincipal: 0 } })).toThrow(RangeError);
    expect(() => defineMcpHandler({ ...base, maxListensPerPrincipal: 1.5 })).toThrow(/maxListensPerPrincipal/);
  });

  it("a store with only one of reservePrincipal and releasePrincipal is refused when the handler is made", () => {
    const base = { name: "bad", version: "1.0.0", auth: staticAuth() };
    for (const half of [{ reservePrincipal: async () => true }, { releasePrincipal: async () => {} }]) {
      const store = Object.assign(new MemorySessionStore(), half);
      expect(() => defineMcpHandler({ ...base, sessions: { store } })).toThrow(/reservePrincipal and releasePrincipal/);
    }
    const both = Object.assign(new MemorySessionStore(), {
      reservePrincipal: async () => true,
      releasePrincipal: async () => {},
    });
    expect(() => defineMcpHandler({ ...base, sessions: { store: both } })).not.toThrow();
  });
});
