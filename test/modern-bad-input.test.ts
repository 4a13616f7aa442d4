/**
 * Bad input on the modern (2026-07-28, stateless) lane, architecture §6 and wire.md §2–§7: every
 * malformed thing gets the exact JSON-RPC error with the right HTTP status (dual-era clients pick their
 * era from these bodies), the error echoes the request id, and nothing else changes — no tool, prompt
 * or resource handler runs past the check, no legacy session is created — and the next good modern
 * request on the same server is served.
 *
 * Everything goes over real HTTP with raw `fetch` (no SDK client, which would refuse to send most of
 * this), on both hosts. `node:http` is used where `fetch` cannot send the case: a `Host` header, header
 * names in a chosen letter case, values with surrounding whitespace.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { z } from "zod";
import {
  MemorySessionStore,
  defineMcpHandler,
  definePrompt,
  defineResource,
  defineResourceTemplate,
  defineTool,
  type CacheHints,
  type McpEventHandler,
  type McpHandlerOptions,
} from "../src/index.ts";
import { deferred, type Deferred } from "./helpers/deferred.ts";
import { HOSTS, startHost, type HostName, type RunningHost } from "./helpers/hosts.ts";
import {
  POST_HEADERS,
  expectError as expectRpcError,
  nodeRequest,
  single,
  toAnswer,
  type Answer,
  type RpcError,
  type RpcMessage,
} from "./helpers/rpc.ts";
import { sleep } from "./helpers/wait.ts";

// Wire constants spelled out here (not imported from src/) so that a drift in the library shows up.
const MODERN = "2026-07-28";
const LEGACY = "2025-11-25";
const META_PROTOCOL_VERSION = "io.modelcontextprotocol/protocolVersion";
const META_CLIENT_CAPABILITIES = "io.modelcontextprotocol/clientCapabilities";
const META_CLIENT_INFO = "io.modelcontextprotocol/clientInfo";
const META_LOG_LEVEL = "io.modelcontextprotocol/logLevel";
const META_SERVER_INFO = "io.modelcontextprotocol/serverInfo";
const META_SUBSCRIPTION_ID = "io.modelcontextprotocol/subscriptionId";
const PARSE_ERROR = -32700;
const INVALID_REQUEST = -32600;
const METHOD_NOT_FOUND = -32601;
const INVALID_PARAMS = -32602;
const INTERNAL_ERROR = -32603;
const HEADER_MISMATCH = -32020;
const MISSING_CAPABILITY = -32021;
const UNSUPPORTED_VERSION = -32022;
/** The legacy-range code of transport-level refusals (403, 413, 415). */
const TRANSPORT_ERROR = -32000;
const SERVER_INFO = { name: "modern-bad-input", version: "1.0.0" };
const CLIENT_INFO = { name: "modern-bad-input-test", version: "1.0.0" };
const CACHEABLE = [
  "server/discover",
  "tools/list",
  "prompts/list",
  "resources/list",
  "resources/templates/list",
  "resources/read",
];
const SHORT_MAX_BODY = 4096;

// ---------------------------------------------------------------------------------------------
// Small helpers

let nextId = 1;

/** The modern `_meta` envelope; an `undefined` in `changes` removes that key. */
function envelope(changes: Record<string, unknown> = {}): Record<string, unknown> {
  const meta: Record<string, unknown> = {
    [META_PROTOCOL_VERSION]: MODERN,
    [META_CLIENT_CAPABILITIES]: {},
    [META_CLIENT_INFO]: CLIENT_INFO,
    ...changes,
  };
  for (const key of Object.keys(meta)) if (meta[key] === undefined) delete meta[key];
  return meta;
}

/** A modern request: `params` plus the envelope (changed by `meta`) under `_meta`. */
function modern(
  method: string,
  params: Record<string, unknown> = {},
  meta: Record<string, unknown> = {},
  id: string | number = nextId++,
): RpcMessage {
  return { jsonrpc: "2.0", id, method, params: { ...params, _meta: envelope(meta) } };
}

/** A legacy-shaped request without any `_meta` claim. */
function bare(method: string, params?: Record<string, unknown>, id: string | number = nextId++): RpcMessage {
  return params === undefined ? { jsonrpc: "2.0", id, method } : { jsonrpc: "2.0", id, method, params };
}

/** `tools/call` of the `record` tool, whose only effect is to log `record:<n>`. */
function callRecord(n: unknown, meta: Record<string, unknown> = {}): RpcMessage {
  return modern("tools/call", { name: "record", arguments: { n } }, meta);
}

/** The base64 sentinel of SEP-2243 for a UTF-8 value. */
function sentinel(value: string): string {
  return `=?base64?${Buffer.from(value, "utf8").toString("base64")}?=`;
}

/** A header value as a conforming client writes it: plain visible ASCII as is, anything else as a sentinel. */
function headerValue(value: string): string {
  const plain = /^[\x21-\x7E](?:[\x20-\x7E]*[\x21-\x7E])?$/.test(value) && !/^=\?base64\?.*\?=$/.test(value);
  return plain ? value : sentinel(value);
}

/** The standard headers (SEP-2243) a conforming client sends with `message`. */
function standardHeaders(message: RpcMessage): Record<string, string> {
  const headers: Record<string, string> = {};
  const params = message.params ?? {};
  const meta = (params._meta ?? {}) as Record<string, unknown>;
  const version = meta[META_PROTOCOL_VERSION];
  if (typeof version === "string") headers["mcp-protocol-version"] = version;
  if (typeof message.method === "string") headers["mcp-method"] = message.method;
  const name =
    message.method === "tools/call" || message.method === "prompts/get"
      ? params.name
      : message.method === "resources/read"
        ? params.uri
        : undefined;
  if (typeof name === "string") headers["mcp-name"] = headerValue(name);
  return headers;
}

/** Header changes on top of the standard ones: a string replaces, `null` removes. */
type HeaderEdits = Record<string, string | null>;

function headersFor(message: unknown, edits: HeaderEdits): Record<string, string> {
  const headers: Record<string, string> = { ...POST_HEADERS };
  if (!Array.isArray(message)) Object.assign(headers, standardHeaders(message as RpcMessage));
  for (const [name, value] of Object.entries(edits)) {
    const key = name.toLowerCase();
    if (value === null) delete headers[key];
    else headers[key] = value;
  }
  return headers;
}

/** Every answer here is short: a stream left open by mistake fails the test instead of hanging it. */
const ANSWER_TIMEOUT_MS = 5000;

/** POSTs a message with the standard headers a modern client would send, changed by `edits`. */
async function post(url: string, message: unknown, edits: HeaderEdits = {}): Promise<Answer> {
  const headers = headersFor(message, edits);
  const signal = AbortSignal.timeout(ANSWER_TIMEOUT_MS);
  return toAnswer(await fetch(url, { method: "POST", headers, body: JSON.stringify(message), signal }));
}

/**
 * Asserts a JSON-RPC error answer for `request` and returns the error. The id is echoed whenever the
 * request's id is readable; a modern answer never opens a legacy session.
 */
function expectError(
  answer: Answer,
  request: RpcMessage | undefined,
  status: number,
  code: number,
  message?: RegExp | string,
): RpcError {
  const error = expectRpcError(answer, status, code, message);
  expect(answer.headers.get("mcp-session-id")).toBeNull();
  if (request !== undefined) expect(single(answer).id, `id not echoed: ${answer.text}`).toBe(request.id);
  return error;
}

/** Asserts a modern success for `request`: `resultType` and the server's identity on every result. */
function expectResult(answer: Answer, request: RpcMessage, resultType = "complete"): Record<string, unknown> {
  expect(answer.status, answer.text).toBe(200);
  expect(answer.headers.get("mcp-session-id")).toBeNull();
  const body = single(answer);
  expect(body.error, answer.text).toBeUndefined();
  expect(body.id).toBe(request.id);
  const result = body.result!;
  expect(result.resultType, answer.text).toBe(resultType);
  expect((result._meta as Record<string, unknown> | undefined)?.[META_SERVER_INFO]).toEqual(SERVER_INFO);
  return result;
}

/** The text of the first content item of a tool or resource result. */
function textOf(result: Record<string, unknown>): string | undefined {
  const content = (result.content ?? result.contents) as { text?: string }[] | undefined;
  return content?.[0]?.text;
}

/** The `-32020` error's `data.mismatch.header`: which header the server blamed. */
function blamedHeader(error: RpcError): unknown {
  return (error.data as { mismatch?: { header?: unknown } } | undefined)?.mismatch?.header;
}

// ---------------------------------------------------------------------------------------------
// The server under test

interface Fixture {
  store: MemorySessionStore;
  /** Side effects of every handler, in order ("record:1", "ask:run", "sampling:after", …). */
  effects: string[];
  /** Levels passed to onLogLevelSet (a modern logging/setLevel must not reach it). */
  levels: string[];
  /** The `slow` tool waits for `release`, and says whether its signal was aborted by then. */
  slow: { started: Deferred; release: Deferred; abortedAtEnd: boolean | undefined };
}

