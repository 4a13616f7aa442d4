/**
 * Per-session structures have a bound, and client values in error messages are quoted short:
 * `resources/subscribe` URIs are length-capped and a session holds at most
 * `sessions.maxSubscriptions`; `logging/setLevel` quotes a bad level through `echoValue`. Over real
 * HTTP, on both h3 majors.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { defineMcpHandler, defineResource, defineResourceTemplate, MemorySessionStore } from "../src/index.ts";
import type { McpEventHandler } from "../src/handler-types.ts";
import { HOSTS, startHost, type RunningHost } from "./helpers/hosts.ts";
import { expectError, post, postRaw, single, type Answer } from "./helpers/rpc.ts";

const VERSION = "2025-11-25";
const INVALID_PARAMS = -32602;
const MAX_SUBSCRIPTIONS = 5;
const MAX_URI_LENGTH = 200;
let nextId = 1;

describe.each(HOSTS)("legacy per-session bounds on %s", (host) => {
  let server: RunningHost;
  let handler: McpEventHandler;
  let url: string;
  const store = new MemorySessionStore();

  beforeAll(async () => {
    handler = defineMcpHandler({
      name: "bounds",
      version: "1.0.0",
      logging: true,
      // A deep body must reach logging/setLevel here: the gate's own depth cap is tested elsewhere.
      maxJsonDepth: 10_000,
      maxUriLength: MAX_URI_LENGTH,
      sessions: { store, maxSubscriptions: MAX_SUBSCRIPTIONS },
      resources: [
        defineResource({ uri: "docs://readme", name: "readme", handler: () => "hello" }),
        defineResourceTemplate({
          uriTemplate: "docs://page/{n}",
          name: "page",
          handler: (_event, { n }) => `page ${n}`,
        }),
      ],
    });
    server = await startHost(host, handler);
    url = server.url;
  });

  afterAll(async () => {
    await handler.close();
    await server.close();
  });

  async function openSession(): Promise<Record<string, string>> {
    const answer = await post(url, {
      jsonrpc: "2.0",
      id: nextId++,
      method: "initialize",
      params: { protocolVersion: VERSION, capabilities: {}, clientInfo: { name: "bounds-test", version: "1" } },
    });
    const headers = { "mcp-session-id": answer.headers.get("mcp-session-id")!, "mcp-protocol-version": VERSION };
    await post(url, { jsonrpc: "2.0", method: "notifications/initialized" }, headers);
    return headers;
  }

  function call(headers: Record<string, string>, method: string, params: unknown): Promise<Answer> {
    return post(url, { jsonrpc: "2.0", id: nextId++, method, params }, headers);
  }

  /** Which of `uris` the session holds, as its store says. */
  async function heldOf(headers: Record<string, string>, uris: string[]): Promise<string[]> {
    const held = await Promise.all(uris.map((uri) => store.isSubscribed(headers["mcp-session-id"]!, uri)));
    return uris.filter((_, index) => held[index]);
  }

  it("holds at most sessions.maxSubscriptions URIs; re-subscribing one held is free", async () => {
    const session = await openSession();
    const uris = Array.from({ length: MAX_SUBSCRIPTIONS }, (_, index) => `docs://page/${index}`);
    for (const uri of uris) expect(single(await call(session, "resources/subscribe", { uri })).result).toEqual({});
    expect(single(await call(session, "resources/subscribe", { uri: uris[2] })).result).toEqual({});

    const refused = await call(session, "resources/subscribe", { uri: "docs://page/one-too-many" });
    const error = expectError(refused, 200, INVALID_PARAMS, /sessions\.maxSubscriptions/);
    expect(error.data).toEqual({ limit: "sessions.maxSubscriptions", max: MAX_SUBSCRIPTIONS });
    expect(await heldOf(session, [...uris, "docs://page/one-too-many"])).toEqual(uris);

    expect(single(await call(session, "resources/unsubscribe", { uri: uris[0] })).result).toEqual({});
    expect(single(await call(session, "resources/subscribe", { uri: "docs://page/one-too-many" })).result).toEqual({});
    expect(await heldOf(session, [...uris, "docs://page/one-too-many"])).toEqual([
      ...uris.slice(1),
      "docs://page/one-too-many",
    ]);
  });

  it("refuses a URI longer than maxUriLength, and keeps nothing of it", async () => {
    const session = await openSession();
    const long = `docs://${"a".repeat(MAX_URI_LENGTH)}`;
    for (const method of ["resources/subscribe", "resources/unsubscribe"]) {
      const error = expectError(await call(session, method, { uri: long }), 200, INVALID_PARAMS, /maxUriLength/);
      expect(error.data).toEqual({ limit: "maxUriLength", max: MAX_URI_LENGTH });
      expect(error.message.length).toBeLessThan(200);
    }
    expect(await heldOf(session, [long])).toEqual([]);
  });

  it("logging/setLevel quotes a bad level briefly, however deep or long it is", async () => {
    const session = await openSession();
    // Written as text: a value this deep is more than JSON.stringify of a test worker can take.
    const deep = `${'{"level":'.repeat(5000)}"bottom"${"}".repeat(5000)}`;
    const levels = [deep, JSON.stringify("x".repeat(100_000)), "42", "null", '["debug"]'];
    for (const level of levels) {
      const body = `{"jsonrpc":"2.0","id":${nextId++},"method":"logging/setLevel","params":{"level":${level}}}`;
      const error = expectError(await postRaw(url, body, session), 200, INVALID_PARAMS, /log level/);
      expect(error.message.length).toBeLessThan(200);
    }
    expect((await store.get(session["mcp-session-id"]!))?.logLevel).toBeUndefined();
    expect(single(await call(session, "logging/setLevel", { level: "error" })).result).toEqual({});
  });

  it("a guessed session id gets 404 and nothing else", async () => {
    for (const guess of [crypto.randomUUID(), "1", "../admin", "a".repeat(200)]) {
      const answer = await call({ "mcp-session-id": guess, "mcp-protocol-version": VERSION }, "ping", {});
      expectError(answer, 404, -32001, /^Session not found$/);
    }
  });
});
