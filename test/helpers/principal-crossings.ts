/**
 * Every way one principal can present another's legacy session, over raw HTTP with bearer tokens:
 * alice fills her session's GET stream and a POST stream with events naming her secret and keeps
 * their real event ids; bob then sends her session id (and those ids) in every request a client
 * can make — POST request, notification, response, subscribe and setLevel, GET open, GET resume of
 * either stream, DELETE, `notifySession` — through any of the given instances. Alice's own resumptions
 * with the same ids are the control: they replay, so the ids bob was refused with are live.
 */
import { expect } from "vitest";
import type { SessionData } from "../../src/index.ts";
import { bearer } from "./auth.ts";
import { NOTES_URI } from "./crossing-definitions.ts";
import { liveSse, openGetStreamWhenFree, type LiveSse } from "./live-sse.ts";
import { POST_HEADERS, post, single, toAnswer, type Answer } from "./rpc.ts";
import { parseSse } from "./sse.ts";

export const LEGACY = "2025-11-25";
export { NOTES_URI, crossingResources, crossingTools } from "./crossing-definitions.ts";
/** A session id no store issued: what every crossing must be answered like. */
const UNKNOWN_SESSION = "00000000-0000-0000-0000-000000000000";

/** A session opened with a token: its id and the headers every later request carries. */
export interface TokenSession {
  id: string;
  token: string;
  headers: Record<string, string>;
}

function sessionHeaders(token: string, sessionId: string): Record<string, string> {
  return { ...bearer(token), "mcp-session-id": sessionId, "mcp-protocol-version": LEGACY };
}

/** `initialize` and `notifications/initialized` on `url` with `token`. */
export async function openAs(url: string, token: string): Promise<TokenSession> {
  const params = { protocolVersion: LEGACY, capabilities: {}, clientInfo: { name: "raw", version: "1" } };
  const opened = await post(url, { jsonrpc: "2.0", id: 1, method: "initialize", params }, bearer(token));
  expect(opened.status, opened.text).toBe(200);
  const id = opened.headers.get("mcp-session-id")!;
  const headers = sessionHeaders(token, id);
  const initialized = await post(url, { jsonrpc: "2.0", method: "notifications/initialized" }, headers);
  expect(initialized.status, initialized.text).toBe(202);
  return { id, token, headers };
}

let nextId = 1000;
function call(name: string, args: Record<string, unknown> = {}): Record<string, unknown> {
  return { jsonrpc: "2.0", id: nextId++, method: "tools/call", params: { name, arguments: args } };
}

/** Calls `tell` as `from`, to the GET stream of `target`; "true" when delivered. */
export async function tell(url: string, from: TokenSession, target: string, text: string): Promise<string> {
  const answer = await post(url, call("tell", { sessionId: target, text }), from.headers);
  const result = single(answer).result as { content: { text: string }[] } | undefined;
  expect(result, answer.text).toBeDefined();
  return result!.content[0]!.text;
}

/** Opens alice's GET stream (no message) or a POST of `message` answered with a stream. */
async function openStream(url: string, headers: Record<string, string>, message?: unknown): Promise<LiveSse> {
  const abort = new AbortController();
  const response =
    message === undefined
      ? await fetch(url, { method: "GET", headers: { accept: "text/event-stream", ...headers }, signal: abort.signal })
      : await fetch(url, {
          method: "POST",
          headers: { ...POST_HEADERS, ...headers },
          body: JSON.stringify(message),
          signal: abort.signal,
        });
  expect(response.status).toBe(200);
  expect(response.headers.get("content-type")).toContain("text/event-stream");
  return liveSse(response, abort);
}

/** Alice's session and the real ids of events it holds, each followed by an event naming her secret. */
export interface OwnedEvents {
  session: TokenSession;
  /** Ids on her GET stream, each with a later "get-secret-…" event. */
  getIds: string[];
  /** Ids on a finished POST stream of hers, each with a later event naming her secret. */
  postIds: string[];
}

