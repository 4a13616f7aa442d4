/**
 * Hostile: sessions. Guessed session ids reach nothing; a flood of anonymous `initialize` requests
 * cannot push out a session in use (never-initialized sessions go first, live ones are never evicted);
 * a store full of live sessions answers 503 with `Retry-After`; a session's subscriptions are capped;
 * what a session keeps of its client's `initialize` is bounded; what a flood leaves behind is bounded
 * and released.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { HOSTS } from "../helpers/hosts.ts";
import {
  LEGACY,
  expectPing,
  expectRefused,
  expectStillServes,
  legacy,
  openGetStream,
  openSession,
  postLegacy,
  postText,
  startHostile,
  type HostileServer,
  type Session,
} from "../helpers/hostile.ts";
import { guardProcess } from "../helpers/process-guard.ts";
import { POST_HEADERS, send, single } from "../helpers/rpc.ts";
import { CLIENTS, answerHi } from "../helpers/clients.ts";
import type { MemoryEventStore, MemorySessionStore } from "../../src/index.ts";

guardProcess();

const SESSION_NOT_FOUND = -32001;

/** An `initialize` that never follows up with notifications/initialized. */
async function anonymousInitialize(url: string): Promise<number> {
  const init = legacy("initialize", {
    protocolVersion: LEGACY,
    capabilities: {},
    clientInfo: { name: "x", version: "1" },
  });
  const answer = await postText(url, JSON.stringify(init), POST_HEADERS);
  return answer.status;
}

function storeOf(server: HostileServer): MemorySessionStore {
  return server.handler.engine.services.sessions!.store as MemorySessionStore;
}