function newFixture(): Fixture {
  return {
    store: new MemorySessionStore(),
    effects: [],
    levels: [],
    slow: { started: deferred(), release: deferred(), abortedAtEnd: undefined },
  };
}

interface Snapshot {
  effects: number;
  sessions: number;
  levels: number;
}

function snapshot(fixture: Fixture): Snapshot {
  return { effects: fixture.effects.length, sessions: fixture.store.size, levels: fixture.levels.length };
}

/** Nothing ran and no legacy session was created since `before`. */
function expectUnchanged(fixture: Fixture, before: Snapshot): void {
  expect(fixture.effects.slice(before.effects)).toEqual([]);
  expect(fixture.store.size).toBe(before.sessions);
  expect(fixture.levels).toHaveLength(before.levels);
}

let nextN = 1000;

/** The next good modern request on the same server is served, and runs its handler once. */
async function expectServed(url: string, fixture: Fixture): Promise<void> {
  const sessions = fixture.store.size;
  const n = nextN++;
  const message = callRecord(n);
  const result = expectResult(await post(url, message), message);
  expect(textOf(result)).toBe(`recorded ${n}`);
  expect(fixture.effects.at(-1)).toBe(`record:${n}`);
  expect(fixture.store.size).toBe(sessions);
}

const NAME_FORM = z.object({ name: z.string() });

function handlerOptions(fixture: Fixture, extra: Partial<McpHandlerOptions> = {}): McpHandlerOptions {
  const log = (effect: string): void => void fixture.effects.push(effect);
  const loggedText = (effect: string, text: string): string => {
    log(effect);
    return text;
  };
  return {
    name: SERVER_INFO.name,
    version: SERVER_INFO.version,
    logging: true,
    onLogLevelSet: (level) => void fixture.levels.push(level),
    sessions: { store: fixture.store },
    // Per-operation hints: the lowest-precedence author above the default.
    cacheHints: { "resources/read": { ttlMs: 500, cacheScope: "public" } },
    tools: [
      defineTool({
        name: "record",
        input: z.object({ n: z.number() }),
        handler: (_event, { n }) => {
          log(`record:${n}`);
          return `recorded ${n}`;
        },
      }),
      defineTool({
        name: "regional",
        // A plain JSON Schema: the x-mcp-header declarations travel verbatim (SEP-2243).
        input: {
          type: "object",
          properties: {
            region: { type: "string", "x-mcp-header": "Region" },
            count: { type: "integer", "x-mcp-header": "Count" },
            dry: { type: "boolean", "x-mcp-header": "Dry" },
            note: { type: "string" },
          },
        },
        handler: (_event, args) => {
          log(`regional:${JSON.stringify(args)}`);
          return "deployed";
        },
      }),
      defineTool({
        name: "needs-sampling",
        handler: (event) => {
          const mcp = event.context.mcp!;
          log("sampling:before");
          mcp.requireClientCapability("sampling");
          log("sampling:after");
          return "sampled";
        },
      }),
      defineTool({
        name: "ask",
        input: z.object({ topic: z.string().optional() }),
        handler: async (event) => {
          const mcp = event.context.mcp!;
          log("ask:run");
          mcp.state = { asked: "user_name" };
          const answer = await mcp.elicit("user_name", "What is your name?", NAME_FORM);
          log(`ask:done:${answer.content?.name}`);
          return `Hello, ${answer.content?.name}!`;
        },
      }),
      defineTool({
        name: "ask-other",
        handler: async (event) => {
          log("ask-other:run");
          const answer = await event.context.mcp!.elicit("user_name", "Who are you?", NAME_FORM);
          log(`ask-other:done:${answer.content?.name}`);
          return `Hi, ${answer.content?.name}`;
        },
      }),
      defineTool({
        name: "slow",
        handler: async (event) => {
          const mcp = event.context.mcp!;
          fixture.slow.started.resolve();
          await fixture.slow.release.promise;
          fixture.slow.abortedAtEnd = mcp.signal.aborted;
          log("slow:done");
          return "finished";
        },
      }),
    ],
    prompts: [
      definePrompt({
        name: "greet",
        arguments: [{ name: "name", required: true }],
        handler: (_event, { name }) => {
          log(`greet:${name}`);
          return `Hello ${name}`;
        },
      }),
      // Names a client must send in the base64 sentinel, or compare literally although they look encoded.
      definePrompt({ name: "grüße", handler: () => loggedText("grüße", "Grüße") }),
      definePrompt({ name: "SGVsbG8=", handler: () => loggedText("literal", "literal") }),
      definePrompt({ name: "=?base64?SGVsbG8=", handler: () => loggedText("half-sentinel", "half sentinel") }),
      definePrompt({
        name: "ask-prompt",
        arguments: [{ name: "topic" }],
        complete: {
          // A completion cannot ask for input: only tools/call, prompts/get and resources/read may.
          topic: async (_value, _context, event) => {
            log("complete:run");
            await event.context.mcp!.elicit("hint", "Which topic?", NAME_FORM);
            log("complete:done");
            return ["never"];
          },
        },
        handler: async (event) => {
          log("ask-prompt:run");
          const answer = await event.context.mcp!.elicit("user_context", "Which context?", NAME_FORM);
          return `Context: ${answer.content?.name}`;
        },
      }),
    ],
    resources: [
      defineResource({
        uri: "docs://readme",
        name: "readme",
        handler: () => loggedText("readme", "# Readme"),
      }),
      defineResource({
        uri: "docs://grüße",
        name: "greetings",
        handler: () => loggedText("greetings", "Grüße"),
      }),
      defineResource({
        uri: "ask://resource",
        name: "ask-resource",
        handler: async (event) => {
          log("ask-resource:run");
          const answer = await event.context.mcp!.elicit("user_name", "Whose resource?", NAME_FORM);
          return `Resource of ${answer.content?.name}`;
        },
      }),
      defineResource({
        uri: "cache://handler",
        name: "cache-handler",
        cacheHints: { ttlMs: 50, cacheScope: "private" },
        handler: (event) => {
          event.context.mcp!.cacheHints = { ttlMs: 5 };
          return "handler hints";
        },
      }),
      defineResource({
        uri: "cache://definition",
        name: "cache-definition",
        cacheHints: { ttlMs: 50 },
        handler: () => "definition hints",
      }),
      defineResource({
        uri: "cache://bad-handler-hints",
        name: "cache-bad-handler-hints",
        cacheHints: { ttlMs: 60, cacheScope: "private" },
        handler: (event) => {
          // A handler's hints are not checked at definition time; the wire must stay valid anyway.
          event.context.mcp!.cacheHints = { ttlMs: 1.5, cacheScope: "shared" } as unknown as CacheHints;
          return "bad handler hints";
        },
      }),
      defineResource({
        uri: "cache://negative-handler-hints",
        name: "cache-negative-handler-hints",
        handler: (event) => {
          event.context.mcp!.cacheHints = { ttlMs: -1 };
          return "negative handler hints";
        },
      }),
      defineResourceTemplate({
        uriTemplate: "items://{id}",
        name: "item",
        cacheHints: { ttlMs: 70, cacheScope: "private" },
        // Nothing at unknown ids: "resource not found", in the modern era's code.
        handler: (_event, { id }) => (id === "1" ? "item 1" : null),
      }),
    ],
    ...extra,
  };
}

interface Servers {
  main: RunningHost;
  mainHandler: McpEventHandler;
  fixture: Fixture;
  /** Tools only; requestState expires after 1 ms; one listen stream at most; small bodies. */
  short: RunningHost;
  shortHandler: McpEventHandler;
  shortFixture: Fixture;
}

async function startServers(host: HostName): Promise<Servers> {
  const fixture = newFixture();
  const shortFixture = newFixture();
  const mainHandler = defineMcpHandler(handlerOptions(fixture));
  const shortHandler = defineMcpHandler(
    handlerOptions(shortFixture, {
      prompts: undefined,
      resources: undefined,
      cacheHints: undefined,
      requestState: { ttlMs: 1 },
      maxListens: 1,
      maxBodyBytes: SHORT_MAX_BODY,
    }),
  );
  return {
    main: await startHost(host, mainHandler),
    mainHandler,
    fixture,
    short: await startHost(host, shortHandler),
    shortHandler,
    shortFixture,
  };
}

/** The elicitation answer a client sends for `NAME_FORM`. */
const accept = (name: string): Record<string, unknown> => ({ action: "accept", content: { name } });

