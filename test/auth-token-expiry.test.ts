/**
 * Streams end with their token, over real HTTP on h3 v2 and h3 v1: a legacy GET stream, a modern
 * `subscriptions/listen` stream and a long POST response stream of each era, opened with a token
 * that expires about a second later, close then; what is sent after (a `notifySession`, a
 * `resourceUpdated`, a `toolsChanged`, the call's own progress) reaches none of them, and the client
 * carries on with a fresh token: a new GET or listen, and (legacy) the call's stream resumed with
 * `Last-Event-ID`, while a modern call was cancelled as a disconnect cancels it.
 */
import { afterEach, describe, expect, it } from "vitest";
import { defineMcpHandler, defineResource, defineTool, type McpEventHandler } from "../src/index.ts";
import { HOSTS, startHost, type RunningHost } from "./helpers/hosts.ts";
import { bearer } from "./helpers/auth.ts";
import { deferred, type Deferred } from "./helpers/deferred.ts";
import { liveSse, type LiveSse } from "./helpers/live-sse.ts";
import { POST_HEADERS, post, toAnswer } from "./helpers/rpc.ts";

const LEGACY = "2025-11-25";
const MODERN = "2026-07-28";
const URI = "notes://today";
/** Long enough for the streams to open; the tests wait for events, never for this. */
const LIFETIME_MS = 1500;
/** Hang guard for a stream that should end at its token's expiry. */
const ENDS_WITHIN_MS = LIFETIME_MS + 5000;

/** `alice.<ms since the epoch>` expires then; `alice.never` does not. The principal is alice either way. */
function validate(token: string) {
  const match = /^alice\.(\d+|never)$/.exec(token);
  if (!match) return undefined;
  return match[1] === "never"
    ? { subject: "alice", scopes: [] }
    : { subject: "alice", scopes: [], expiresAt: Number(match[1]) / 1000 };
}

const shortToken = (): string => `alice.${Date.now() + LIFETIME_MS}`;
const FRESH = "alice.never";

interface Slow {
  started: Deferred;
  release: Deferred;
  aborted: Deferred;
}

function tools(slow: Slow) {
  return [
    defineTool({
      name: "slow",
      description: "Reports progress, waits to be released (or cancelled), reports again and answers",
      handler: async (event) => {
        const mcp = event.context.mcp!;
        mcp.signal.addEventListener("abort", () => slow.aborted.resolve(), { once: true });
        await mcp.progress(1, 2, "before");
        slow.started.resolve();
        await Promise.race([slow.release.promise, slow.aborted.promise]);
        if (mcp.signal.aborted) return "cancelled";
        await mcp.progress(2, 2, "after");
        return "slow done";
      },
    }),
    defineTool({
      name: "quiet",
      description: "Sends nothing until released, then reports progress and answers",
      handler: async (event) => {
        const mcp = event.context.mcp!;
        mcp.signal.addEventListener("abort", () => slow.aborted.resolve(), { once: true });
        await slow.release.promise;
        await mcp.progress(1, 1, "late");
        return mcp.signal.aborted ? "cancelled" : "quiet done";
      },
    }),
    defineTool({
      name: "notify",
      description: "Sends a session notification and two change notifications",
      handler: async (event, args) => {
        const mcp = event.context.mcp!;
        const reached =
          typeof args.session === "string"
            ? await mcp.notifySession(args.session, "notifications/message", { level: "info", data: String(args.text) })
            : false;
        await mcp.notify.resourceUpdated(URI);
        await mcp.notify.toolsChanged();
        return { reached };
      },
      input: {
        type: "object",
        properties: { session: { type: "string" }, text: { type: "string" } },
        required: ["text"],
      },
    }),
  ];
}

const resource = defineResource({ uri: URI, name: "today", handler: () => "notes" });

let nextId = 10;

/** A legacy session of alice, opened with `token`, subscribed to {@link URI}. */
async function openSession(url: string, token: string): Promise<string> {
  const params = { protocolVersion: LEGACY, capabilities: {}, clientInfo: { name: "raw", version: "1" } };
  const opened = await post(url, { jsonrpc: "2.0", id: 1, method: "initialize", params }, bearer(token));
  const sessionId = opened.headers.get("mcp-session-id")!;
  expect(opened.status, opened.text).toBe(200);
  const headers = legacyHeaders(token, sessionId);
  expect((await post(url, { jsonrpc: "2.0", method: "notifications/initialized" }, headers)).status).toBe(202);
  const subscribed = await post(
    url,
    { jsonrpc: "2.0", id: 2, method: "resources/subscribe", params: { uri: URI } },
    headers,
  );
  expect(subscribed.status, subscribed.text).toBe(200);
  return sessionId;
}

function legacyHeaders(token: string, sessionId: string): Record<string, string> {
  return { ...POST_HEADERS, ...bearer(token), "mcp-session-id": sessionId, "mcp-protocol-version": LEGACY };
}