/**
 * Alice opens her GET stream on `url`, has two messages told to it, calls `secret` on a POST
 * stream, and closes her GET stream: every event id she saw is kept (the ids a client resumes with).
 */
export async function fillAliceStreams(url: string, alice: TokenSession, tellUrl = url): Promise<OwnedEvents> {
  const get = await openStream(url, alice.headers);
  const getIds: string[] = [];
  for (const text of ["get-secret-1", "get-secret-2"]) {
    expect(await tell(tellUrl, alice, alice.id, text)).toBe("true");
    const event = await get.next(new RegExp(text));
    getIds.push(event.id!);
  }
  const secret = { ...call("secret"), params: { name: "secret", arguments: {}, _meta: { progressToken: "p" } } };
  const postStream = await openStream(url, alice.headers, secret);
  const progress = await postStream.next(/progress-secret-of-alice/);
  await postStream.next(/result-secret-of-alice/);
  expect(await postStream.endedWithin(3000)).toBe(true);
  get.close();
  // The first GET id is followed by get-secret-2; the progress id by the result.
  return { session: alice, getIds: getIds.slice(0, 1), postIds: [progress.id!] };
}

/**
 * One crossing request. A stream answer (a crossing that got through) is read until alice's secret
 * shows or a hang guard passes, then dropped: a GET stream would never end by itself.
 */
async function cross(url: string, method: string, headers: Record<string, string>, message?: unknown): Promise<Answer> {
  const abort = new AbortController();
  const body = message === undefined ? undefined : JSON.stringify(message);
  const sent = method === "POST" ? { ...POST_HEADERS, ...headers } : headers;
  const response = await fetch(url, { method, headers: sent, body, signal: abort.signal });
  if (!(response.headers.get("content-type") ?? "").includes("text/event-stream")) return toAnswer(response);
  const reader = response.body!.getReader();
  const decoder = new TextDecoder();
  const guard = setTimeout(() => abort.abort(), 1000);
  let text = "";
  try {
    for (let read = await reader.read(); !read.done; read = await reader.read()) {
      text += decoder.decode(read.value, { stream: true });
      if (/secret/.test(text)) break;
    }
  } catch {
    // The hang guard dropped it.
  } finally {
    clearTimeout(guard);
    abort.abort();
  }
  return { status: response.status, headers: response.headers, text, json: undefined, events: parseSse(text) };
}

/** What a crossing gets must equal what an unknown session gets: 404, same bytes, no session id. */
function expectSameAsUnknown(crossing: Answer, unknown: Answer, what: string): void {
  // Soft: a broken check shows every crossing it opens, not just the first.
  expect.soft(crossing.status, `${what}: ${crossing.text}`).toBe(404);
  expect.soft(crossing.text, what).toBe(unknown.text);
  expect.soft(crossing.headers.get("mcp-session-id"), what).toBeNull();
  expect.soft(crossing.text, what).not.toMatch(/secret-of-alice|get-secret/);
}

/**
 * Bob, through `url`, presents alice's session in every request a client can make, and her
 * real event ids on his own session: each answer is the one for an unknown session (or an unknown
 * event id), with nothing of hers in it; his `notifySession` to her session is refused.
 */
