/**
 * The session bus protocol on its own, over a MemoryBus: what the parser accepts and refuses, what
 * an instance does with each message (only within the session it names, never for its own), and
 * how a GET stream's channel writes events other instances kept in its log: in the log's order,
 * each once.
 */
import { describe, expect, it } from "vitest";
import { CatalogSource } from "../../src/define/catalog.ts";
import { Incidents } from "../../src/http/incidents.ts";
import type { Reply } from "../../src/http/reply.ts";
import { LegacySessions } from "../../src/legacy/state/sessions.ts";
import { SESSION_CHANNEL, sessionBusMessage } from "../../src/legacy/bus/session-bus.ts";
import { parseSessionBusMessage } from "../../src/legacy/bus/session-bus-parse.ts";
import { SharedSessionRouting } from "../../src/legacy/bus/shared-sessions.ts";
import { ResponseChannel } from "../../src/stream/channel.ts";
import { MemoryBus } from "../../src/stores/memory/bus.ts";
import { MemoryEventStore } from "../../src/stores/memory/events.ts";
import { MemorySessionStore } from "../../src/stores/memory/sessions.ts";
import type { SessionData } from "../../src/types/stores.ts";
import { parseSse } from "../helpers/sse.ts";

const note = (text: string) => ({ jsonrpc: "2.0" as const, method: "notifications/message", params: { data: text } });

describe("parseSessionBusMessage", () => {
  it("accepts each kind the builders make", () => {
    const made = [
      sessionBusMessage.event("i1", "s1", "i2", "get/3", note("x")),
      sessionBusMessage.released("i1", "s1"),
      sessionBusMessage.response(
        "i1",
        "s1",
        { jsonrpc: "2.0", id: "srv-0a1b2c3d-1", result: { action: "decline" } },
        undefined,
      ),
      sessionBusMessage.response(
        "i1",
        "s1",
        { jsonrpc: "2.0", id: 7, error: { code: -1, message: "no" } },
        {
          principal: "alice",
          scopes: ["read", "deploy"],
        },
      ),
      sessionBusMessage.cancel("i1", "s1", 12, "because"),
      sessionBusMessage.cancel("i1", "s1", "r-1", undefined),
      sessionBusMessage.ended("i1", "s1"),
      sessionBusMessage.streamEvent("i1", "s1", "i2", { streamId: "ab.1", claim: "4" }, "ab.1/3", note("x")),
      sessionBusMessage.streamEvent("i1", "s1", "i2", { streamId: "ab.1", claim: "4" }, "ab.1/4", {
        jsonrpc: "2.0",
        id: "srv-0a1b2c3d-1",
        method: "elicitation/create",
        params: {},
      }),
      sessionBusMessage.streamEvent("i1", "s1", "i2", { streamId: "ab.1", claim: "4" }, "ab.1/5", {
        jsonrpc: "2.0",
        id: 9,
        result: { content: [] },
      }),
      sessionBusMessage.claim("i2", "s1", "ab.1", "4"),
      sessionBusMessage.unclaim("i2", "s1", "ab.1", "4"),
      sessionBusMessage.handover("i1", "s1", "i2", { streamId: "ab.1", claim: "4" }, true),
      sessionBusMessage.handover("i1", "s1", "i2", { streamId: "ab.1", claim: "4" }, false),
    ];
    for (const message of made) expect(parseSessionBusMessage(JSON.parse(JSON.stringify(message)))).toEqual(message);
  });

  it("refuses anything else, and bounds what it carries", () => {
    const long = "x".repeat(513);
    const refused: unknown[] = [
      null,
      "ended",
      [],
      { kind: "ended", sessionId: "s1" },
      { kind: "ended", from: "i1" },
      { kind: "ended", sessionId: "", from: "i1" },
      { kind: "ended", sessionId: long, from: "i1" },
      { kind: "ended", sessionId: 5, from: "i1" },
      { kind: "nope", sessionId: "s1", from: "i1" },
      { kind: "event", sessionId: "s1", from: "i1", to: "i2", eventId: "get/1", message: { method: "m" } },
      { kind: "event", sessionId: "s1", from: "i1", to: "i2", eventId: "get/1", message: { ...note("x"), id: 1 } },
      { kind: "event", sessionId: "s1", from: "i1", eventId: "get/1", message: note("x") },
      { kind: "released", sessionId: "s1", from: "i1" },
      { kind: "response", sessionId: "s1", from: "i1", response: { jsonrpc: "2.0", id: 1 } },
      { kind: "response", sessionId: "s1", from: "i1", response: { jsonrpc: "2.0", id: 1, result: {}, error: {} } },
      { kind: "response", sessionId: "s1", from: "i1", response: { jsonrpc: "2.0", id: {}, result: {} } },
      { kind: "response", sessionId: "s1", from: "i1", response: { jsonrpc: "2.0", id: 1, error: { code: "x" } } },
      { kind: "cancel", sessionId: "s1", from: "i1" },
      { kind: "cancel", sessionId: "s1", from: "i1", requestId: Number.NaN },
      { kind: "cancel", sessionId: "s1", from: "i1", requestId: 1, reason: "r".repeat(1025) },
      // The GET stream carries notifications only, and no claim; a POST stream's event needs its claim.
      {
        kind: "event",
        sessionId: "s1",
        from: "i1",
        to: "i2",
        eventId: "get/1",
        message: { jsonrpc: "2.0", id: 1, result: {} },
      },
      { kind: "event", sessionId: "s1", from: "i1", to: "i2", eventId: "get/1", message: note("x"), claim: "1" },
      { kind: "event", sessionId: "s1", from: "i1", to: "i2", eventId: "a.1/1", message: note("x"), streamId: "a.1" },
      {
        kind: "event",
        sessionId: "s1",
        from: "i1",
        to: "i2",
        eventId: "a.1/1",
        message: note("x"),
        streamId: long,
        claim: "1",
      },
      {
        kind: "event",
        sessionId: "s1",
        from: "i1",
        to: "i2",
        eventId: "a.1/1",
        message: { jsonrpc: "2.0", id: 1 },
        streamId: "a.1",
        claim: "1",
      },
      { kind: "claim", sessionId: "s1", from: "i1", streamId: "a.1" },
      { kind: "claim", sessionId: "s1", from: "i1", claim: "1" },
      { kind: "unclaim", sessionId: "s1", from: "i1", streamId: "a.1", claim: 1 },
      { kind: "handover", sessionId: "s1", from: "i1", streamId: "a.1", claim: "1", open: true },
      { kind: "handover", sessionId: "s1", from: "i1", to: "i2", streamId: "a.1", claim: "1", open: "yes" },
      { kind: "handover", sessionId: "s1", from: "i1", to: "i2", streamId: "a.1", claim: long, open: false },
    ];
    for (const value of refused) expect(parseSessionBusMessage(value), JSON.stringify(value)).toBeUndefined();
  });
});

