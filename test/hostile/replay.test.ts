/**
 * Hostile: the event log behind `Last-Event-ID`. Guessed event ids replay nothing; a finished
 * stream's events go after the replay window, the oldest streams past `sessions.maxStreamsPerSession`,
 * trimmed events past the store's cap — and a resume that needs what is gone gets 400 `-32000`
 * "no longer available", never a partial replay. Ending sessions releases their logs.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { MemoryEventStore } from "../../src/index.ts";
import { HOSTS } from "../helpers/hosts.ts";
import {
  LEGACY,
  expectPing,
  expectRefused,
  legacy,
  openGetStream,
  openSession,
  postLegacy,
  startHostile,
  type HostileServer,
  type Session,
} from "../helpers/hostile.ts";
import { guardProcess } from "../helpers/process-guard.ts";
import { send, type Answer } from "../helpers/rpc.ts";
import { sleep } from "../helpers/wait.ts";

guardProcess();

/** A call that streams (progress, a log line, progress, the result), each event with an id. */
async function streamedCall(url: string, session: Session): Promise<{ ids: string[]; answer: Answer }> {
  const call = legacy("tools/call", { name: "chatty", arguments: {}, _meta: { progressToken: "p" } });
  const answer = await postLegacy(url, session, call);
  expect(answer.status, answer.text).toBe(200);
  expect(answer.headers.get("content-type")).toContain("text/event-stream");
  const ids = answer.events.map((event) => event.id).filter((id): id is string => id !== undefined);
  expect(ids.length).toBeGreaterThanOrEqual(4);
  return { ids, answer };
}

function resume(url: string, session: Session, lastEventId: string): Promise<Answer> {
  return send(url, "GET", {
    "mcp-session-id": session.id,
    "mcp-protocol-version": LEGACY,
    accept: "text/event-stream",
    "last-event-id": lastEventId,
  });
}

function expectGone(answer: Answer): void {
  expectRefused(answer, 400, -32000, /no longer available/);
  expect(answer.text).not.toContain("chatted");
  expect(answer.text).not.toContain("notifications/progress");
}

describe.each(HOSTS)("hostile resumption on %s", (host) => {
  let server: HostileServer;
  let victim: Session;
  let victimIds: string[];

  beforeAll(async () => {
    server = await startHostile(host);
    victim = await openSession(server.url);
    victimIds = (await streamedCall(server.url, victim)).ids;
  });

  afterAll(async () => {
    await server.close();
  });

  it("guessed event ids replay nothing and leave the owner's log intact", async () => {
    const intruder = await openSession(server.url);
    const [first] = victimIds;
    const stream = first!.slice(0, first!.lastIndexOf("/"));
    const guesses = [
      first!,
      `${stream}/0`,
      `${stream}/-1`,
      `${stream}/1e400`,
      `${stream}/99999999999999999999`,
      `get/1`,
      "../" + first,
      `${victim.id}/${first}`,
      "/",
      "x".repeat(8000),
    ];
    for (const guess of guesses) {
      const answer = await resume(server.url, intruder, guess);
      expect(answer.status, guess).toBe(400);
      expect(answer.text).not.toContain("chatted");
      expect(answer.text.length).toBeLessThan(1000);
    }
    // The owner still resumes from its first id.
    const replay = await resume(server.url, victim, first!);
    expect(replay.status, replay.text).toBe(200);
    expect(replay.text).toContain("chatted");
    await expectPing(server.url, intruder);
  });

  it("every streamed POST's events go after the replay window; a resume gets 400 'no longer available'", async () => {
    // A window wide enough for two calls and a resume on a loaded CI machine (150 ms was not).
    const windowed = await startHostile(host, { sessions: { replayWindowMs: 1_000 } });
    try {
      const session = await openSession(windowed.url);
      const calls = [await streamedCall(windowed.url, session), await streamedCall(windowed.url, session)];
      // Within the window: replayed (the control).
      const early = await resume(windowed.url, session, calls[0]!.ids[0]!);
      expect(early.status, early.text).toBe(200);
      expect(early.text).toContain("chatted");
      await sleep(1_300);
      for (const call of calls) expectGone(await resume(windowed.url, session, call.ids[0]!));
      await expectPing(windowed.url, session);
    } finally {
      await windowed.close();
    }
  });

  it("streams past sessions.maxStreamsPerSession: the oldest is forgotten, the newest replays", async () => {
    const capped = await startHostile(host, { sessions: { maxStreamsPerSession: 2 } });
    try {
      const session = await openSession(capped.url);
      const calls = [];
      for (let i = 0; i < 4; i++) calls.push(await streamedCall(capped.url, session));
      expectGone(await resume(capped.url, session, calls[0]!.ids[0]!));
      const newest = await resume(capped.url, session, calls[3]!.ids[0]!);
      expect(newest.status, newest.text).toBe(200);
      expect(newest.text).toContain("chatted");
    } finally {
      await capped.close();
    }
  });

  it("a resume from an event the store trimmed gets 400 'no longer available', not a partial replay", async () => {
    const trimmed = await startHostile(host, { events: new MemoryEventStore({ maxEventsPerStream: 2 }) });
    try {
      const session = await openSession(trimmed.url);
      const { ids } = await streamedCall(trimmed.url, session);
      expectGone(await resume(trimmed.url, session, ids[0]!));
      // From the last-but-one id, what follows is all there.
      const tail = await resume(trimmed.url, session, ids.at(-2)!);
      expect(tail.status, tail.text).toBe(200);
      expect(tail.text).toContain("chatted");
    } finally {
      await trimmed.close();
    }
  });

  it("a session with a GET stream and many streamed calls, then DELETE: nothing of it stays", async () => {
    const session = await openSession(server.url);
    const stream = await openGetStream(server.url, session);
    for (let i = 0; i < 5; i++) await streamedCall(server.url, session);
    const services = server.handler.engine.services;
    const deleted = await send(server.url, "DELETE", { "mcp-session-id": session.id, "mcp-protocol-version": LEGACY });
    expect(deleted.status).toBeLessThan(300);
    stream.close();
    await sleep(50);
    expect(services.sessions!.live.get(session.id)).toBeUndefined();
    expectRefused(await resume(server.url, session, victimIds[0]!), 404, -32001);
    await expectPing(server.url, victim);
  });
});