/** Opens a streaming request and reads it live; the answer must be an event stream. */
async function openStream(url: string, init: RequestInit & { headers: Record<string, string> }): Promise<LiveSse> {
  const abort = new AbortController();
  const response = await fetch(url, { ...init, signal: abort.signal });
  const type = response.headers.get("content-type") ?? "";
  if (response.status !== 200 || !type.includes("text/event-stream")) {
    throw new Error(`expected an event stream, got ${response.status} ${type}: ${await response.text()}`);
  }
  return liveSse(response, abort);
}

function legacyGet(url: string, token: string, sessionId: string, lastEventId?: string): Promise<LiveSse> {
  const headers: Record<string, string> = {
    accept: "text/event-stream",
    ...bearer(token),
    "mcp-session-id": sessionId,
  };
  if (lastEventId !== undefined) headers["last-event-id"] = lastEventId;
  return openStream(url, { method: "GET", headers });
}

function legacyCall(url: string, token: string, sessionId: string, name: string, args: object, progress?: string) {
  const params: Record<string, unknown> = { name, arguments: args };
  if (progress !== undefined) params._meta = { progressToken: progress };
  const body = JSON.stringify({ jsonrpc: "2.0", id: nextId++, method: "tools/call", params });
  return { method: "POST", headers: legacyHeaders(token, sessionId), body };
}

function modernInit(token: string, method: string, params: Record<string, unknown>, progress?: string) {
  const meta: Record<string, unknown> = {
    "io.modelcontextprotocol/protocolVersion": MODERN,
    "io.modelcontextprotocol/clientCapabilities": {},
  };
  if (progress !== undefined) meta.progressToken = progress;
  const headers: Record<string, string> = {
    ...POST_HEADERS,
    ...bearer(token),
    "mcp-protocol-version": MODERN,
    "mcp-method": method,
  };
  if (typeof params.name === "string") headers["mcp-name"] = params.name;
  const body = JSON.stringify({ jsonrpc: "2.0", id: nextId++, method, params: { ...params, _meta: meta } });
  return { method: "POST", headers, body };
}

async function jsonResult(response: Response): Promise<Record<string, unknown>> {
  const text = await response.text();
  expect(response.status, text).toBe(200);
  const message = JSON.parse(text) as { result?: { structuredContent?: Record<string, unknown> } };
  return message.result!.structuredContent!;
}