function sessionsOn(bus: MemoryBus, events = new MemoryEventStore()): LegacySessions {
  return new LegacySessions(new MemorySessionStore(), events, {
    retryMs: 1000,
    replayWindowMs: 60_000,
    maxStreamsPerSession: 8,
    maxSessionsPerPrincipal: 100,
    maxSessions: 1000,
    incidents: new Incidents(undefined),
    catalogs: new CatalogSource({}),
    routing: (sessions) => new SharedSessionRouting(sessions, bus),
  });
}

describe("SessionRouter over a MemoryBus", () => {
  it("answers a waiting request only in the session the message names, and ignores its own messages", async () => {
    const bus = new MemoryBus();
    const here = sessionsOn(bus);
    await here.routing!.start();
    const answers: unknown[] = [];
    const pending = (into: string) => ({
      asker: undefined,
      resolve: (value: unknown) => answers.push([into, value]),
      reject: () => {},
    });
    here.live.ensure("s1").pending.set("srv-aaaaaaaa-1", pending("s1"));
    here.live.ensure("s2").pending.set("srv-aaaaaaaa-2", pending("s2"));
    const response = (id: string) => ({ jsonrpc: "2.0" as const, id, result: { action: "accept" } });

    // Another session's id: nothing happens; the right one: answered; the same message sent by this instance: ignored.
    await bus.publish(
      SESSION_CHANNEL,
      sessionBusMessage.response("other", "s1", response("srv-aaaaaaaa-2"), undefined),
    );
    expect(answers).toEqual([]);
    await bus.publish(
      SESSION_CHANNEL,
      sessionBusMessage.response(here.instance, "s2", response("srv-aaaaaaaa-2"), undefined),
    );
    expect(answers).toEqual([]);
    await bus.publish(
      SESSION_CHANNEL,
      sessionBusMessage.response("other", "s2", response("srv-aaaaaaaa-2"), undefined),
    );
    expect(answers).toEqual([["s2", { action: "accept" }]]);
    // Malformed: ignored, no throw.
    await bus.publish(SESSION_CHANNEL, { kind: "response", sessionId: "s1", from: "other", response: "x" });
    expect(here.live.get("s1")?.pending.size).toBe(1);

    // Ended by another instance: everything of the session here goes, the other session stays.
    const rejected: unknown[] = [];
    here.live.ensure("s1").pending.set("srv-aaaaaaaa-1", {
      asker: undefined,
      resolve: () => {},
      reject: (e) => rejected.push(e),
    });
    await bus.publish(SESSION_CHANNEL, sessionBusMessage.ended("other", "s1"));
    expect(here.live.get("s1")).toBeUndefined();
    expect(rejected).toHaveLength(1);
    here.close();
  });
});

