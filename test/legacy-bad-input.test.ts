/**
 * Bad input on the legacy (session) lane, architecture §6: every malformed thing gets a clear JSON-RPC
 * error with the right HTTP status, and nothing else changes — no session created or ended, no tool
 * run, no session setting touched — and the next good request on the same server is served.
 *
 * Everything goes over real HTTP with raw `fetch` (no SDK client, which would refuse to send most of
 * this), on both hosts. Only the `Host` cases use `node:http`, because `fetch` may not set `Host`.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { z } from "zod";
import {
  MemorySessionStore,
  defineMcpHandler,
  definePrompt,
  defineResource,
  defineTool,
  type McpHandlerOptions,
} from "../src/index.ts";
import { deferred, type Deferred } from "./helpers/deferred.ts";
import { HOSTS, startHost, type HostName, type RunningHost } from "./helpers/hosts.ts";
import {
  POST_HEADERS,
  expectError,
  nodeRequest,
  post,
  postRaw,
  send,
  single,
  toAnswer,
  type RpcMessage,
} from "./helpers/rpc.ts";

// Wire constants spelled out here (not imported from src/) so that a drift in the library shows up.
const LEGACY = "2025-11-25";
const BATCH_VERSION = "2025-03-26";
const MODERN = "2026-07-28";
const META_PROTOCOL_VERSION = "io.modelcontextprotocol/protocolVersion";
const META_CLIENT_CAPABILITIES = "io.modelcontextprotocol/clientCapabilities";
/** Session ids may only use visible ASCII (2025-11-25 transports §Session Management). */
const VISIBLE_ASCII = /^[\x21-\x7E]+$/;
const MAX_BODY = 1024;
const SESSION_ERROR = -32000;
const SESSION_NOT_FOUND = -32001;

// ---------------------------------------------------------------------------------------------
// Small helpers

let nextId = 1;

function rpc(method: string, params?: Record<string, unknown>, id: string | number = nextId++): RpcMessage {
  return params === undefined ? { jsonrpc: "2.0", id, method } : { jsonrpc: "2.0", id, method, params };
}

function notification(method: string, params?: Record<string, unknown>): RpcMessage {
  return params === undefined ? { jsonrpc: "2.0", method } : { jsonrpc: "2.0", method, params };
}

function initializeMessage(protocolVersion: unknown = LEGACY, extra: Record<string, unknown> = {}): RpcMessage {
  return rpc("initialize", {
    protocolVersion,
    capabilities: {},
    clientInfo: { name: "bad-input-test", version: "1.0.0" },
    ...extra,
  });
}

/** `tools/call` of the `record` tool, whose only effect is to push `n` onto the fixture's calls. */
function callRecord(args: unknown, id?: number): RpcMessage {
  return rpc("tools/call", { name: "record", arguments: args }, id);
}

interface Session {
  id: string;
  version: string;
  headers: Record<string, string>;
}

/** Opens a session the way a legacy client does: initialize, then notifications/initialized. */
async function initSession(url: string, version = LEGACY): Promise<Session> {
  const answer = await post(url, initializeMessage(version));
  expect(answer.status, answer.text).toBe(200);
  expect(single(answer).result?.protocolVersion).toBe(version);
  const id = answer.headers.get("mcp-session-id");
  expect(id).toMatch(VISIBLE_ASCII);
  // 2025-03-26 clients do not know the MCP-Protocol-Version header; later ones send it on every request.
  const headers: Record<string, string> = { "mcp-session-id": id! };
  if (version !== BATCH_VERSION) headers["mcp-protocol-version"] = version;
  const initialized = await post(url, notification("notifications/initialized"), headers);
  expect(initialized.status).toBe(202);
  return { id: id!, version, headers };
}

/** The next good request on the same session is served. */
async function expectServed(url: string, session: Session): Promise<void> {
  const id = nextId++;
  const answer = await post(url, rpc("ping", undefined, id), session.headers);
  expect(answer.status, answer.text).toBe(200);
  expect(single(answer)).toEqual({ jsonrpc: "2.0", id, result: {} });
}

/** The server still opens sessions. */
async function expectServerServes(url: string): Promise<void> {
  await expectServed(url, await initSession(url));
}

// ---------------------------------------------------------------------------------------------
// The server under test

interface Fixture {
  store: MemorySessionStore;
  /** Arguments of every run of the `record` tool: its side effect. */
  calls: number[];
  /** Levels passed to onLogLevelSet. */
  levels: string[];
  /** The `slow` tool waits for `release`, and says whether its signal was aborted by then. */
  slow: { started: Deferred; release: Deferred; abortedAtEnd: boolean | undefined };
}

function newFixture(): Fixture {
  return {
    store: new MemorySessionStore(),
    calls: [],
    levels: [],
    slow: { started: deferred(), release: deferred(), abortedAtEnd: undefined },
  };
}