describe.each(HOSTS)("streams end with their token on %s", (host) => {
  let server: RunningHost | undefined;
  let handler: McpEventHandler | undefined;
  const streams: LiveSse[] = [];
  afterEach(async () => {
    for (const stream of streams.splice(0)) stream.close();
    await server?.close();
    await handler?.close();
    server = handler = undefined;
  });

  async function start(slow: Slow): Promise<string> {
    handler = defineMcpHandler({
      name: "expiry",
      version: "1.0.0",
      auth: { validate },
      tools: tools(slow),
      resources: [resource],
    });
    server = await startHost(host, handler);
    return server.url;
  }

  const newSlow = (): Slow => ({ started: deferred(), release: deferred(), aborted: deferred() });

  it("legacy: the GET stream and a long POST stream close at expiry; a fresh token reconnects and resumes the call", async () => {
    const slow = newSlow();
    const url = await start(slow);
    const token = shortToken();
    const sessionId = await openSession(url, token);
    const get = await legacyGet(url, token, sessionId);
    const postStream = await openStream(url, legacyCall(url, token, sessionId, "slow", {}, "p1"));
    streams.push(get, postStream);
    const before = await postStream.next(/"before"/);
    expect(before.id).toBeTruthy();

    expect(await get.endedWithin(ENDS_WITHIN_MS)).toBe(true);
    expect(await postStream.endedWithin(ENDS_WITHIN_MS)).toBe(true);

    // Sent after expiry, with a fresh token: it reaches the session's GET stream, which no connection reads now.
    const sent = await fetch(url, legacyCall(url, FRESH, sessionId, "notify", { session: sessionId, text: "late" }));
    expect(await jsonResult(sent)).toEqual({ reached: true });
    await expect(get.next(/late|list_changed|resources\/updated/, 200)).rejects.toThrow(/ended/);

    // A fresh token opens the GET stream again, and it carries what is sent from then on.
    const again = await legacyGet(url, FRESH, sessionId);
    streams.push(again);
    const sentAgain = await fetch(
      url,
      legacyCall(url, FRESH, sessionId, "notify", { session: sessionId, text: "fresh" }),
    );
    expect(await jsonResult(sentAgain)).toEqual({ reached: true });
    expect((await again.next(/"fresh"/)).data).toContain("notifications/message");
    await again.next(/notifications\/resources\/updated/);
    await again.next(/notifications\/tools\/list_changed/);

    // The call went on, as for a dropped connection: its stream resumes with a fresh token.
    slow.release.resolve();
    const resumed = await legacyGet(url, FRESH, sessionId, before.id);
    streams.push(resumed);
    await resumed.next(/"after"/);
    expect((await resumed.next(/"result"/)).data).toContain("slow done");
    await expect(postStream.next(/"after"/, 200)).rejects.toThrow(/ended/);
  });

  it("modern: the listen stream and a long POST stream close at expiry; the call is cancelled; a fresh listen works", async () => {
    const slow = newSlow();
    const url = await start(slow);
    const token = shortToken();
    const filter = { notifications: { toolsListChanged: true, resourceSubscriptions: [URI] } };
    const listen = await openStream(url, modernInit(token, "subscriptions/listen", filter));
    streams.push(listen);
    await listen.next(/acknowledged/);
    const postStream = await openStream(url, modernInit(token, "tools/call", { name: "slow", arguments: {} }, "p1"));
    streams.push(postStream);
    await postStream.next(/"before"/);

    expect(await listen.endedWithin(ENDS_WITHIN_MS)).toBe(true);
    expect(await postStream.endedWithin(ENDS_WITHIN_MS)).toBe(true);
    // A dropped modern stream cancels its call.
    await slow.aborted.promise;

    const sent = await fetch(url, modernInit(FRESH, "tools/call", { name: "notify", arguments: { text: "late" } }));
    expect(await jsonResult(sent)).toEqual({ reached: false });
    await expect(listen.next(/list_changed|resources\/updated/, 200)).rejects.toThrow(/ended/);

    const again = await openStream(url, modernInit(FRESH, "subscriptions/listen", filter));
    streams.push(again);
    await again.next(/acknowledged/);
    const sentAgain = await fetch(
      url,
      modernInit(FRESH, "tools/call", { name: "notify", arguments: { text: "fresh" } }),
    );
    await jsonResult(sentAgain);
    await again.next(/notifications\/resources\/updated/);
    await again.next(/notifications\/tools\/list_changed/);
  });

  it("legacy: a call whose stream opens after its token expired sends nothing on it, and resumes with a fresh token", async () => {
    const slow = newSlow();
    const url = await start(slow);
    const token = shortToken();
    const sessionId = await openSession(url, token);
    const witness = await legacyGet(url, token, sessionId);
    streams.push(witness);
    const answer = fetch(url, legacyCall(url, token, sessionId, "quiet", {}, "q1")).then(toAnswer);
    // The GET stream of the same token ending says it has expired; only then does the call speak.
    expect(await witness.endedWithin(ENDS_WITHIN_MS)).toBe(true);
    slow.release.resolve();
    const ended = await answer;
    expect(ended.headers.get("content-type")).toContain("text/event-stream");
    expect(ended.text).not.toContain("late");
    const priming = ended.events.find((event) => event.id !== undefined && event.id !== "");
    expect(priming).toBeDefined();

    const resumed = await legacyGet(url, FRESH, sessionId, priming!.id);
    streams.push(resumed);
    await resumed.next(/"late"/);
    expect((await resumed.next(/"result"/)).data).toContain("quiet done");
  });

  it("modern: a call whose stream opens after its token expired sends nothing on it and is cancelled", async () => {
    const slow = newSlow();
    const url = await start(slow);
    const token = shortToken();
    const witness = await openStream(
      url,
      modernInit(token, "subscriptions/listen", { notifications: { toolsListChanged: true } }),
    );
    streams.push(witness);
    await witness.next(/acknowledged/);
    const answer = fetch(url, modernInit(token, "tools/call", { name: "quiet", arguments: {} }, "q1")).then(toAnswer);
    expect(await witness.endedWithin(ENDS_WITHIN_MS)).toBe(true);
    slow.release.resolve();
    const ended = await answer;
    expect(ended.text).not.toContain("late");
    expect(ended.text).not.toContain("quiet done");
    await slow.aborted.promise;
  });

  it("a token expiring beyond setTimeout's 32-bit range keeps its stream open", async () => {
    const url = await start(newSlow());
    // About 50 days: setTimeout would fire such a delay at once.
    const far = `alice.${Date.now() + 2 ** 32}`;
    const sessionId = await openSession(url, far);
    const get = await legacyGet(url, far, sessionId);
    streams.push(get);
    const sent = await fetch(url, legacyCall(url, far, sessionId, "notify", { session: sessionId, text: "far" }));
    expect(await jsonResult(sent)).toEqual({ reached: true });
    await get.next(/"far"/);
    const listen = await openStream(
      url,
      modernInit(far, "subscriptions/listen", { notifications: { toolsListChanged: true } }),
    );
    streams.push(listen);
    await listen.next(/acknowledged/);
    await jsonResult(await fetch(url, modernInit(far, "tools/call", { name: "notify", arguments: { text: "far" } })));
    await listen.next(/list_changed/);
  });
});