export async function bobCrosses(url: string, owned: OwnedEvents, bob: TokenSession): Promise<void> {
  const alice = owned.session.id;
  const as = (sessionId: string) => sessionHeaders(bob.token, sessionId);
  const posted = async (message: unknown, what: string): Promise<void> => {
    const unknown = await cross(url, "POST", as(UNKNOWN_SESSION), message);
    expectSameAsUnknown(await cross(url, "POST", as(alice), message), unknown, what);
  };
  await posted({ jsonrpc: "2.0", id: 7, method: "ping" }, "POST ping");
  await posted(call("secret"), "POST tools/call");
  await posted({ jsonrpc: "2.0", method: "notifications/cancelled", params: { requestId: 1 } }, "POST notification");
  await posted({ jsonrpc: "2.0", id: 0, result: { action: "accept", content: {} } }, "POST response");
  await posted({ jsonrpc: "2.0", id: 8, method: "resources/subscribe", params: { uri: NOTES_URI } }, "subscribe");
  await posted({ jsonrpc: "2.0", id: 9, method: "resources/unsubscribe", params: { uri: NOTES_URI } }, "unsubscribe");
  await posted({ jsonrpc: "2.0", id: 10, method: "logging/setLevel", params: { level: "debug" } }, "setLevel");

  const getAs = (sessionId: string) => ({ ...as(sessionId), accept: "text/event-stream" });
  const unknownGet = await cross(url, "GET", getAs(UNKNOWN_SESSION));
  expectSameAsUnknown(await cross(url, "GET", getAs(alice)), unknownGet, "GET open");
  for (const lastEventId of [...owned.getIds, ...owned.postIds]) {
    const resume = { ...getAs(alice), "last-event-id": lastEventId };
    expectSameAsUnknown(await cross(url, "GET", resume), unknownGet, `GET resume ${lastEventId}`);
    const query = `${url}?lastEventId=${encodeURIComponent(lastEventId)}`;
    expectSameAsUnknown(await cross(query, "GET", getAs(alice)), unknownGet, `GET ?lastEventId=${lastEventId}`);
    // Her id on his own session: the answer to an id never issued there, nothing replayed.
    const own = await cross(url, "GET", { ...getAs(bob.id), "last-event-id": lastEventId });
    const never = await cross(url, "GET", { ...getAs(bob.id), "last-event-id": `${lastEventId}0` });
    expect.soft(own.status, `his session, her id ${lastEventId}: ${own.text}`).toBe(400);
    expect.soft(own.text.replace(lastEventId, "…")).toBe(never.text.replace(`${lastEventId}0`, "…"));
  }
  const unknownDelete = await cross(url, "DELETE", as(UNKNOWN_SESSION));
  expectSameAsUnknown(await cross(url, "DELETE", as(alice)), unknownDelete, "DELETE");
  expect.soft(await tell(url, bob, alice, "bob-was-here"), "notifySession").toBe("false");
}

/**
 * Alice, through `url`: her session answers, holds no subscription bob made, and her own event ids
 * replay what followed them (so they were real, live ids); nothing bob sent reached her GET stream.
 * `stored` and `subscribed` read her session from the store; a store the test cannot reach (a
 * Durable Object's) leaves them out, and the test checks the subscription on the wire instead.
 */
export async function aliceStillOwns(
  url: string,
  owned: OwnedEvents,
  stored?: (id: string) => Promise<SessionData | undefined>,
  subscribed?: (id: string, uri: string) => Promise<boolean>,
): Promise<void> {
  const alice = owned.session;
  if (stored && subscribed) {
    const data = await stored(alice.id);
    expect(data).toBeDefined();
    expect(await subscribed(alice.id, NOTES_URI)).toBe(false);
    expect(data?.logLevel).toBeUndefined();
  }
  const ping = await post(url, { jsonrpc: "2.0", id: 9, method: "ping" }, alice.headers);
  expect(single(ping).result, ping.text).toEqual({});
  const post1 = await resumeAs(url, alice, owned.postIds[0]!);
  expect((await post1.next(/result-secret-of-alice/)).data).toContain("result-secret-of-alice");
  post1.close();
  const get = await resumeAs(url, alice, owned.getIds[0]!);
  expect((await get.next(/get-secret|bob-was-here/)).data).toContain("get-secret-2");
  // Next on the stream is what alice tells it now: bob's message never went in.
  expect(await tell(url, alice, alice.id, "get-secret-3")).toBe("true");
  expect((await get.next(/get-secret|bob-was-here/)).data).toContain("get-secret-3");
  get.close();
}

/** Resumes a stream of alice's with her id; retried while the GET stream she just closed is still seen as open (409). */
async function resumeAs(url: string, alice: TokenSession, lastEventId: string): Promise<LiveSse> {
  const { response, sse } = await openGetStreamWhenFree(url, { ...alice.headers, "last-event-id": lastEventId });
  expect(response.status, `alice resumes ${lastEventId}`).toBe(200);
  return sse;
}