function handlerOptions(fixture: Fixture, extra: Partial<McpHandlerOptions> = {}): McpHandlerOptions {
  return {
    name: "bad-input",
    version: "1.0.0",
    logging: true,
    onLogLevelSet: (level) => void fixture.levels.push(level),
    sessions: { store: fixture.store },
    tools: [
      defineTool({
        name: "record",
        input: z.object({ n: z.number() }),
        handler: (_event, { n }) => {
          fixture.calls.push(n);
          return `recorded ${n}`;
        },
      }),
      defineTool({
        name: "slow",
        handler: async (event) => {
          const mcp = event.context.mcp!;
          fixture.slow.started.resolve();
          await fixture.slow.release.promise;
          fixture.slow.abortedAtEnd = mcp.signal.aborted;
          return "finished";
        },
      }),
      defineTool({
        name: "chatty",
        handler: async (event) => {
          const mcp = event.context.mcp!;
          await mcp.progress(1, 2, "half");
          await mcp.log("info", "an info line");
          await mcp.log("error", "an error line");
          await mcp.progress(2, 2, "done");
          return "chatted";
        },
      }),
    ],
    prompts: [
      definePrompt({
        name: "greet",
        arguments: [{ name: "name", required: true }],
        handler: (_event, { name }) => `Hello ${name}`,
      }),
    ],
    resources: [defineResource({ uri: "docs://readme", name: "readme", handler: () => "# Readme" })],
    ...extra,
  };
}

interface Servers {
  /** Sessions on, a small maxBodyBytes. */
  main: RunningHost;
  fixture: Fixture;
  /** Default maxBodyBytes (4 MiB), for bodies that are big on purpose. */
  roomy: RunningHost;
  roomyFixture: Fixture;
  /** sessions: false */
  stateless: RunningHost;
  /** allowedOrigins / allowedHosts set. */
  allowlisted: RunningHost;
  allowlistedFixture: Fixture;
}

async function startServers(host: HostName): Promise<Servers> {
  const fixture = newFixture();
  const roomyFixture = newFixture();
  const statelessFixture = newFixture();
  const allowlistedFixture = newFixture();
  return {
    fixture,
    main: await startHost(host, defineMcpHandler(handlerOptions(fixture, { maxBodyBytes: MAX_BODY }))),
    roomyFixture,
    roomy: await startHost(host, defineMcpHandler(handlerOptions(roomyFixture))),
    stateless: await startHost(host, defineMcpHandler(handlerOptions(statelessFixture, { sessions: false }))),
    allowlistedFixture,
    allowlisted: await startHost(
      host,
      defineMcpHandler(
        handlerOptions(allowlistedFixture, {
          allowedOrigins: ["https://app.example.com"],
          allowedHosts: ["mcp.example.com"],
        }),
      ),
    ),
  };
}

/**
 * Opens a GET stream and returns its response without reading the (endless) body. The response head
 * must arrive within `timeoutMs`: a stream whose head is held back is not served.
 */
async function openGet(
  url: string,
  headers: Record<string, string>,
  timeoutMs = 3000,
): Promise<{ response: Response; close: () => void }> {
  const controller = new AbortController();
  const signal = AbortSignal.any([controller.signal, AbortSignal.timeout(Math.max(timeoutMs, 1))]);
  const response = await fetch(url, { method: "GET", headers, signal });
  return {
    response,
    close: () => {
      controller.abort();
      void response.body?.cancel().catch(() => {});
    },
  };
}

// ---------------------------------------------------------------------------------------------