describe.each(HOSTS)("hostile sessions on %s", (host) => {
  let server: HostileServer;
  let victim: Session;

  beforeAll(async () => {
    server = await startHostile(host, { sessions: { maxSubscriptions: 5 }, maxUriLength: 256 });
    victim = await openSession(server.url);
    const subscribed = await postLegacy(server.url, victim, legacy("resources/subscribe", { uri: "docs://readme" }));
    expect(subscribed.status).toBe(200);
  });

  afterAll(async () => {
    await server.close();
  });

  async function expectVictimIntact(): Promise<void> {
    await expectPing(server.url, victim);
    expect(await storeOf(server).isSubscribed(victim.id, "docs://readme")).toBe(true);
  }

  it("guessed session ids get 404 on POST, GET and DELETE and reach nobody's session", async () => {
    const guesses = [
      crypto.randomUUID(),
      victim.id.slice(0, -1) + (victim.id.endsWith("0") ? "1" : "0"),
      victim.id.toUpperCase() === victim.id ? victim.id.toLowerCase() : victim.id.toUpperCase(),
      `${victim.id}x`,
      victim.id.slice(0, 8),
      "1",
      "../" + victim.id,
      "__proto__",
      "constructor",
      "x".repeat(8000),
    ];
    const sessions = storeOf(server).size;
    for (const guess of guesses) {
      const headers = { "mcp-session-id": guess, "mcp-protocol-version": LEGACY };
      const post = await postLegacy(server.url, undefined, legacy("ping"), headers);
      expectRefused(post, 404, SESSION_NOT_FOUND);
      // A client value is quoted short, if at all.
      expect(post.text.length).toBeLessThan(1000);
      expectRefused(await send(server.url, "GET", { ...headers, accept: "text/event-stream" }), 404, SESSION_NOT_FOUND);
      expectRefused(await send(server.url, "DELETE", headers), 404, SESSION_NOT_FOUND);
    }
    expect(storeOf(server).size).toBe(sessions);
    await expectVictimIntact();
    // Under the bound, however odd the content, is kept as sent.
    const underCapabilities = { experimental: { padding: { blob: "é".repeat(30_000) } } };
    const under = legacy("initialize", {
      protocolVersion: LEGACY,
      capabilities: underCapabilities,
      clientInfo: { name: "x", version: "1" },
    });
    const accepted = await postText(server.url, JSON.stringify(under), POST_HEADERS);
    expect(accepted.status, accepted.text.slice(0, 300)).toBe(200);
    const kept = await storeOf(server).peek(accepted.headers.get("mcp-session-id")!);
    expect(kept?.clientCapabilities).toEqual(underCapabilities);
  });

  it("a burst of anonymous initializes does not evict a session with an open GET stream, nor an initialized one", async () => {
    const small = await startHostile(host, {
      sessions: { maxSessions: 6, maxPendingSessions: 3, handshakeGraceMs: 0 },
    });
    try {
      const streaming = await openSession(small.url);
      const stream = await openGetStream(small.url, streaming);
      expect(stream.response.status).toBe(200);
      const idle = await openSession(small.url);
      const statuses = await Promise.all(Array.from({ length: 60 }, () => anonymousInitialize(small.url)));
      // Pending sessions make room for each other: every initialize is answered, none with a 5xx.
      expect(statuses.filter((status) => status !== 200)).toEqual([]);
      expect(storeOf(small).size).toBeLessThanOrEqual(6);
      await expectPing(small.url, streaming);
      await expectPing(small.url, idle);
      // The GET stream is still the session's: a second one is a conflict.
      const second = await send(small.url, "GET", {
        "mcp-session-id": streaming.id,
        "mcp-protocol-version": LEGACY,
        accept: "text/event-stream",
      });
      expect(second.status).toBe(409);
      stream.close();
    } finally {
      await small.close();
    }
  });

  it("sessions full of live sessions: initialize gets 503 with Retry-After, and nobody is evicted", async () => {
    const full = await startHostile(host, { sessions: { maxSessions: 3, handshakeGraceMs: 0 } });
    try {
      const sessions = [await openSession(full.url), await openSession(full.url), await openSession(full.url)];
      const streams = await Promise.all(sessions.map((session) => openGetStream(full.url, session)));
      const init = legacy("initialize", {
        protocolVersion: LEGACY,
        capabilities: {},
        clientInfo: { name: "x", version: "1" },
      });
      const answer = await postText(full.url, JSON.stringify(init), POST_HEADERS);
      const error = expectRefused(answer, 503, -32603, /sessions\.maxSessions/);
      expect(error.message).toContain("3");
      expect(answer.headers.get("retry-after")).toMatch(/^\d+$/);
      expect(answer.headers.get("mcp-session-id")).toBeNull();
      for (const session of sessions) await expectPing(full.url, session);
      // A stream closes: its session is idle again, and room can be made.
      streams[0]!.close();
      let status = 0;
      for (let i = 0; i < 50 && status !== 200; i++) {
        await new Promise((resolve) => setTimeout(resolve, 20));
        status = (await postText(full.url, JSON.stringify(init), POST_HEADERS)).status;
      }
      expect(status).toBe(200);
      for (const session of sessions.slice(1)) await expectPing(full.url, session);
      for (const stream of streams) stream.close();
    } finally {
      await full.close();
    }
  });

  it("a flood of 400 sessions leaves at most maxSessions, and nothing of the evicted ones", async () => {
    const bounded = await startHostile(host, {
      sessions: { maxSessions: 20, maxPendingSessions: 10, handshakeGraceMs: 0 },
    });
    try {
      const keeper = await openSession(bounded.url);
      for (let batch = 0; batch < 20; batch++) {
        const statuses = await Promise.all(Array.from({ length: 20 }, () => anonymousInitialize(bounded.url)));
        expect(statuses.every((status) => status === 200)).toBe(true);
        await expectPing(bounded.url, keeper);
      }
      const services = bounded.handler.engine.services;
      expect(storeOf(bounded).size).toBeLessThanOrEqual(20);
      expect(services.sessions!.live.size).toBeLessThanOrEqual(1);
      expect((services.sessions!.events as MemoryEventStore).sessionCount).toBeLessThanOrEqual(20);
      await expectStillServes(bounded.url, bounded);
    } finally {
      await bounded.close();
    }
  });

  it("an initialize whose clientInfo and capabilities pass 64 KiB as JSON gets -32602 naming the limit; no session is made", async () => {
    const sessions = storeOf(server).size;
    const experimental = (bytes: number) => ({ padding: { blob: "x".repeat(bytes) } });
    // Just over the bound (the rest of the JSON takes the last bytes), far over it, and many small keys.
    const hugeCapabilities = [
      { experimental: experimental(64 * 1024) },
      { experimental: experimental(3 << 20) },
      { experimental: Object.fromEntries(Array.from({ length: 20_000 }, (_, i) => [`k${i}`, {}])) },
    ];
    for (const capabilities of hugeCapabilities) {
      const init = legacy("initialize", {
        protocolVersion: LEGACY,
        capabilities,
        clientInfo: { name: "x", version: "1" },
      });
      const answer = await postText(server.url, JSON.stringify(init), POST_HEADERS);
      const error = expectRefused(answer, 400, -32602, /clientInfo.*capabilities.*64 KiB/);
      expect(error.data).toEqual({ limit: "initialize.clientInfo+capabilities", max: 65_536 });
      expect(answer.text.length).toBeLessThan(1000);
      expect(answer.headers.get("mcp-session-id")).toBeNull();
    }
    // clientInfo counts too.
    const bigInfo = legacy("initialize", {
      protocolVersion: LEGACY,
      capabilities: {},
      clientInfo: { name: "x", version: "1", description: "d".repeat(70_000) },
    });
    expectRefused(await postText(server.url, JSON.stringify(bigInfo), POST_HEADERS), 400, -32602, /64 KiB/);
    expect(storeOf(server).size).toBe(sessions);
    await expectVictimIntact();
  });

  it.each(CLIENTS.map((client) => [client.name, client]))(
    "the %s client, declaring elicitation and sampling, keeps well under the initialize bound and connects",
    async (_, factory) => {
      const client = await factory.connect(server.url, {
        onElicit: () => ({ action: "decline" }),
        onSample: answerHi([]),
        onLog: () => {},
      });
      try {
        expect((await client.listTools()).tools.length).toBeGreaterThan(0);
        const session = await storeOf(server).peek(client.sessionId!);
        const kept = JSON.stringify([session!.clientInfo, session!.clientCapabilities]);
        expect(new TextEncoder().encode(kept).length).toBeLessThan(2048);
      } finally {
        await client.close();
      }
    },
  );

  it("resources/subscribe past sessions.maxSubscriptions gets -32602 naming the option; others are untouched", async () => {
    const session = await openSession(server.url);
    for (let i = 0; i < 5; i++) {
      const answer = await postLegacy(server.url, session, legacy("resources/subscribe", { uri: `items://${i}` }));
      expect(single(answer).result, answer.text).toEqual({});
    }
    // Subscribing again to a URI it holds takes no room.
    expect(
      single(await postLegacy(server.url, session, legacy("resources/subscribe", { uri: "items://0" }))).result,
    ).toEqual({});
    const over = await postLegacy(server.url, session, legacy("resources/subscribe", { uri: "items://5" }));
    const error = expectRefused(over, 200, -32602, /sessions\.maxSubscriptions/);
    expect(error.data).toEqual({ limit: "sessions.maxSubscriptions", max: 5 });
    const held = await Promise.all(
      Array.from({ length: 6 }, (_, i) => storeOf(server).isSubscribed(session.id, `items://${i}`)),
    );
    expect(held).toEqual([true, true, true, true, true, false]);
    // Unsubscribing frees room.
    await postLegacy(server.url, session, legacy("resources/unsubscribe", { uri: "items://0" }));
    expect(
      single(await postLegacy(server.url, session, legacy("resources/subscribe", { uri: "items://5" }))).result,
    ).toEqual({});
    await expectVictimIntact();
  });

  it("a flood of 500 subscribe requests for distinct URIs keeps the session at its cap", async () => {
    const session = await openSession(server.url);
    for (let batch = 0; batch < 5; batch++) {
      await Promise.all(
        Array.from({ length: 100 }, (_, i) =>
          postLegacy(server.url, session, legacy("resources/subscribe", { uri: `items://flood-${batch}-${i}` })),
        ),
      );
    }
    const held = await Promise.all(
      Array.from({ length: 500 }, (_, i) =>
        storeOf(server).isSubscribed(session.id, `items://flood-${Math.floor(i / 100)}-${i % 100}`),
      ),
    );
    expect(held.filter(Boolean)).toHaveLength(5);
    await expectPing(server.url, session);
    await expectVictimIntact();
  });

  it("a URI longer than maxUriLength gets -32602 naming the option in subscribe, read and completion", async () => {
    const session = await openSession(server.url);
    const uri = `items://${"a".repeat(300)}`;
    for (const message of [
      legacy("resources/subscribe", { uri }),
      legacy("resources/read", { uri }),
      legacy("completion/complete", { ref: { type: "ref/resource", uri }, argument: { name: "id", value: "a" } }),
    ]) {
      const answer = await postLegacy(server.url, session, message);
      const error = expectRefused(answer, 200, -32602, /maxUriLength/);
      expect(error.data).toEqual({ limit: "maxUriLength", max: 256 });
      expect(answer.text.length).toBeLessThan(1000);
    }
    expect(await storeOf(server).isSubscribed(session.id, uri)).toBe(false);
    await expectVictimIntact();
  });

  it("another session can neither answer nor cancel a session's pending server→client request", async () => {
    const owner = await openSession(server.url);
    const intruder = await openSession(server.url);
    const call = legacy("tools/call", { name: "ask", arguments: {} });
    const response = await fetch(server.url, {
      method: "POST",
      headers: { ...POST_HEADERS, ...owner.headers },
      body: JSON.stringify(call),
      signal: AbortSignal.timeout(5000),
    });
    expect(response.headers.get("content-type")).toContain("text/event-stream");
    const reader = response.body!.getReader();
    const decoder = new TextDecoder();
    let text = "";
    let asked: { id: string } | undefined;
    while (!asked) {
      const { done, value } = await reader.read();
      if (done) break;
      text += decoder.decode(value, { stream: true });
      const data = /data: (\{.*"method":"elicitation\/create".*\})/.exec(text);
      if (data) asked = JSON.parse(data[1]!) as { id: string };
    }
    expect(asked).toBeDefined();
    const forged = { jsonrpc: "2.0", id: asked!.id, result: { action: "accept", content: { name: "Mallory" } } };
    expect((await postLegacy(server.url, intruder, forged)).status).toBe(400);
    const cancel = { jsonrpc: "2.0", method: "notifications/cancelled", params: { requestId: call.id, reason: "x" } };
    expect((await postLegacy(server.url, intruder, cancel)).status).toBe(202);
    // The owner's answer is still awaited, and completes the call.
    const answer = { jsonrpc: "2.0", id: asked!.id, result: { action: "accept", content: { name: "Owner" } } };
    expect((await postLegacy(server.url, owner, answer)).status).toBe(202);
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      text += decoder.decode(value, { stream: true });
    }
    expect(text).toContain("Hello Owner");
    expect(text).not.toContain("Mallory");
    expect(server.effects).toContain("ask:done:Owner");
    await expectPing(server.url, intruder);
  });
});