describe("SessionRouter: who may answer", () => {
  it("hands an answer over only from the principal asked, holding every scope it held", async () => {
    const bus = new MemoryBus();
    const here = sessionsOn(bus);
    await here.routing!.start();
    const answers: unknown[] = [];
    const id = "srv-aaaaaaaa-1";
    here.live.ensure("s1").pending.set(id, {
      asker: { principal: "alice", scopes: ["read", "deploy"] },
      resolve: (value) => answers.push(value),
      reject: () => {},
    });
    const answer = (answerer: { principal: string; scopes: string[] } | undefined, action: string) =>
      bus.publish(
        SESSION_CHANNEL,
        sessionBusMessage.response("other", "s1", { jsonrpc: "2.0", id, result: { action } }, answerer),
      );
    await answer(undefined, "none");
    await answer({ principal: "alice", scopes: ["read"] }, "weaker");
    await answer({ principal: "bob", scopes: ["read", "deploy"] }, "stranger");
    await bus.publish(SESSION_CHANNEL, {
      ...sessionBusMessage.response("other", "s1", { jsonrpc: "2.0", id, result: { action: "junk" } }, undefined),
      answerer: { principal: "alice", scopes: "read deploy" },
    });
    expect(answers).toEqual([]);
    expect(here.live.get("s1")?.pending.has(id)).toBe(true);
    await answer({ principal: "alice", scopes: ["deploy", "read", "admin"] }, "accept");
    expect(answers).toEqual([{ action: "accept" }]);
    here.close();
  });
});

describe("SessionRouter and the GET stream it holds", () => {
  it("writes an event told to this instance only, and lets the stream go when another instance takes it", async () => {
    const bus = new MemoryBus();
    const events = new MemoryEventStore();
    const here = sessionsOn(bus, events);
    await here.routing!.start();
    const channel = getChannel(here);
    await channel.open();
    here.live.ensure("s1").getStream = channel;
    const kept1 = await events.append("s1", "get", note("for another instance"));
    await bus.publish(SESSION_CHANNEL, sessionBusMessage.event("other", "s1", "someone-else", kept1, note("x")));
    const kept2 = await events.append("s1", "get", note("for here"));
    await bus.publish(SESSION_CHANNEL, sessionBusMessage.event("other", "s1", here.instance, kept2, note("for here")));
    // Another session's stream is never written: the message names s2.
    await bus.publish(SESSION_CHANNEL, sessionBusMessage.event("other", "s2", here.instance, "get/9", note("no")));
    await bus.publish(SESSION_CHANNEL, sessionBusMessage.released("other", "s1"));
    expect(here.live.get("s1")).toBeUndefined();
    const written = await readEvents(channel.reply, channel);
    // The event kept before the one told here is read from the log: the client sees the log's order.
    expect(written.slice(1).map((event) => JSON.parse(event.data).params.data)).toEqual([
      "for another instance",
      "for here",
    ]);
    here.close();
  });
});

function getChannel(sessions: LegacySessions): ResponseChannel {
  const session: SessionData = {
    id: "s1",
    protocolVersion: "2025-11-25",
    clientCapabilities: {},

    initialized: true,
    createdAt: 0,
  };
  return new ResponseChannel({
    inbound: { disconnect: new AbortController().signal },
    keepAliveMs: 0,
    canStream: true,
    headers: {},
    log: sessions.getStreamLog(session),
  });
}

async function readEvents(reply: Reply | Promise<Reply>, channel: ResponseChannel) {
  await channel.finish(undefined);
  const body = (await reply).body as ReadableStream<Uint8Array>;
  return parseSse(await new Response(body).text());
}

describe("a GET stream's channel with a log other instances append to", () => {
  it("writes every kept event once, in the log's order, whatever order they reach it in", async () => {
    const bus = new MemoryBus();
    const events = new MemoryEventStore();
    const sessions = sessionsOn(bus, events);
    const channel = getChannel(sessions);
    await channel.open(); // get/1: the priming event
    await channel.send(note("a")); // get/2
    // Another instance keeps two events; this one then sends its own before their messages arrive.
    const kept1 = await events.append("s1", "get", note("b"));
    const kept2 = await events.append("s1", "get", note("c"));
    await channel.send(note("d")); // get/5: b and c are read from the log and written first
    await channel.sendKept({ id: kept2, message: note("c") }); // arrives late: written already
    await channel.sendKept({ id: kept1, message: note("b") });
    const kept3 = await events.append("s1", "get", note("e"));
    await channel.sendKept({ id: kept3, message: note("e") });
    const written = await readEvents(channel.reply, channel);
    expect(written.map((event) => event.id)).toEqual(["get/1", "get/2", "get/3", "get/4", "get/5", "get/6"]);
    expect(written.slice(1).map((event) => JSON.parse(event.data).params.data)).toEqual(["a", "b", "c", "d", "e"]);
    sessions.close();
  });
});