/** Runs the first round of an input-asking request and returns its `requestState`. */
async function firstRound(url: string, message: RpcMessage, key: string): Promise<string> {
  const result = expectResult(await post(url, message), message, "input_required");
  const requests = result.inputRequests as Record<string, { method: string }>;
  expect(requests[key]?.method).toBe("elicitation/create");
  expect(typeof result.requestState).toBe("string");
  return result.requestState as string;
}

/** Opens a listen stream and reads its first event (the acknowledgement); the body stays open. */
async function openListen(
  url: string,
  message: RpcMessage,
): Promise<{ response: Response; first: RpcMessage; close: () => void }> {
  const controller = new AbortController();
  const response = await fetch(url, {
    method: "POST",
    headers: headersFor(message, {}),
    body: JSON.stringify(message),
    signal: controller.signal,
  });
  const close = (): void => {
    controller.abort();
    void response.body?.cancel().catch(() => {});
  };
  expect(response.status).toBe(200);
  expect(response.headers.get("content-type")).toContain("text/event-stream");
  const reader = response.body!.getReader();
  const decoder = new TextDecoder();
  let buffered = "";
  const deadline = Date.now() + 3000;
  while (Date.now() < deadline) {
    const { done, value } = await reader.read();
    if (done) break;
    buffered += decoder.decode(value, { stream: true });
    // Only complete events (the last block may still be arriving); comments carry no data line.
    for (const block of buffered.split("\n\n").slice(0, -1)) {
      const data = /^data: (.*)$/m.exec(block);
      if (data) {
        reader.releaseLock();
        return { response, first: JSON.parse(data[1]!) as RpcMessage, close };
      }
    }
  }
  close();
  throw new Error(`no acknowledgement on the listen stream: ${buffered}`);
}

// ---------------------------------------------------------------------------------------------