describe.each(HOSTS)("legacy bad input on %s", (host) => {
  let servers: Servers;
  let url: string;
  let fixture: Fixture;

  beforeAll(async () => {
    servers = await startServers(host);
    url = servers.main.url;
    fixture = servers.fixture;
  });

  afterAll(async () => {
    await Promise.all([servers.main, servers.roomy, servers.stateless, servers.allowlisted].map((s) => s.close()));
  });

  describe("Origin and Host (403 before anything else)", () => {
    const EVIL = "https://evil.example.com";

    it("a foreign Origin gets 403 naming the value and allowedOrigins; nothing is created or ended", async () => {
      const before = fixture.store.size;
      const answer = await post(url, initializeMessage(), { origin: EVIL });
      const error = expectError(answer, 403, SESSION_ERROR, `Origin "${EVIL}"`);
      expect(error.message).toContain("allowedOrigins");
      expect(answer.headers.get("mcp-session-id")).toBeNull();
      expect(fixture.store.size).toBe(before);

      // On an open session: no tool runs, the stream is not opened and the session is not deleted.
      const session = await initSession(url);
      const calls = fixture.calls.length;
      expectError(await post(url, callRecord({ n: 1 }), { ...session.headers, origin: EVIL }), 403, SESSION_ERROR);
      expect(fixture.calls).toHaveLength(calls);
      const get = await send(url, "GET", { ...session.headers, accept: "text/event-stream", origin: EVIL });
      expectError(get, 403, SESSION_ERROR, "allowedOrigins");
      const deleted = await send(url, "DELETE", { ...session.headers, origin: EVIL });
      expectError(deleted, 403, SESSION_ERROR, "allowedOrigins");
      // An opaque origin (sandboxed iframe, file://) is not loopback either.
      expectError(await post(url, rpc("ping"), { ...session.headers, origin: "null" }), 403, SESSION_ERROR, '"null"');
      await expectServed(url, session);
    });

    it("a foreign Host gets 403 naming the value and allowedHosts (DNS rebinding)", async () => {
      const port = new URL(url).port;
      const before = fixture.store.size;
      const body = JSON.stringify(initializeMessage());
      const answer = await nodeRequest(url, "POST", { ...POST_HEADERS, host: `evil.example.com:${port}` }, body);
      const error = expectError(answer, 403, SESSION_ERROR, `Host "evil.example.com:${port}"`);
      expect(error.message).toContain("allowedHosts");
      expect(answer.headers.get("mcp-session-id")).toBeNull();
      expect(fixture.store.size).toBe(before);
      // The same request with a loopback Host is served: the 403 came from the Host alone.
      const control = await nodeRequest(url, "POST", { ...POST_HEADERS, host: `localhost:${port}` }, body);
      expect(control.status, control.text).toBe(200);
      expect(control.headers.get("mcp-session-id")).toMatch(VISIBLE_ASCII);
      expect(fixture.store.size).toBe(before + 1);
    });

    it("an Origin and Host named in allowedOrigins / allowedHosts are served", async () => {
      const { allowlisted, allowlistedFixture } = servers;
      const headers = { ...POST_HEADERS, host: "mcp.example.com", origin: "https://app.example.com" };
      const before = allowlistedFixture.store.size;
      const init = await nodeRequest(allowlisted.url, "POST", headers, JSON.stringify(initializeMessage()));
      expect(init.status, init.text).toBe(200);
      const sessionId = init.headers.get("mcp-session-id");
      expect(sessionId).toMatch(VISIBLE_ASCII);
      expect(allowlistedFixture.store.size).toBe(before + 1);
      const sessionHeaders = { ...headers, "mcp-session-id": sessionId!, "mcp-protocol-version": LEGACY };
      const ping = await nodeRequest(
        allowlisted.url,
        "POST",
        sessionHeaders,
        JSON.stringify(rpc("ping", undefined, 7)),
      );
      expect(ping.status, ping.text).toBe(200);
      expect(single(ping)).toEqual({ jsonrpc: "2.0", id: 7, result: {} });
      // The lists replace the loopback default, and still turn everyone else away.
      const otherOrigin = await nodeRequest(
        allowlisted.url,
        "POST",
        { ...sessionHeaders, origin: "https://other.example.com" },
        JSON.stringify(rpc("ping")),
      );
      expectError(otherOrigin, 403, SESSION_ERROR, "allowedOrigins");
      const otherHost = await nodeRequest(
        allowlisted.url,
        "POST",
        { ...sessionHeaders, host: "other.example.com" },
        JSON.stringify(rpc("ping")),
      );
      expectError(otherHost, 403, SESSION_ERROR, "allowedHosts");
    });
  });

  describe("body gate", () => {
    it("a Content-Type other than application/json gets 415; the tool does not run", async () => {
      const session = await initSession(url);
      const calls = fixture.calls.length;
      const body = JSON.stringify(callRecord({ n: 1 }));
      for (const type of ["text/plain;charset=UTF-8", "application/x-www-form-urlencoded", "application/jsonx"]) {
        const answer = await postRaw(url, body, { ...session.headers, "content-type": type });
        expectError(answer, 415, SESSION_ERROR, /Content-Type must be application\/json/);
      }
      // No Content-Type at all (fetch adds none for a byte body).
      const bare = await fetch(url, {
        method: "POST",
        headers: { accept: POST_HEADERS.accept, ...session.headers },
        body: new TextEncoder().encode(body),
      });
      expectError(await toAnswer(bare), 415, SESSION_ERROR, /application\/json/);
      expect(fixture.calls).toHaveLength(calls);
      // application/json with parameters is JSON: served, and the tool runs now.
      const good = await postRaw(url, body, { ...session.headers, "content-type": "Application/JSON; charset=utf-8" });
      expect(good.status, good.text).toBe(200);
      expect(single(good).result?.content).toEqual([{ type: "text", text: "recorded 1" }]);
      expect(fixture.calls).toHaveLength(calls + 1);
    });

    it("a body over maxBodyBytes (with Content-Length) gets 413 naming the limit; the tool does not run", async () => {
      const session = await initSession(url);
      const calls = fixture.calls.length;
      const body = JSON.stringify(callRecord({ n: 1, padding: "x".repeat(2 * MAX_BODY) }));
      const answer = await postRaw(url, body, session.headers);
      expectError(answer, 413, SESSION_ERROR, new RegExp(`maxBodyBytes \\(${MAX_BODY} bytes\\)`));
      expect(fixture.calls).toHaveLength(calls);
      await expectServed(url, session);
    });

    it("a streamed body (no Content-Length) over maxBodyBytes gets 413; the tool does not run", async () => {
      const session = await initSession(url);
      const calls = fixture.calls.length;
      const text = JSON.stringify(callRecord({ n: 1, padding: "x".repeat(4 * MAX_BODY) }));
      const bytes = new TextEncoder().encode(text);
      let offset = 0;
      // Chunked transfer encoding: the server cannot know the size before it reads past the limit.
      const stream = new ReadableStream<Uint8Array>({
        pull(controller) {
          if (offset >= bytes.byteLength) return controller.close();
          controller.enqueue(bytes.slice(offset, offset + 256));
          offset += 256;
        },
      });
      const response = await fetch(url, {
        method: "POST",
        headers: { ...POST_HEADERS, ...session.headers },
        body: stream,
        duplex: "half",
      } as RequestInit);
      expect(response.headers.get("content-length")).not.toBe(String(bytes.byteLength));
      expectError(await toAnswer(response), 413, SESSION_ERROR, /maxBodyBytes/);
      expect(fixture.calls).toHaveLength(calls);
      await expectServed(url, session);
    });

    it("invalid JSON gets 400 -32700; the tool does not run", async () => {
      const session = await initSession(url);
      const calls = fixture.calls.length;
      for (const text of ['{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"record"', "", "{'a':1}"]) {
        const answer = await postRaw(url, text, session.headers);
        const error = expectError(answer, 400, -32700, /^Parse error/);
        expect(single(answer).id).toBeNull();
        expect(error.message.length).toBeGreaterThan("Parse error: ".length);
      }
      expect(fixture.calls).toHaveLength(calls);
      await expectServed(url, session);
    });

    it("deeply nested JSON (100000 levels) gets a clear 4xx, no crash, and the server serves on", async () => {
      const { roomy, roomyFixture } = servers;
      const depth = 100_000;
      const session = await initSession(roomy.url);
      const calls = roomyFixture.calls.length;
      // Unterminated: not JSON.
      expectError(await postRaw(roomy.url, "[".repeat(depth), session.headers), 400, -32700, /^Parse error/);
      // Balanced JSON nested deeper than maxJsonDepth (64): refused by the gate, before anything walks it.
      const tooDeep = /maxJsonDepth \(64 /;
      const balanced = "[".repeat(depth) + "]".repeat(depth);
      expectError(await postRaw(roomy.url, balanced, session.headers), 400, -32602, tooDeep);
      const objects = '{"a":'.repeat(depth) + "1" + "}".repeat(depth);
      expectError(await postRaw(roomy.url, objects, session.headers), 400, -32602, tooDeep);
      // A well-formed request carrying the nesting in its arguments: the same.
      const nestedArgs = `{"jsonrpc":"2.0","id":5,"method":"tools/call","params":{"name":"record","arguments":{"n":${objects}}}}`;
      const call = await postRaw(roomy.url, nestedArgs, session.headers);
      expect(expectError(call, 400, -32602, tooDeep).data).toEqual({ maxJsonDepth: 64 });
      expect(roomyFixture.calls).toHaveLength(calls);
      await expectServed(roomy.url, session);
      await expectServerServes(roomy.url);
    });
  });

  describe("classification", () => {
    it("an empty batch gets 400 -32600", async () => {
      const session = await initSession(url, BATCH_VERSION);
      expectError(await post(url, [], session.headers), 400, -32600, /empty JSON-RPC batch/);
      await expectServed(url, session);
    });

    it("a batch with a modern _meta claim element gets 400 -32600; no element runs", async () => {
      const session = await initSession(url, BATCH_VERSION);
      const calls = fixture.calls.length;
      const modern = rpc("tools/call", {
        name: "record",
        arguments: { n: 2 },
        _meta: { [META_PROTOCOL_VERSION]: MODERN, [META_CLIENT_CAPABILITIES]: {} },
      });
      const answer = await post(url, [callRecord({ n: 1 }), modern], session.headers);
      expectError(answer, 400, -32600, /batches may not contain requests for protocol revision 2026-07-28/);
      expect(fixture.calls).toHaveLength(calls);
      await expectServed(url, session);
    });

    it("a batch on a 2025-11-25 (or 2025-06-18) session gets 400 -32600; only 2025-03-26 batches", async () => {
      const calls = fixture.calls.length;
      for (const version of [LEGACY, "2025-06-18"]) {
        const session = await initSession(url, version);
        const answer = await post(url, [callRecord({ n: 1 }), rpc("ping")], session.headers);
        expectError(answer, 400, -32600, new RegExp(`batches are not allowed in protocol revision ${version}`));
        expect(fixture.calls).toHaveLength(calls);
        await expectServed(url, session);
      }
      // The same batch on a 2025-03-26 session is served, so the rejection above is about the revision.
      const old = await initSession(url, BATCH_VERSION);
      const answer = await post(url, [callRecord({ n: 3 }, 31), rpc("ping", undefined, 32)], old.headers);
      expect(answer.status, answer.text).toBe(200);
      expect((answer.json as RpcMessage[]).map((message) => message.id)).toEqual([31, 32]);
      expect(fixture.calls).toEqual([...fixture.calls.slice(0, calls), 3]);
    });

    it("initialize inside a batch gets 400 -32600 naming the problem; no session is created", async () => {
      const before = fixture.store.size;
      // The realistic case: a client that opens with a batch has no session yet.
      const fresh = await post(url, [initializeMessage(BATCH_VERSION)]);
      expectError(fresh, 400, -32600, /initialize.*batch/i);
      expect(fresh.headers.get("mcp-session-id")).toBeNull();
      expect(fixture.store.size).toBe(before);

      const session = await initSession(url, BATCH_VERSION);
      const calls = fixture.calls.length;
      const inSession = await post(url, [callRecord({ n: 1 }), initializeMessage(BATCH_VERSION)], session.headers);
      expectError(inSession, 400, -32600, /initialize cannot be part of a batch/);
      expect(fixture.store.size).toBe(before + 1);
      expect(fixture.calls).toHaveLength(calls);
      await expectServed(url, session);
    });

    it("a body that is not a JSON-RPC message gets 400 -32600", async () => {
      const session = await initSession(url);
      const before = fixture.store.size;
      const calls = fixture.calls.length;
      const bodies = [
        '{"foo":1}',
        "42",
        "null",
        '"tools/call"',
        "true",
        '{"jsonrpc":"2.0"}',
        '{"jsonrpc":"1.0","id":1,"method":"tools/call","params":{"name":"record","arguments":{"n":1}}}',
        '{"id":1,"method":"tools/call","params":{"name":"record","arguments":{"n":1}}}',
        '{"jsonrpc":"2.0","id":{"x":1},"method":"tools/call","params":{"name":"record","arguments":{"n":1}}}',
        '{"jsonrpc":"2.0","id":null,"method":"tools/call","params":{"name":"record","arguments":{"n":1}}}',
        '{"jsonrpc":"2.0","id":1,"method":"tools/call","params":["record",{"n":1}]}',
        '{"jsonrpc":"2.0","id":1,"method":42}',
      ];
      for (const body of bodies) {
        const answer = await postRaw(url, body, session.headers);
        expectError(answer, 400, -32600, /not a valid JSON-RPC message/);
      }
      expect(fixture.calls).toHaveLength(calls);
      expect(fixture.store.size).toBe(before);
      await expectServed(url, session);
    });

    it("a modern MCP-Protocol-Version header without a _meta claim gets 400 -32602 naming the missing keys", async () => {
      const session = await initSession(url);
      const calls = fixture.calls.length;
      const headers = { ...session.headers, "mcp-protocol-version": MODERN };
      const answer = await post(url, callRecord({ n: 1 }, 77), headers);
      const error = expectError(answer, 400, -32602, /_meta/);
      expect(single(answer).id).toBe(77);
      expect(error.message).toContain(META_PROTOCOL_VERSION);
      expect(error.data).toEqual({ envelope: { missing: [META_PROTOCOL_VERSION, META_CLIENT_CAPABILITIES] } });
      // Other _meta keys are not a claim; only the absent required keys are named.
      const partial = rpc("tools/call", {
        name: "record",
        arguments: { n: 1 },
        _meta: { [META_CLIENT_CAPABILITIES]: {}, progressToken: "p" },
      });
      const partialAnswer = await post(url, partial, headers);
      const partialError = expectError(partialAnswer, 400, -32602);
      expect(partialError.data).toEqual({ envelope: { missing: [META_PROTOCOL_VERSION] } });
      expect(fixture.calls).toHaveLength(calls);
      await expectServed(url, session);
    });
  });

  describe("sessions", () => {
    it("a request without Mcp-Session-Id gets 400; the tool does not run", async () => {
      const calls = fixture.calls.length;
      const answer = await post(url, callRecord({ n: 1 }, 41), { "mcp-protocol-version": LEGACY });
      expectError(answer, 400, SESSION_ERROR, /Mcp-Session-Id header is required/);
      expect(single(answer).id).toBe(41);
      expect(fixture.calls).toHaveLength(calls);
      expectError(await send(url, "GET", { accept: "text/event-stream" }), 400, SESSION_ERROR, /Mcp-Session-Id/);
      expectError(await send(url, "DELETE"), 400, SESSION_ERROR, /Mcp-Session-Id/);
      await expectServerServes(url);
    });

    it("an unknown session id gets 404 on POST, GET and DELETE; nothing is created", async () => {
      const before = fixture.store.size;
      const calls = fixture.calls.length;
      for (const id of ["not-a-session", crypto.randomUUID()]) {
        const headers = { "mcp-session-id": id, "mcp-protocol-version": LEGACY };
        const answer = await post(url, callRecord({ n: 1 }, 42), headers);
        expectError(answer, 404, SESSION_NOT_FOUND, /Session not found/);
        expect(single(answer).id).toBe(42);
        expectError(await send(url, "GET", { ...headers, accept: "text/event-stream" }), 404, SESSION_NOT_FOUND);
        expectError(await send(url, "DELETE", headers), 404, SESSION_NOT_FOUND);
      }
      expect(fixture.calls).toHaveLength(calls);
      expect(fixture.store.size).toBe(before);
      await expectServerServes(url);
    });

    it("a deleted session id gets 404; other sessions are untouched", async () => {
      const other = await initSession(url);
      const session = await initSession(url);
      const before = fixture.store.size;
      const deleted = await send(url, "DELETE", session.headers);
      expect(deleted.status).toBe(200);
      expect(fixture.store.size).toBe(before - 1);
      const calls = fixture.calls.length;
      expectError(await post(url, callRecord({ n: 1 }), session.headers), 404, SESSION_NOT_FOUND);
      expectError(await send(url, "GET", { ...session.headers, accept: "text/event-stream" }), 404, SESSION_NOT_FOUND);
      expectError(await send(url, "DELETE", session.headers), 404, SESSION_NOT_FOUND);
      expect(fixture.calls).toHaveLength(calls);
      expect(fixture.store.size).toBe(before - 1);
      await expectServed(url, other);
    });

    it("an unsupported MCP-Protocol-Version gets 400 naming it; nothing runs, nothing is ended", async () => {
      const session = await initSession(url);
      const calls = fixture.calls.length;
      const headers = { ...session.headers, "mcp-protocol-version": "1999-01-01" };
      const answer = await post(url, callRecord({ n: 1 }, 43), headers);
      expectError(answer, 400, SESSION_ERROR, /Unsupported protocol version: "1999-01-01"/);
      expect(single(answer).id).toBe(43);
      expect(fixture.calls).toHaveLength(calls);
      expectError(
        await send(url, "GET", { ...headers, accept: "text/event-stream" }),
        400,
        SESSION_ERROR,
        /1999-01-01/,
      );
      const before = fixture.store.size;
      expectError(await send(url, "DELETE", headers), 400, SESSION_ERROR, /1999-01-01/);
      expect(fixture.store.size).toBe(before);
      await expectServed(url, session);
    });

    it("initialize with a modern MCP-Protocol-Version header gets 400 -32020; no session", async () => {
      const before = fixture.store.size;
      const message = initializeMessage(LEGACY);
      const answer = await post(url, message, { "mcp-protocol-version": MODERN });
      expectError(answer, 400, -32020, new RegExp(MODERN));
      expect(single(answer).id).toBe(message.id);
      expect(answer.headers.get("mcp-session-id")).toBeNull();
      expect(fixture.store.size).toBe(before);
      await expectServerServes(url);
    });

    it("initialize with invalid params gets 400 -32602 naming the field; no session", async () => {
      const before = fixture.store.size;
      const cases: [RpcMessage, RegExp][] = [
        [rpc("initialize", { capabilities: {}, clientInfo: { name: "c", version: "1" } }), /protocolVersion/],
        [rpc("initialize"), /protocolVersion/],
        [initializeMessage(20251125), /protocolVersion/],
        [initializeMessage(LEGACY, { capabilities: "all" }), /capabilities/],
        [initializeMessage(LEGACY, { clientInfo: "me" }), /clientInfo/],
      ];
      for (const [message, field] of cases) {
        const answer = await post(url, message);
        expectError(answer, 400, -32602, field);
        expect(single(answer).id).toBe(message.id);
        expect(answer.headers.get("mcp-session-id")).toBeNull();
      }
      expect(fixture.store.size).toBe(before);
      await expectServerServes(url);
    });

    it("initialize carrying an Mcp-Session-Id gets 400; no session is created or replaced", async () => {
      const session = await initSession(url);
      const before = fixture.store.size;
      for (const id of [session.id, "made-up"]) {
        const answer = await post(url, initializeMessage(), { "mcp-session-id": id });
        expectError(answer, 400, -32600, /initialize must be sent without Mcp-Session-Id/);
        expect(answer.headers.get("mcp-session-id")).toBeNull();
      }
      expect(fixture.store.size).toBe(before);
      await expectServed(url, session);
    });
  });

  describe("dispatch errors (in-band JSON-RPC errors on 200)", () => {
    it("an unknown method gets -32601 naming it", async () => {
      const session = await initSession(url);
      const answer = await post(url, rpc("tools/explode", {}, 51), session.headers);
      expectError(answer, 200, -32601, 'Method not found: "tools/explode"');
      expect(single(answer).id).toBe(51);
      await expectServed(url, session);
    });

    it("an unknown tool gets -32602 naming it", async () => {
      const session = await initSession(url);
      const answer = await post(url, rpc("tools/call", { name: "nope", arguments: {} }, 52), session.headers);
      expectError(answer, 200, -32602, 'Unknown tool: "nope"');
      expect(single(answer).id).toBe(52);
      await expectServed(url, session);
    });

    it("invalid tool arguments get a tool error from 2025-11-25 on (SEP-1303); the handler does not run", async () => {
      const session = await initSession(url);
      const calls = fixture.calls.length;
      for (const args of [{ n: "one" }, {}, { m: 1 }]) {
        const answer = await post(url, callRecord(args), session.headers);
        expect(answer.status).toBe(200);
        const result = single(answer).result as { isError?: boolean; content?: { text: string }[] };
        expect(result.isError).toBe(true);
        expect(result.content?.[0]?.text).toMatch(/^Invalid arguments for tool record: .*n/);
      }
      // Arguments that are not an object at all are a malformed request, not a tool error.
      const notObject = await post(url, callRecord("n=1"), session.headers);
      expectError(notObject, 200, -32602, /arguments/);
      expect(fixture.calls).toHaveLength(calls);
      await expectServed(url, session);
    });

    it("invalid tool arguments get -32602 on 2025-06-18 sessions; the handler does not run", async () => {
      const session = await initSession(url, "2025-06-18");
      const calls = fixture.calls.length;
      const answer = await post(url, callRecord({ n: "one" }), session.headers);
      expectError(answer, 200, -32602, /^Invalid arguments for tool record: .*n/);
      expect(fixture.calls).toHaveLength(calls);
      await expectServed(url, session);
    });

    it("a prompt without its required argument gets -32602 naming it", async () => {
      const session = await initSession(url);
      const missing = await post(url, rpc("prompts/get", { name: "greet", arguments: {} }), session.headers);
      expectError(missing, 200, -32602, 'Missing required argument "name" for prompt greet');
      const notString = await post(url, rpc("prompts/get", { name: "greet", arguments: { name: 5 } }), session.headers);
      expectError(notString, 200, -32602, /"name".*must be a string/);
      const unknown = await post(url, rpc("prompts/get", { name: "nope" }), session.headers);
      expectError(unknown, 200, -32602, 'Unknown prompt: "nope"');
      await expectServed(url, session);
    });

    it("an unknown resource gets -32002 with data.uri", async () => {
      const session = await initSession(url);
      const answer = await post(url, rpc("resources/read", { uri: "docs://missing" }), session.headers);
      const error = expectError(answer, 200, -32002, "docs://missing");
      expect(error.data).toEqual({ uri: "docs://missing" });
      await expectServed(url, session);
    });

    it("a cursor the server never issued gets -32602 on every list", async () => {
      const session = await initSession(url);
      for (const method of ["tools/list", "prompts/list", "resources/list", "resources/templates/list"]) {
        const answer = await post(url, rpc(method, { cursor: "bogus" }), session.headers);
        expectError(answer, 200, -32602, /cursor/);
      }
      await expectServed(url, session);
    });

    it("logging/setLevel with an unknown level gets -32602 and the level stays as it was", async () => {
      const session = await initSession(url);
      const set = await post(url, rpc("logging/setLevel", { level: "error" }), session.headers);
      expect(set.status).toBe(200);
      expect(single(set).result).toEqual({});
      expect((await fixture.store.get(session.id))?.logLevel).toBe("error");
      const levels = fixture.levels.length;
      for (const level of ["verbose", "ERROR", 3, undefined]) {
        const answer = await post(url, rpc("logging/setLevel", { level }), session.headers);
        expectError(answer, 200, -32602, /log level/);
      }
      expect((await fixture.store.get(session.id))?.logLevel).toBe("error");
      expect(fixture.levels).toHaveLength(levels);
      // Behaviour agrees: a tool logging at info and error only sends the error line.
      const call = await post(url, rpc("tools/call", { name: "chatty", arguments: {} }), session.headers);
      const logs = call.events
        .map((event) => (event.data === "" ? undefined : (JSON.parse(event.data) as RpcMessage)))
        .filter((message) => message?.method === "notifications/message");
      expect(logs.map((message) => message!.params?.level)).toEqual(["error"]);
    });

    it("resources/subscribe with a non-string uri gets -32602 and the subscriptions stay as they were", async () => {
      const session = await initSession(url);
      const subscribed = await post(url, rpc("resources/subscribe", { uri: "docs://readme" }), session.headers);
      expect(subscribed.status).toBe(200);
      for (const uri of [42, undefined, { href: "docs://other" }]) {
        expectError(await post(url, rpc("resources/subscribe", { uri }), session.headers), 200, -32602, /uri/);
        expectError(await post(url, rpc("resources/unsubscribe", { uri }), session.headers), 200, -32602, /uri/);
      }
      expect(await fixture.store.isSubscribed(session.id, "docs://readme")).toBe(true);
      await expectServed(url, session);
    });
  });

  describe("posted responses and notifications", () => {
    it("a posted response for an id nobody waits for gets 400", async () => {
      const session = await initSession(url);
      const result = await post(url, { jsonrpc: "2.0", id: "srv-none-1", result: {} }, session.headers);
      expectError(result, 400, -32600, /no request of this session waits for a response with id "srv-none-1"/);
      // The id in the error is null: "srv-none-1" is the server's own id space, not a request of this client.
      expect(JSON.parse(result.text).id).toBeNull();
      const error = await post(
        url,
        { jsonrpc: "2.0", id: 9999, error: { code: -1, message: "declined" } },
        session.headers,
      );
      expectError(error, 400, -32600, /9999/);
      // Without a session there is nobody to answer at all.
      const sessionless = await post(url, { jsonrpc: "2.0", id: 1, result: {} }, { "mcp-protocol-version": LEGACY });
      expectError(sessionless, 400, SESSION_ERROR, /Mcp-Session-Id/);
      await expectServed(url, session);
    });

    it("notifications/cancelled for an unknown id gets 202 and nothing else happens", async () => {
      const session = await initSession(url);
      fixture.slow = { started: deferred(), release: deferred(), abortedAtEnd: undefined };
      const slowCall = post(url, rpc("tools/call", { name: "slow", arguments: {} }, 4242), session.headers);
      await fixture.slow.started.promise;
      const cancels = [
        { requestId: 999, reason: "unknown id" },
        // JSON-RPC ids "4242" and 4242 are different requests.
        { requestId: "4242", reason: "same digits, other id" },
        { reason: "no id at all" },
        { requestId: { id: 4242 } },
      ];
      for (const params of cancels) {
        const answer = await post(url, notification("notifications/cancelled", params), session.headers);
        expect(answer.status, answer.text).toBe(202);
        expect(answer.text).toBe("");
      }
      fixture.slow.release.resolve();
      const finished = await slowCall;
      expect(finished.status, finished.text).toBe(200);
      // Plain JSON: nothing was sent on the call's stream before its result.
      expect(finished.headers.get("content-type")).toContain("application/json");
      expect(single(finished)).toMatchObject({ id: 4242, result: { content: [{ type: "text", text: "finished" }] } });
      expect(fixture.slow.abortedAtEnd).toBe(false);
      await expectServed(url, session);
    });
  });

  describe("streams and HTTP methods", () => {
    it("a GET without Accept: text/event-stream gets 406 and opens no stream", async () => {
      const session = await initSession(url);
      for (const accept of ["application/json", "text/html"]) {
        const answer = await send(url, "GET", { ...session.headers, accept });
        expectError(answer, 406, SESSION_ERROR, /text\/event-stream/);
      }
      // Had the 406 opened the session's stream, this one would be a 409.
      const stream = await openGet(url, { ...session.headers, accept: "text/event-stream" });
      try {
        expect(stream.response.status).toBe(200);
        expect(stream.response.headers.get("content-type")).toContain("text/event-stream");
      } finally {
        stream.close();
      }
      await expectServed(url, session);
    });

    it("a second GET stream on one session gets 409; a new one is accepted once the first closes", async () => {
      const session = await initSession(url);
      const headers = { ...session.headers, accept: "text/event-stream" };
      const first = await openGet(url, headers);
      expect(first.response.status).toBe(200);
      try {
        expectError(await send(url, "GET", headers), 409, SESSION_ERROR, /Only one SSE stream is allowed per session/);
        await expectServed(url, session);
      } finally {
        first.close();
      }
      // The server notices the disconnect; the session is not locked out of its stream for good, and
      // the new stream answers at once (well before the first keep-alive, 15 s by default).
      // (srvx sends response headers with the first body byte, so a stream must write one at once.)
      const deadline = Date.now() + 3000;
      let status = 0;
      while (status !== 200 && Date.now() < deadline) {
        await new Promise((resolve) => setTimeout(resolve, 20));
        const again = await openGet(url, headers, deadline - Date.now());
        status = again.response.status;
        again.close();
      }
      expect(status).toBe(200);
    });

    it("GET and DELETE with sessions: false get 405 with Allow: POST", async () => {
      const { stateless } = servers;
      const get = await send(stateless.url, "GET", { accept: "text/event-stream", "mcp-session-id": "x" });
      expectError(get, 405, SESSION_ERROR, /no sessions/);
      expect(get.headers.get("allow")).toBe("POST");
      const deleted = await send(stateless.url, "DELETE", { "mcp-session-id": "x" });
      expectError(deleted, 405, SESSION_ERROR, /no sessions/);
      expect(deleted.headers.get("allow")).toBe("POST");
      // POST is still served, statelessly: no session id is minted.
      const init = await post(stateless.url, initializeMessage());
      expect(init.status, init.text).toBe(200);
      expect(init.headers.get("mcp-session-id")).toBeNull();
      const ping = await post(stateless.url, rpc("ping", undefined, 61), { "mcp-protocol-version": LEGACY });
      expect(single(ping)).toEqual({ jsonrpc: "2.0", id: 61, result: {} });
    });

    it("PUT and PATCH get 405 with the allowed methods; the session is untouched", async () => {
      const session = await initSession(url);
      const before = fixture.store.size;
      for (const method of ["PUT", "PATCH"]) {
        const answer = await toAnswer(
          await fetch(url, {
            method,
            headers: { ...POST_HEADERS, ...session.headers },
            body: JSON.stringify(callRecord({ n: 1 })),
          }),
        );
        expectError(answer, 405, SESSION_ERROR, new RegExp(`Method Not Allowed: ${method}`));
        expect(answer.headers.get("allow")).toBe("GET, POST, DELETE");
      }
      expect(fixture.store.size).toBe(before);
      await expectServed(url, session);
    });

    it("a Last-Event-ID from another session gets 400 and replays nothing", async () => {
      const owner = await initSession(url);
      const intruder = await initSession(url);
      // The owner's call streams progress (SSE with event ids) before its result.
      const call = await post(
        url,
        rpc("tools/call", { name: "chatty", arguments: {}, _meta: { progressToken: "lei" } }),
        owner.headers,
      );
      expect(call.headers.get("content-type")).toContain("text/event-stream");
      const ids = call.events.map((event) => event.id).filter((id): id is string => id !== undefined);
      expect(ids.length).toBeGreaterThanOrEqual(3);
      const firstId = ids[0]!;

      for (const headers of [
        { ...intruder.headers, accept: "text/event-stream", "last-event-id": firstId },
        { ...intruder.headers, accept: "text/event-stream" },
      ]) {
        const target = "last-event-id" in headers ? url : `${url}?lastEventId=${encodeURIComponent(firstId)}`;
        const answer = await send(target, "GET", headers);
        expectError(answer, 400, SESSION_ERROR, /Last-Event-ID/);
        expect(answer.text).not.toContain("chatted");
        expect(answer.text).not.toContain("notifications/progress");
      }
      // The intruder's own stream still opens (the 400 did not take it), and it is empty.
      const own = await openGet(url, { ...intruder.headers, accept: "text/event-stream" });
      expect(own.response.status).toBe(200);
      own.close();

      // The owner resumes with the same id: the id was valid, it was only not the intruder's.
      const replay = await send(url, "GET", {
        ...owner.headers,
        accept: "text/event-stream",
        "last-event-id": firstId,
      });
      expect(replay.status, replay.text).toBe(200);
      expect(replay.text).toContain("chatted");
      await expectServed(url, intruder);
    });
  });
});