describe.each(HOSTS)("modern bad input on %s", (host) => {
  let servers: Servers;
  let url: string;
  let fixture: Fixture;

  beforeAll(async () => {
    servers = await startServers(host);
    url = servers.main.url;
    fixture = servers.fixture;
  });

  afterAll(async () => {
    servers.mainHandler.close();
    servers.shortHandler.close();
    await Promise.all([servers.main.close(), servers.short.close()]);
  });

  describe("Origin and Host (403 before the modern ladder)", () => {
    const EVIL = "http://evil.example.com";

    it("a foreign Origin gets 403 even with a broken envelope; nothing runs", async () => {
      const before = snapshot(fixture);
      // Broken on every rung: no clientCapabilities, a mismatched version header, no Mcp-Method.
      const broken = callRecord(1, { [META_CLIENT_CAPABILITIES]: undefined });
      const answer = await post(url, broken, {
        origin: EVIL,
        "mcp-protocol-version": "1999-01-01",
        "mcp-method": null,
      });
      const error = expectError(answer, undefined, 403, TRANSPORT_ERROR, `Origin "${EVIL}"`);
      expect(error.message).toContain("allowedOrigins");
      // A well-formed modern call from the foreign origin does not run either.
      expectError(await post(url, callRecord(2), { origin: EVIL }), undefined, 403, TRANSPORT_ERROR, /Origin/);
      expectUnchanged(fixture, before);
      // The same call from a loopback origin is served: the 403 came from the Origin alone.
      const port = new URL(url).port;
      const good = callRecord(3);
      expectResult(await post(url, good, { origin: `http://localhost:${port}` }), good);
      expect(fixture.effects.at(-1)).toBe("record:3");
    });

    it("a foreign Host gets 403 even with a broken envelope (DNS rebinding); nothing runs", async () => {
      const port = new URL(url).port;
      const before = snapshot(fixture);
      const broken = modern("server/discover", {}, { [META_CLIENT_CAPABILITIES]: "all" });
      const headers = { ...headersFor(broken, {}), host: `evil.example.com:${port}`, origin: EVIL };
      const answer = await nodeRequest(url, "POST", headers, JSON.stringify(broken));
      const error = expectError(answer, undefined, 403, TRANSPORT_ERROR, /Host|Origin/);
      expect(error.message).toMatch(/allowed(Hosts|Origins)/);
      const hostOnly = { ...headersFor(callRecord(4), {}), host: `evil.example.com:${port}` };
      const hostAnswer = await nodeRequest(url, "POST", hostOnly, JSON.stringify(callRecord(4)));
      expectError(hostAnswer, undefined, 403, TRANSPORT_ERROR, `Host "evil.example.com:${port}"`);
      expectUnchanged(fixture, before);
      // Loopback Host and Origin (what the conformance suite sends next) are served.
      const discover = modern("server/discover");
      const control = await nodeRequest(
        url,
        "POST",
        { ...headersFor(discover, {}), host: `localhost:${port}`, origin: `http://localhost:${port}` },
        JSON.stringify(discover),
      );
      expectResult(control, discover);
      await expectServed(url, fixture);
    });
  });

  describe("body gate with modern headers", () => {
    it("invalid JSON, a wrong Content-Type and an oversize body get 400 / 415 / 413; nothing runs", async () => {
      const { short, shortFixture } = servers;
      const before = snapshot(shortFixture);
      const headers = headersFor(callRecord(1), {});
      const truncated = JSON.stringify(callRecord(1)).slice(0, -3);
      const parse = await toAnswer(await fetch(short.url, { method: "POST", headers, body: truncated }));
      // The id is not readable from a body that does not parse.
      expect(single(parse).id).toBeNull();
      expectError(parse, undefined, 400, PARSE_ERROR, /^Parse error/);
      const text = await toAnswer(
        await fetch(short.url, {
          method: "POST",
          headers: { ...headers, "content-type": "text/plain" },
          body: JSON.stringify(callRecord(1)),
        }),
      );
      expectError(text, undefined, 415, TRANSPORT_ERROR, /Content-Type must be application\/json/);
      const big = callRecord(1, { padding: "x".repeat(2 * SHORT_MAX_BODY) });
      expectError(await post(short.url, big), undefined, 413, TRANSPORT_ERROR, /maxBodyBytes/);
      expectUnchanged(shortFixture, before);
      await expectServed(short.url, shortFixture);
    });

    it("deeply nested arguments get 400 -32602 naming maxJsonDepth, no crash; the handler does not run", async () => {
      const before = snapshot(fixture);
      const depth = 100_000;
      const nested = '{"a":'.repeat(depth) + "1" + "}".repeat(depth);
      const message = callRecord(0);
      const body = JSON.stringify(message).replace('"n":0', `"n":${nested}`);
      const answer = await toAnswer(await fetch(url, { method: "POST", headers: headersFor(message, {}), body }));
      // The gate refuses it before the id is read: id null.
      const error = expectRpcError(answer, 400, INVALID_PARAMS, /maxJsonDepth \(64 /);
      expect(single(answer).id).toBeNull();
      expect(error.data).toEqual({ maxJsonDepth: 64 });
      expectUnchanged(fixture, before);
      await expectServed(url, fixture);
    });
  });

  describe("the _meta envelope (400 -32602)", () => {
    it("a modern MCP-Protocol-Version header without a _meta claim names the missing keys", async () => {
      const before = snapshot(fixture);
      const headers = { "mcp-protocol-version": MODERN, "mcp-method": "tools/call", "mcp-name": "record" };
      const noMeta = bare("tools/call", { name: "record", arguments: { n: 1 } });
      const error = expectError(await post(url, noMeta, headers), noMeta, 400, INVALID_PARAMS, /_meta/);
      expect(error.message).toContain(META_PROTOCOL_VERSION);
      expect(error.data).toEqual({ envelope: { missing: [META_PROTOCOL_VERSION, META_CLIENT_CAPABILITIES] } });
      // Other _meta keys are not a claim; only the absent required key is named.
      const partial = bare("tools/call", {
        name: "record",
        arguments: { n: 1 },
        _meta: { [META_CLIENT_CAPABILITIES]: {}, progressToken: "p" },
      });
      const partialError = expectError(await post(url, partial, headers), partial, 400, INVALID_PARAMS);
      expect(partialError.data).toEqual({ envelope: { missing: [META_PROTOCOL_VERSION] } });
      // Empty params (the conformance probe 101).
      const noParams = bare("tools/list", {});
      const noParamsError = expectError(
        await post(url, noParams, { "mcp-protocol-version": MODERN, "mcp-method": "tools/list" }),
        noParams,
        400,
        INVALID_PARAMS,
      );
      expect((noParamsError.data as { envelope: { missing: string[] } }).envelope.missing).toContain(
        META_PROTOCOL_VERSION,
      );
      expectUnchanged(fixture, before);
      await expectServed(url, fixture);
    });

    /** Sends each value of one envelope key and expects -32602 naming that key. */
    async function expectEnvelopeRejected(key: string, values: unknown[]): Promise<void> {
      const before = snapshot(fixture);
      for (const value of values) {
        const message = callRecord(1, { [key]: value });
        // The version header stays a good one, so the envelope is the only thing wrong.
        const answer = await post(url, message, { "mcp-protocol-version": MODERN });
        const error = expectError(answer, message, 400, INVALID_PARAMS, /Invalid _meta envelope/);
        expect(error.message, `${key} = ${JSON.stringify(value)}`).toContain(key);
        const data = error.data as { envelope?: { key?: unknown; problem?: unknown } };
        expect(data.envelope?.key, `${key} = ${JSON.stringify(value)}: ${JSON.stringify(error)}`).toBe(key);
        expect(typeof data.envelope?.problem).toBe("string");
      }
      expectUnchanged(fixture, before);
      await expectServed(url, fixture);
    }

    it("a claim without clientCapabilities names the key", async () => {
      await expectEnvelopeRejected(META_CLIENT_CAPABILITIES, [undefined]);
    });

    it("a claim whose protocolVersion is not a non-empty string names the key", async () => {
      await expectEnvelopeRejected(META_PROTOCOL_VERSION, [20260728, "", null, { v: MODERN }]);
    });

    it("clientCapabilities that is not an object names the key", async () => {
      await expectEnvelopeRejected(META_CLIENT_CAPABILITIES, ["all", [], null, 42, true]);
    });

    it("a clientCapabilities member that is not an object names the key", async () => {
      // ClientCapabilities types sampling/elicitation/roots as objects; the TS SDK's envelope schema
      // rejects these too (wire.md §3.1: a malformed envelope is -32602 / 400).
      await expectEnvelopeRejected(META_CLIENT_CAPABILITIES, [{ sampling: true }, { elicitation: "yes" }]);
    });

    it("malformed clientInfo names the key", async () => {
      await expectEnvelopeRejected(META_CLIENT_INFO, [
        "me",
        [],
        null,
        { name: "x" },
        { version: "1" },
        { name: 1, version: "1" },
      ]);
    });

    it("an invalid logLevel names the key", async () => {
      await expectEnvelopeRejected(META_LOG_LEVEL, ["verbose", "ERROR", 3, null]);
    });

    it("a progressToken that is neither a string nor an integer names the key", async () => {
      await expectEnvelopeRejected("progressToken", [true, 1.5, {}, [], null]);
    });
  });

  describe("the protocol version (400 -32022 / -32020)", () => {
    it("an unsupported claimed version (header = body) gets -32022 with supported and requested", async () => {
      const before = snapshot(fixture);
      const discover = modern("server/discover");
      const advertised = expectResult(await post(url, discover), discover).supportedVersions;
      for (const version of ["1999-01-01", "v999.0.0", "2099-01-01"]) {
        const message = callRecord(1, { [META_PROTOCOL_VERSION]: version });
        expect(standardHeaders(message)["mcp-protocol-version"]).toBe(version);
        const error = expectError(await post(url, message), message, 400, UNSUPPORTED_VERSION, version);
        expect(error.data).toEqual({ supported: [MODERN], requested: version });
        // Every version the error offers is one discover advertises (conformance §3 rung 8).
        for (const supported of (error.data as { supported: string[] }).supported) {
          expect(advertised).toContain(supported);
        }
      }
      expectUnchanged(fixture, before);
      await expectServed(url, fixture);
    });

    it("a version header that differs from the body gets -32020, before the version is judged", async () => {
      const before = snapshot(fixture);
      const cases: [string, string][] = [
        // Body unsupported, header supported: -32020 must win over -32022 (conformance §3 rung 7).
        ["v999.0.0", MODERN],
        ["1999-01-01", MODERN],
        [MODERN, "1999-01-01"],
        [MODERN, LEGACY],
      ];
      for (const [body, header] of cases) {
        const message = callRecord(1, { [META_PROTOCOL_VERSION]: body });
        const answer = await post(url, message, { "mcp-protocol-version": header });
        const error = expectError(answer, message, 400, HEADER_MISMATCH, /MCP-Protocol-Version/);
        expect(blamedHeader(error)).toBe("MCP-Protocol-Version");
      }
      expectUnchanged(fixture, before);
      await expectServed(url, fixture);
    });

    it("a missing MCP-Protocol-Version header gets -32020 naming it", async () => {
      const before = snapshot(fixture);
      const message = callRecord(1);
      const answer = await post(url, message, { "mcp-protocol-version": null });
      const error = expectError(answer, message, 400, HEADER_MISMATCH, /MCP-Protocol-Version header is required/);
      expect(blamedHeader(error)).toBe("MCP-Protocol-Version");
      expectUnchanged(fixture, before);
      await expectServed(url, fixture);
    });
  });

  describe("standard headers (400 -32020)", () => {
    it("a missing or different Mcp-Method gets -32020; values are case-sensitive", async () => {
      const before = snapshot(fixture);
      const list = modern("tools/list");
      for (const value of [null, "prompts/list", "TOOLS/LIST", "tools/list/", ""]) {
        const answer = await post(url, list, { "mcp-method": value });
        const error = expectError(answer, list, 400, HEADER_MISMATCH, /Mcp-Method/);
        expect(blamedHeader(error)).toBe("Mcp-Method");
      }
      const call = callRecord(1);
      expectError(await post(url, call, { "mcp-method": "tools/list" }), call, 400, HEADER_MISMATCH, /Mcp-Method/);
      expectError(await post(url, call, { "mcp-method": "Tools/Call" }), call, 400, HEADER_MISMATCH, /Mcp-Method/);
      expectUnchanged(fixture, before);
      await expectServed(url, fixture);
    });

    it("header names are case-insensitive; surrounding whitespace is not part of a value", async () => {
      const n = nextN++;
      const call = callRecord(n);
      const body = JSON.stringify(call);
      const base = { "Content-Type": "application/json", Accept: POST_HEADERS.accept };
      // node:http sends the names exactly as written here.
      const upper = { ...base, "MCP-PROTOCOL-VERSION": MODERN, "MCP-METHOD": "tools/call", "MCP-NAME": "record" };
      expectResult(await nodeRequest(url, "POST", upper, body), call);
      const lower = { ...base, "mcp-protocol-version": MODERN, "mcp-method": "tools/call", "mcp-name": "record" };
      expectResult(await nodeRequest(url, "POST", lower, body), call);
      const mixed = { ...base, "mCp-PrOtOcOl-VeRsIoN": MODERN, "mcp-METHOD": "tools/call", "Mcp-name": "record" };
      expectResult(await nodeRequest(url, "POST", mixed, body), call);
      // The conformance probe 103: "  record  " is the value "record" (HTTP strips optional whitespace).
      const spaced = { ...base, "MCP-Protocol-Version": MODERN, "Mcp-Method": "tools/call", "Mcp-Name": "  record  " };
      expectResult(await nodeRequest(url, "POST", spaced, body), call);
      // Mcp-Param-* names too.
      const regional = modern("tools/call", { name: "regional", arguments: { region: "eu" } });
      const param = {
        ...base,
        "MCP-Protocol-Version": MODERN,
        "Mcp-Method": "tools/call",
        "Mcp-Name": "regional",
        "MCP-PARAM-REGION": "eu",
      };
      expectResult(await nodeRequest(url, "POST", param, JSON.stringify(regional)), regional);
      expect(fixture.effects.slice(-5)).toEqual([
        `record:${n}`,
        `record:${n}`,
        `record:${n}`,
        `record:${n}`,
        'regional:{"region":"eu"}',
      ]);
    });

    it("a missing or different Mcp-Name gets -32020 for tools/call, prompts/get and resources/read", async () => {
      const before = snapshot(fixture);
      const requests = [
        callRecord(1),
        modern("prompts/get", { name: "greet", arguments: { name: "Ada" } }),
        modern("resources/read", { uri: "docs://readme" }),
      ];
      for (const message of requests) {
        for (const value of [null, "other", "RECORD", "greet ", "docs://README"]) {
          // "greet " is "greet" on the wire (trimmed), so it is only a mismatch for the other two.
          if (value === "greet " && message.params?.name === "greet") continue;
          const answer = await post(url, message, { "mcp-name": value });
          const error = expectError(answer, message, 400, HEADER_MISMATCH, /Mcp-Name/);
          expect(blamedHeader(error)).toBe("Mcp-Name");
        }
      }
      expectUnchanged(fixture, before);
      // The same three requests with their right Mcp-Name are served.
      for (const message of requests) {
        const fresh = { ...message, id: nextId++ };
        expectResult(await post(url, fresh), fresh);
      }
      expect(fixture.effects.slice(before.effects)).toEqual(["record:1", "greet:Ada", "readme"]);
    });

    it("a base64 sentinel is decoded before it is compared; a non-sentinel value is compared literally", async () => {
      const before = snapshot(fixture);
      // Accepted: the sentinel of the body value, for each method that carries Mcp-Name.
      const record = callRecord(7);
      expectResult(await post(url, record, { "mcp-name": sentinel("record") }), record);
      const umlaut = modern("prompts/get", { name: "grüße" });
      expect(standardHeaders(umlaut)["mcp-name"]).toBe(sentinel("grüße"));
      expectResult(await post(url, umlaut), umlaut);
      const resource = modern("resources/read", { uri: "docs://grüße" });
      expectResult(await post(url, resource), resource);
      // Values that only look encoded are plain values (conformance 203, 204).
      const literal = modern("prompts/get", { name: "SGVsbG8=" });
      expectResult(await post(url, literal, { "mcp-name": "SGVsbG8=" }), literal);
      const half = modern("prompts/get", { name: "=?base64?SGVsbG8=" });
      expectResult(await post(url, half, { "mcp-name": "=?base64?SGVsbG8=" }), half);
      expect(fixture.effects.slice(before.effects)).toEqual([
        "record:7",
        "grüße",
        "greetings",
        "literal",
        "half-sentinel",
      ]);
      await expectServed(url, fixture);
    });

    it("an invalid base64 sentinel, or one of another value, gets -32020; nothing runs", async () => {
      const before = snapshot(fixture);
      const greet = modern("prompts/get", { name: "greet", arguments: { name: "Ada" } });
      expect(sentinel("greet")).toBe("=?base64?Z3JlZXQ=?=");
      const bad = [
        "=?base64?Z3JlZXQ?=", // missing padding
        "=?base64?Z3Jl!!ZXQ=?=", // characters outside the alphabet
        "=?base64?Z3JlZXQ==?=", // too much padding
        "=?base64?Z3Jl ZXQ=?=", // inner space
        "=?base64?//4=?=", // bytes that are not UTF-8
        sentinel("record"), // valid, but another value
        "=?BASE64?Z3JlZXQ=?=", // markers are case-sensitive: compared literally, and not "greet"
        "Z3JlZXQ=", // the bare payload is a literal value
      ];
      for (const value of bad) {
        const error = expectError(await post(url, greet, { "mcp-name": value }), greet, 400, HEADER_MISMATCH);
        expect(blamedHeader(error), value).toBe("Mcp-Name");
      }
      // A sentinel of the right name in another normalisation (NFD) is another value.
      const umlaut = modern("prompts/get", { name: "grüße" });
      const nfd = sentinel("grüße".normalize("NFD"));
      expectError(await post(url, umlaut, { "mcp-name": nfd }), umlaut, 400, HEADER_MISMATCH, /Mcp-Name/);
      // A body value that is itself a sentinel must be sent encoded: sent as it is, it decodes to another value.
      const encoded = modern("prompts/get", { name: sentinel("greet") });
      expectError(
        await post(url, encoded, { "mcp-name": sentinel("greet") }),
        encoded,
        400,
        HEADER_MISMATCH,
        /Mcp-Name/,
      );
      expectUnchanged(fixture, before);
      await expectServed(url, fixture);
    });

    describe("Mcp-Param-* for x-mcp-header arguments", () => {
      const regional = (args: Record<string, unknown>): RpcMessage =>
        modern("tools/call", { name: "regional", arguments: args });

      it("tools/list carries the declarations verbatim", async () => {
        const list = modern("tools/list");
        const tools = expectResult(await post(url, list), list).tools as {
          name: string;
          inputSchema: { properties: Record<string, Record<string, unknown>> };
        }[];
        const tool = tools.find((entry) => entry.name === "regional")!;
        expect(tool.inputSchema.properties.region!["x-mcp-header"]).toBe("Region");
        expect(tool.inputSchema.properties.count!["x-mcp-header"]).toBe("Count");
      });

      it("accepted: equal strings, sentinels, numerically equal integers, booleans, absent arguments", async () => {
        const before = snapshot(fixture);
        const accepted: [Record<string, unknown>, HeaderEdits][] = [
          [{ region: "eu-west" }, { "mcp-param-region": "eu-west" }],
          [{ region: "Hello" }, { "mcp-param-region": "=?base64?SGVsbG8=?=" }], // conformance 200
          [{ region: "SGVsbG8=" }, { "mcp-param-region": "SGVsbG8=" }], // 203: literal
          [{ region: "=?base64?SGVsbG8=" }, { "mcp-param-region": "=?base64?SGVsbG8=" }], // 204: literal
          [{ region: "zürich" }, { "mcp-param-region": sentinel("zürich") }],
          [{ count: 42 }, { "mcp-param-count": "42" }],
          // Integers compare numerically (SEP-2243: 42.0 == 42).
          [{ count: 42 }, { "mcp-param-count": "42.0" }],
          [{ count: -3 }, { "mcp-param-count": "-3" }],
          [{ dry: true }, { "mcp-param-dry": "true" }],
          [{ dry: false }, { "mcp-param-dry": "false" }],
          // An argument that is absent needs no header, and an undeclared one is never mirrored.
          [{}, {}],
          [{ note: "no header for me" }, {}],
          [
            { region: "us", count: 1, dry: false },
            { "mcp-param-region": "us", "mcp-param-count": "1", "mcp-param-dry": "false" },
          ],
        ];
        for (const [args, edits] of accepted) {
          const message = regional(args);
          const result = expectResult(await post(url, message, edits), message);
          expect(result.isError, `${JSON.stringify(args)}: ${JSON.stringify(result)}`).toBeUndefined();
        }
        expect(fixture.effects.slice(before.effects)).toEqual(
          accepted.map(([args]) => `regional:${JSON.stringify(args)}`),
        );
        expect(fixture.store.size).toBe(before.sessions);
      });

      it("a null argument needs no header: the arguments are judged by the schema, not the header check", async () => {
        const before = snapshot(fixture);
        const message = regional({ region: null });
        const result = expectResult(await post(url, message), message);
        // Not -32020: the schema (type string) turns null away as a tool error the model can read.
        expect(result.isError).toBe(true);
        expect(textOf(result)).toMatch(/Invalid arguments for tool regional/);
        expectUnchanged(fixture, before);
      });

      it("a missing, different or undecodable Mcp-Param header gets -32020; the tool does not run", async () => {
        const before = snapshot(fixture);
        const rejected: [Record<string, unknown>, HeaderEdits, string][] = [
          [{ region: "test-value" }, {}, "Mcp-Param-Region"], // conformance 205: header absent
          [{ region: "eu" }, { "mcp-param-region": "us" }, "Mcp-Param-Region"],
          [{ region: "eu" }, { "mcp-param-region": "EU" }, "Mcp-Param-Region"],
          [{ region: "Hello" }, { "mcp-param-region": "=?base64?SGVsbG8?=" }, "Mcp-Param-Region"], // 201
          [{ region: "Hello" }, { "mcp-param-region": "=?base64?SGVs!!!bG8=?=" }, "Mcp-Param-Region"], // 202
          [{ region: "Hello" }, { "mcp-param-region": sentinel("Hellö") }, "Mcp-Param-Region"],
          [{ count: 42 }, {}, "Mcp-Param-Count"],
          [{ count: 42 }, { "mcp-param-count": "43" }, "Mcp-Param-Count"],
          [{ count: 42 }, { "mcp-param-count": "forty-two" }, "Mcp-Param-Count"],
          [{ count: 0 }, { "mcp-param-count": "" }, "Mcp-Param-Count"],
          [{ dry: true }, { "mcp-param-dry": "True" }, "Mcp-Param-Dry"],
          [{ dry: true }, { "mcp-param-dry": "1" }, "Mcp-Param-Dry"],
          [{ dry: false }, {}, "Mcp-Param-Dry"],
          // One good header does not excuse a missing other one.
          [{ region: "eu", count: 1 }, { "mcp-param-region": "eu" }, "Mcp-Param-Count"],
          // A header sent under another declaration's name is not the one required.
          [{ region: "eu" }, { "mcp-param-count": "eu" }, "Mcp-Param-Region"],
        ];
        for (const [args, edits, header] of rejected) {
          const message = regional(args);
          const answer = await post(url, message, edits);
          const error = expectError(answer, message, 400, HEADER_MISMATCH, new RegExp(header));
          expect(blamedHeader(error), `${JSON.stringify(args)} ${JSON.stringify(edits)}`).toBe(header);
        }
        expectUnchanged(fixture, before);
        await expectServed(url, fixture);
      });
    });
  });

  describe("methods the modern era does not serve (404 -32601)", () => {
    it("modern-claimed initialize, ping, logging/setLevel, resources/(un)subscribe and unknown methods", async () => {
      const before = snapshot(fixture);
      const requests = [
        modern("initialize", { protocolVersion: LEGACY, capabilities: {}, clientInfo: CLIENT_INFO }),
        // The same with the envelope declaring a modern revision in the legacy field too.
        modern("initialize", { protocolVersion: MODERN, capabilities: {}, clientInfo: CLIENT_INFO }),
        modern("ping"),
        modern("logging/setLevel", { level: "debug" }),
        modern("resources/subscribe", { uri: "docs://readme" }),
        modern("resources/unsubscribe", { uri: "docs://readme" }),
        modern("tools/explode"),
        modern("notifications/initialized"),
        modern("elicitation/create", { message: "hi", requestedSchema: { type: "object", properties: {} } }),
      ];
      for (const message of requests) {
        const answer = await post(url, message);
        expectError(answer, message, 404, METHOD_NOT_FOUND, `Method not found: "${message.method}"`);
      }
      // No legacy session was opened by the modern initialize, and logging/setLevel set nothing.
      expectUnchanged(fixture, before);
      await expectServed(url, fixture);
    });

    it("methods of a capability the server does not declare get 404 as well", async () => {
      const { short, shortFixture } = servers;
      const before = snapshot(shortFixture);
      for (const method of ["prompts/list", "prompts/get", "resources/list", "resources/read", "completion/complete"]) {
        const message = modern(method, method === "resources/read" ? { uri: "docs://readme" } : { name: "greet" });
        expectError(await post(short.url, message), message, 404, METHOD_NOT_FOUND, method);
      }
      expectUnchanged(shortFixture, before);
      await expectServed(short.url, shortFixture);
    });
  });

  describe("batches and notifications", () => {
    it("a batch containing a modern element gets 400 -32600; no element runs, no session", async () => {
      const before = snapshot(fixture);
      const legacyCall = bare("tools/call", { name: "record", arguments: { n: 1 } });
      const modernNotification = {
        jsonrpc: "2.0",
        method: "notifications/initialized",
        params: { _meta: envelope() },
      };
      const batches = [[callRecord(1)], [legacyCall, callRecord(2)], [legacyCall, modernNotification]];
      const headerSets: HeaderEdits[] = [
        {},
        { "mcp-protocol-version": MODERN },
        { "mcp-protocol-version": "2025-03-26" },
      ];
      for (const batch of batches) {
        for (const headers of headerSets) {
          const answer = await post(url, batch, headers);
          expectError(
            answer,
            undefined,
            400,
            INVALID_REQUEST,
            /batches may not contain requests for protocol revision/,
          );
        }
      }
      expectUnchanged(fixture, before);
      await expectServed(url, fixture);
    });

    it("a notification with a modern claim gets 202 and nothing else", async () => {
      const before = snapshot(fixture);
      const notifications = [
        { jsonrpc: "2.0", method: "notifications/initialized", params: { _meta: envelope() } },
        // A request-shaped method without an id is a notification: it must not run the tool.
        {
          jsonrpc: "2.0",
          method: "tools/call",
          params: { name: "record", arguments: { n: 1 }, _meta: envelope() },
        },
        { jsonrpc: "2.0", method: "notifications/roots/list_changed", params: { _meta: envelope() } },
      ];
      for (const message of notifications) {
        const answer = await post(url, message, { "mcp-method": message.method });
        expect(answer.status, answer.text).toBe(202);
        expect(answer.text).toBe("");
        expect(answer.headers.get("mcp-session-id")).toBeNull();
      }
      // The header decides for a notification without a claim: modern, so no legacy session is touched.
      const headerOnly = await post(
        url,
        { jsonrpc: "2.0", method: "notifications/initialized" },
        {
          "mcp-protocol-version": MODERN,
          "mcp-method": "notifications/initialized",
        },
      );
      expect(headerOnly.status).toBe(202);
      expect(headerOnly.text).toBe("");
      expectUnchanged(fixture, before);
      await expectServed(url, fixture);
    });

    it("a modern notifications/cancelled does not cancel a running modern call (disconnect is the cancel)", async () => {
      fixture.slow = { started: deferred(), release: deferred(), abortedAtEnd: undefined };
      const slow = modern("tools/call", { name: "slow", arguments: {} });
      const pending = post(url, slow);
      await fixture.slow.started.promise;
      const cancel = {
        jsonrpc: "2.0",
        method: "notifications/cancelled",
        params: { requestId: slow.id, reason: "test", _meta: envelope() },
      };
      const answer = await post(url, cancel, { "mcp-method": "notifications/cancelled" });
      expect(answer.status).toBe(202);
      expect(answer.text).toBe("");
      fixture.slow.release.resolve();
      const finished = expectResult(await pending, slow);
      expect(textOf(finished)).toBe("finished");
      expect(fixture.slow.abortedAtEnd).toBe(false);
    });
  });

  describe("client capabilities (400 -32021)", () => {
    it("requireClientCapability without the capability gets 400 -32021 with an object; nothing after it runs", async () => {
      const before = snapshot(fixture);
      const message = modern("tools/call", { name: "needs-sampling", arguments: {} });
      const error = expectError(await post(url, message), message, 400, MISSING_CAPABILITY, /sampling/);
      expect(error.data).toEqual({ requiredCapabilities: { sampling: {} } });
      // The handler ran up to the check, and not past it.
      expect(fixture.effects.slice(before.effects)).toEqual(["sampling:before"]);
      expect(fixture.store.size).toBe(before.sessions);
      // Other capabilities do not stand in for it.
      const other = modern(
        "tools/call",
        { name: "needs-sampling", arguments: {} },
        { [META_CLIENT_CAPABILITIES]: { elicitation: {}, roots: {} } },
      );
      expectError(await post(url, other), other, 400, MISSING_CAPABILITY);
      expect(fixture.effects).not.toContain("sampling:after");
      // Declared in this request's _meta: served.
      const declared = modern(
        "tools/call",
        { name: "needs-sampling", arguments: {} },
        { [META_CLIENT_CAPABILITIES]: { sampling: {} } },
      );
      expect(textOf(expectResult(await post(url, declared), declared))).toBe("sampled");
      expect(fixture.effects.at(-1)).toBe("sampling:after");
      // Nothing carries over to the next request either.
      const again = { ...message, id: nextId++ };
      expectError(await post(url, again), again, 400, MISSING_CAPABILITY);
      expect(fixture.effects.at(-1)).toBe("sampling:before");
    });

    it("an elicitation while the client did not declare elicitation gets 400 -32021, not input_required", async () => {
      const before = snapshot(fixture);
      const message = modern(
        "tools/call",
        { name: "ask", arguments: {} },
        { [META_CLIENT_CAPABILITIES]: { sampling: {} } },
      );
      const answer = await post(url, message);
      const error = expectError(answer, message, 400, MISSING_CAPABILITY, /elicitation/);
      const required = (error.data as { requiredCapabilities?: Record<string, unknown> }).requiredCapabilities;
      expect(required).toBeTypeOf("object");
      expect(Object.keys(required!)).toEqual(["elicitation"]);
      expect(required!.elicitation).toBeTypeOf("object");
      expect(answer.text).not.toContain("input_required");
      expect(fixture.effects.slice(before.effects)).toEqual(["ask:run"]);
      // The same for a prompt and a resource that ask.
      const prompt = modern("prompts/get", { name: "ask-prompt" });
      expectError(await post(url, prompt), prompt, 400, MISSING_CAPABILITY, /elicitation/);
      const resource = modern("resources/read", { uri: "ask://resource" });
      expectError(await post(url, resource), resource, 400, MISSING_CAPABILITY, /elicitation/);
      const effects = fixture.effects.slice(before.effects);
      expect(effects.filter((effect) => effect.startsWith("ask:done"))).toEqual([]);
      expect(effects).toEqual(["ask:run", "ask-prompt:run", "ask-resource:run"]);
      await expectServed(url, fixture);
    });
  });

  describe("multi round-trip requests (MRTR)", () => {
    const CAPS = { [META_CLIENT_CAPABILITIES]: { elicitation: {}, sampling: {}, roots: {} } };
    const ask = (params: Record<string, unknown> = {}, args: Record<string, unknown> = {}): RpcMessage =>
      modern("tools/call", { name: "ask", arguments: args, ...params }, CAPS);

    it("input_required comes from tools/call, prompts/get and resources/read, without cache hints", async () => {
      const requests: [RpcMessage, string][] = [
        [ask(), "user_name"],
        [modern("prompts/get", { name: "ask-prompt" }, CAPS), "user_context"],
        [modern("resources/read", { uri: "ask://resource" }, CAPS), "user_name"],
      ];
      for (const [message, key] of requests) {
        const result = expectResult(await post(url, message), message, "input_required");
        const request = (result.inputRequests as Record<string, { method: string; params: Record<string, unknown> }>)[
          key
        ]!;
        expect(request.method).toBe("elicitation/create");
        expect(request.params.requestedSchema).toMatchObject({ type: "object", properties: { name: {} } });
        expect(typeof result.requestState).toBe("string");
        expect(result).not.toHaveProperty("ttlMs");
        expect(result).not.toHaveProperty("cacheScope");
      }
      // The good retry completes (the control for every rejected retry below).
      const first = ask();
      const state = await firstRound(url, first, "user_name");
      const retry = ask({ inputResponses: { user_name: accept("Alice") }, requestState: state });
      expect(textOf(expectResult(await post(url, retry), retry))).toBe("Hello, Alice!");
      expect(fixture.effects.at(-1)).toBe("ask:done:Alice");
    });

    it("inputResponses that is not an object gets -32602; the handler does not run", async () => {
      const before = snapshot(fixture);
      for (const inputResponses of ["user_name=Alice", [accept("Alice")], null, 42, true]) {
        const message = ask({ inputResponses });
        const error = expectError(await post(url, message), message, 200, INVALID_PARAMS, /inputResponses/);
        expect(error.message).not.toMatch(/requestState/);
      }
      expectUnchanged(fixture, before);
      await expectServed(url, fixture);
    });

    it("an inputResponses entry that is not an object gets -32602; the handler does not run", async () => {
      const before = snapshot(fixture);
      for (const entry of [12345, "Alice", null, [accept("Alice")], true]) {
        const message = ask({ inputResponses: { user_name: entry } });
        expectError(await post(url, message), message, 200, INVALID_PARAMS, /inputResponses\["user_name"\]/);
      }
      // A bad entry under a key nobody asked for is still a malformed InputResponses.
      const extra = ask({ inputResponses: { user_name: accept("Alice"), other: "x" } });
      expectError(await post(url, extra), extra, 200, INVALID_PARAMS, /inputResponses\["other"\]/);
      expectUnchanged(fixture, before);
      await expectServed(url, fixture);
    });

    it("a forged answer (unknown action, content off the schema) gets -32602; the call does not complete", async () => {
      const before = snapshot(fixture);
      const forged = [
        { action: "maybe" },
        {},
        { action: "accept", content: { name: 5 } },
        { action: "accept", content: { nickname: "Alice" } },
      ];
      for (const answer of forged) {
        const message = ask({ inputResponses: { user_name: answer } });
        expectError(await post(url, message), message, 200, INVALID_PARAMS, /elicitation response/i);
      }
      expect(fixture.effects.slice(before.effects).filter((effect) => effect !== "ask:run")).toEqual([]);
      expect(fixture.store.size).toBe(before.sessions);
      await expectServed(url, fixture);
    });

    /** Retries `ask` with each state and expects the opaque requestState error; the handler does not run. */
    async function expectStatesRejected(target: string, fixtureOf: Fixture, retries: RpcMessage[]): Promise<void> {
      const before = snapshot(fixtureOf);
      for (const retry of retries) {
        const answer = await post(target, retry);
        const error = expectError(answer, retry, 200, INVALID_PARAMS, "Invalid or expired requestState");
        expect(error.data).toEqual({ reason: "invalid_request_state" });
      }
      expectUnchanged(fixtureOf, before);
      await expectServed(target, fixtureOf);
    }

    it("a tampered requestState gets -32602 'Invalid or expired requestState'; the handler does not run", async () => {
      const state = await firstRound(url, ask(), "user_name");
      const [version, sealed] = state.split(".") as [string, string];
      const flip = (text: string): string => (text[0] === "A" ? "B" : "A") + text.slice(1);
      const flipLast = (text: string): string => text.slice(0, -2) + (text.at(-2) === "A" ? "B" : "A") + text.at(-1);
      const forgedPayload = Buffer.from(
        JSON.stringify({ state: { asked: "admin" }, exp: Date.now() + 60_000, principal: null, digest: "x" }),
      ).toString("base64url");
      const tampered = [
        `${state}-TAMPERED`, // the conformance probe
        `${version}.${flip(sealed)}`, // the IV
        `${version}.${flipLast(sealed)}`, // the tag
        `${version}.${forgedPayload}`,
        `v2.${sealed}`, // the v3 token's bytes under the previous format
        `v4.${sealed}`,
        `v1.${sealed}`,
        `${version}.${sealed.slice(0, 40)}`,
        `${version}.${sealed}.${sealed}`,
        "",
        "v3.",
        "v2.",
        "not a state",
      ];
      const answers = { user_name: accept("Mallory") };
      await expectStatesRejected(
        url,
        fixture,
        tampered.map((requestState) => ask({ inputResponses: answers, requestState })),
      );
      expect(fixture.effects).not.toContain("ask:done:Mallory");
    });

    it("a requestState that is not a string gets -32602; the handler does not run", async () => {
      const state = await firstRound(url, ask(), "user_name");
      const values = [42, { state }, [state], true, null];
      await expectStatesRejected(
        url,
        fixture,
        values.map((requestState) => ask({ inputResponses: { user_name: accept("Mallory") }, requestState })),
      );
    });

    it("an expired requestState gets -32602; the handler does not run", async () => {
      const { short, shortFixture } = servers;
      const state = await firstRound(short.url, ask(), "user_name");
      // requestState.ttlMs is 1 on this server.
      await sleep(30);
      await expectStatesRejected(short.url, shortFixture, [
        ask({ inputResponses: { user_name: accept("Late") }, requestState: state }),
      ]);
      expect(shortFixture.effects).not.toContain("ask:done:Late");
    });

    it("a requestState issued for another request gets -32602; the handler does not run", async () => {
      const state = await firstRound(url, ask({}, { topic: "a" }), "user_name");
      const answers = { user_name: accept("Mallory") };
      const elsewhere = [
        // Same tool, other arguments.
        ask({ inputResponses: answers, requestState: state }, { topic: "b" }),
        ask({ inputResponses: answers, requestState: state }),
        // Another tool that asks the same key.
        modern(
          "tools/call",
          { name: "ask-other", arguments: { topic: "a" }, inputResponses: answers, requestState: state },
          CAPS,
        ),
        // Another method.
        modern("prompts/get", { name: "ask-prompt", inputResponses: answers, requestState: state }, CAPS),
        modern("resources/read", { uri: "ask://resource", inputResponses: answers, requestState: state }, CAPS),
      ];
      await expectStatesRejected(url, fixture, elsewhere);
      // A state sealed by another server (another key) is foreign as well.
      const { short } = servers;
      const foreign = await firstRound(short.url, ask({}, { topic: "a" }), "user_name");
      await expectStatesRejected(url, fixture, [
        ask({ inputResponses: answers, requestState: foreign }, { topic: "a" }),
      ]);
      // The right request with that state is still served.
      const retry = ask({ inputResponses: { user_name: accept("Bob") }, requestState: state }, { topic: "a" });
      expect(textOf(expectResult(await post(url, retry), retry))).toBe("Hello, Bob!");
    });

    it("a retry missing an answer gets a new input_required, not an error", async () => {
      const state = await firstRound(url, ask(), "user_name");
      const retry = ask({
        inputResponses: { wrong_key: { action: "accept", content: { data: "wrong" } } },
        requestState: state,
      });
      const result = expectResult(await post(url, retry), retry, "input_required");
      expect((result.inputRequests as Record<string, { method: string }>).user_name?.method).toBe("elicitation/create");
      expect(typeof result.requestState).toBe("string");
      // Without any state at all too (conformance: missing-input-response).
      const stateless = ask({ inputResponses: { wrong_key: { action: "accept", content: { data: "wrong" } } } });
      expectResult(await post(url, stateless), stateless, "input_required");
      expect(fixture.effects.filter((effect) => effect === "ask:done:undefined")).toEqual([]);
    });

    it("unknown extra keys in inputResponses are ignored", async () => {
      const message = ask({
        inputResponses: {
          user_name: accept("Alice"),
          unknown_extra_key: { action: "accept", content: { foo: "bar" } },
          another_unexpected: { action: "accept", content: { baz: 123 } },
        },
      });
      expect(textOf(expectResult(await post(url, message), message))).toBe("Hello, Alice!");
      expect(fixture.effects.at(-1)).toBe("ask:done:Alice");
    });

    it("a completion cannot ask for input: an error, never input_required", async () => {
      const before = snapshot(fixture);
      const message = modern(
        "completion/complete",
        { ref: { type: "ref/prompt", name: "ask-prompt" }, argument: { name: "topic", value: "t" } },
        CAPS,
      );
      const answer = await post(url, message);
      expect(answer.text).not.toContain("input_required");
      expectError(answer, message, 200, INTERNAL_ERROR, /only tools\/call, prompts\/get and resources\/read/);
      expect(fixture.effects.slice(before.effects)).toEqual(["complete:run"]);
      // Lists never answer input_required, and ignore MRTR fields they do not take.
      for (const method of ["tools/list", "prompts/list"]) {
        const list = modern(method, { inputResponses: { x: {} }, requestState: "garbage" }, CAPS);
        expectResult(await post(url, list), list);
      }
    });
  });

  describe("dispatch errors (in-band on 200)", () => {
    it("an unknown tool gets -32602 naming it", async () => {
      const before = snapshot(fixture);
      const message = modern("tools/call", { name: "nope", arguments: {} });
      expectError(await post(url, message), message, 200, INVALID_PARAMS, 'Unknown tool: "nope"');
      expectUnchanged(fixture, before);
      await expectServed(url, fixture);
    });

    it("invalid tool arguments get an isError result (2026-07-28 ≥ 2025-11-25, SEP-1303); the handler does not run", async () => {
      const before = snapshot(fixture);
      for (const args of [{ n: "one" }, {}, { m: 1 }]) {
        const message = modern("tools/call", { name: "record", arguments: args });
        const result = expectResult(await post(url, message), message);
        expect(result.isError).toBe(true);
        expect(textOf(result)).toMatch(/^Invalid arguments for tool record: .*n/);
      }
      // Arguments that are not an object are a malformed request, not a tool error.
      const notObject = modern("tools/call", { name: "record", arguments: "n=1" });
      expectError(await post(url, notObject), notObject, 200, INVALID_PARAMS, /arguments/);
      expectUnchanged(fixture, before);
      await expectServed(url, fixture);
    });

    it("an unknown resource gets -32602 with data.uri, never the retired -32002", async () => {
      const before = snapshot(fixture);
      for (const uri of ["docs://missing", "items://2"]) {
        const message = modern("resources/read", { uri });
        const error = expectError(await post(url, message), message, 200, INVALID_PARAMS, uri);
        expect(error.data).toEqual({ uri });
      }
      expectUnchanged(fixture, before);
      await expectServed(url, fixture);
    });

    it("an unknown prompt or a missing prompt argument gets -32602", async () => {
      const before = snapshot(fixture);
      const unknown = modern("prompts/get", { name: "nope" });
      expectError(await post(url, unknown), unknown, 200, INVALID_PARAMS, 'Unknown prompt: "nope"');
      const missing = modern("prompts/get", { name: "greet", arguments: {} });
      expectError(await post(url, missing), missing, 200, INVALID_PARAMS, /Missing required argument "name"/);
      expectUnchanged(fixture, before);
    });

    it("a cursor the server never issued gets -32602 on every list", async () => {
      for (const method of ["tools/list", "prompts/list", "resources/list", "resources/templates/list"]) {
        const message = modern(method, { cursor: "bogus" });
        expectError(await post(url, message), message, 200, INVALID_PARAMS, /cursor/);
      }
      await expectServed(url, fixture);
    });
  });

  describe("subscriptions/listen", () => {
    it("a missing or malformed notifications filter gets -32602; no stream opens", async () => {
      const filters: unknown[] = [
        undefined,
        null,
        "all",
        [],
        true,
        { toolsListChanged: "yes" },
        { promptsListChanged: 1 },
        { resourcesListChanged: null },
        { resourceSubscriptions: "docs://readme" },
        { resourceSubscriptions: [1] },
      ];
      for (const notifications of filters) {
        const message = modern("subscriptions/listen", notifications === undefined ? {} : { notifications });
        const answer = await post(url, message);
        expect(answer.headers.get("content-type")).toContain("application/json");
        expectError(answer, message, 200, INVALID_PARAMS, /notifications/);
      }
      expect(servers.mainHandler.engine.services.listens.streams.size).toBe(0);
    });

    it("a listen over maxListens gets -32603 'Subscription limit reached'; a freed slot is reused", async () => {
      const { short } = servers;
      const first = modern("subscriptions/listen", { notifications: { toolsListChanged: true } });
      const open = await openListen(short.url, first);
      try {
        expect(open.first.method).toBe("notifications/subscriptions/acknowledged");
        const ackMeta = (open.first.params ?? {})._meta as Record<string, unknown> | undefined;
        expect(ackMeta?.[META_SUBSCRIPTION_ID]).toBe(first.id);
        const second = modern("subscriptions/listen", { notifications: { toolsListChanged: true } });
        expectError(await post(short.url, second), second, 200, INTERNAL_ERROR, "Subscription limit reached");
        await expectServed(short.url, servers.shortFixture);
      } finally {
        open.close();
      }
      // The server notices the disconnect and frees the slot.
      const deadline = Date.now() + 3000;
      let served = false;
      while (!served && Date.now() < deadline) {
        await sleep(20);
        const again = modern("subscriptions/listen", { notifications: { toolsListChanged: true } });
        const controller = new AbortController();
        const response = await fetch(short.url, {
          method: "POST",
          headers: headersFor(again, {}),
          body: JSON.stringify(again),
          signal: controller.signal,
        });
        served = (response.headers.get("content-type") ?? "").includes("text/event-stream");
        controller.abort();
        await response.body?.cancel().catch(() => {});
      }
      expect(served).toBe(true);
    });
  });

  describe("modern results", () => {
    it("every result carries resultType and serverInfo; the six cacheable ones ttlMs and cacheScope", async () => {
      const requests = [
        modern("server/discover"),
        modern("tools/list"),
        modern("prompts/list"),
        modern("resources/list"),
        modern("resources/templates/list"),
        modern("resources/read", { uri: "docs://readme" }),
        callRecord(5),
        modern("prompts/get", { name: "greet", arguments: { name: "Ada" } }),
        modern("completion/complete", {
          ref: { type: "ref/prompt", name: "greet" },
          argument: { name: "name", value: "A" },
        }),
      ];
      for (const message of requests) {
        const result = expectResult(await post(url, message), message);
        if (CACHEABLE.includes(message.method!)) {
          expect(Number.isSafeInteger(result.ttlMs) && (result.ttlMs as number) >= 0, message.method).toBe(true);
          expect(["public", "private"]).toContain(result.cacheScope);
        } else {
          expect(result, message.method).not.toHaveProperty("ttlMs");
          expect(result, message.method).not.toHaveProperty("cacheScope");
        }
      }
    });

    it("cache hints: handler > definition > option > default, field by field", async () => {
      const hintsOf = async (message: RpcMessage): Promise<[unknown, unknown]> => {
        const result = expectResult(await post(url, message), message);
        return [result.ttlMs, result.cacheScope];
      };
      // The handler's ttlMs wins; its scope is unset, so the definition's applies.
      expect(await hintsOf(modern("resources/read", { uri: "cache://handler" }))).toEqual([5, "private"]);
      // The definition's ttlMs; its scope is unset, so the option's applies.
      expect(await hintsOf(modern("resources/read", { uri: "cache://definition" }))).toEqual([50, "public"]);
      // A template's hints apply to the resources it reads.
      expect(await hintsOf(modern("resources/read", { uri: "items://1" }))).toEqual([70, "private"]);
      // No handler or definition hints: the option for resources/read.
      expect(await hintsOf(modern("resources/read", { uri: "docs://readme" }))).toEqual([500, "public"]);
      // No option for tools/list: the default.
      expect(await hintsOf(modern("tools/list"))).toEqual([0, "private"]);
      expect(await hintsOf(modern("server/discover"))).toEqual([0, "private"]);
    });

    it("invalid hints set by a handler are ignored: the wire keeps an integer ttlMs ≥ 0 and a known scope", async () => {
      // The 2026-07-28 schema wants an integer ttlMs ≥ 0 and a known scope: invalid fields fall through.
      const bad = modern("resources/read", { uri: "cache://bad-handler-hints" });
      const result = expectResult(await post(url, bad), bad);
      // ttlMs 1.5 and scope "shared" are not valid: the definition's hints stand (as in the TS SDK).
      expect([result.ttlMs, result.cacheScope]).toEqual([60, "private"]);
      const negative = modern("resources/read", { uri: "cache://negative-handler-hints" });
      const negativeResult = expectResult(await post(url, negative), negative);
      expect([negativeResult.ttlMs, negativeResult.cacheScope]).toEqual([500, "public"]);
    });

    it("invalid cache hints in options or definitions throw at definition time", () => {
      const base = { name: "x", version: "1", tools: [] };
      const invalid: unknown[] = [
        { ttlMs: -1 },
        { ttlMs: 1.5 },
        { ttlMs: Number.NaN },
        { ttlMs: "60" },
        { cacheScope: "shared" },
      ];
      for (const value of invalid) {
        const hints = value as CacheHints;
        expect(() => defineMcpHandler({ ...base, cacheHints: { "tools/list": hints } })).toThrow(
          /cacheHints\["tools\/list"\]/,
        );
        expect(() => defineResource({ uri: "x://y", name: "y", cacheHints: hints, handler: () => "" })).toThrow(
          /x:\/\/y/,
        );
        expect(() =>
          defineResourceTemplate({ uriTemplate: "x://{id}", name: "t", cacheHints: hints, handler: () => "" }),
        ).toThrow(/x:\/\/\{id\}/);
      }
      // Valid hints define fine: the throws above are about the values.
      expect(() =>
        defineMcpHandler({ ...base, cacheHints: { "tools/list": { ttlMs: 0, cacheScope: "public" } } }),
      ).not.toThrow();
    });
  });
});
