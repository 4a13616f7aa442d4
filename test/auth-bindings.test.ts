/**
 * Everything bound to a principal, tried by every pair of users (alice, bob, and a token without a
 * subject) on h3 v2 and h3 v1: a legacy session answers another principal exactly as an unknown
 * session (POST, notifications/cancelled, a posted response, GET, Last-Event-ID, DELETE), a
 * `requestState` is refused to another principal, and `notifySession` reaches only the caller's
 * own sessions unless `auth.crossPrincipalNotify` is set.
 */
import { afterEach, describe, expect, it } from "vitest";
import { defineMcpHandler, defineTool, MemoryEventStore, type AuthOptions } from "../src/index.ts";
import { CLIENTS, type TestClient } from "./helpers/clients.ts";
import { HOSTS, startHost, type RunningHost } from "./helpers/hosts.ts";
import { bearer, staticAuth } from "./helpers/auth.ts";
import { deferred } from "./helpers/deferred.ts";
import { POST_HEADERS, post, send, single, toAnswer, type Answer, type RpcMessage } from "./helpers/rpc.ts";

const USERS = ["alice-token", "bob-token", "anonymous-token"] as const;
const PAIRS = USERS.flatMap((owner) => USERS.filter((other) => other !== owner).map((other) => [owner, other]));
const LEGACY = "2025-11-25";
const MODERN = "2026-07-28";

function legacyHeaders(token: string, sessionId: string): Record<string, string> {
  return { ...bearer(token), "mcp-session-id": sessionId, "mcp-protocol-version": LEGACY };
}

/** What a crossing gets must equal what an unknown session gets: same status, type and bytes. */
function expectSameAsUnknown(crossing: Answer, unknown: Answer): void {
  expect(crossing.status, crossing.text).toBe(404);
  expect(crossing.text).toBe(unknown.text);
  expect(crossing.headers.get("content-type")).toBe(unknown.headers.get("content-type"));
  expect(crossing.headers.get("mcp-session-id")).toBeNull();
}

let nextId = 100;
function modern(method: string, params: Record<string, unknown>): RpcMessage {
  const meta = {
    "io.modelcontextprotocol/protocolVersion": MODERN,
    "io.modelcontextprotocol/clientCapabilities": { elicitation: {} },
  };
  return { jsonrpc: "2.0", id: nextId++, method, params: { ...params, _meta: meta } };
}

function postModern(url: string, token: string, message: RpcMessage): Promise<Answer> {
  const headers = {
    ...POST_HEADERS,
    ...bearer(token),
    "mcp-protocol-version": MODERN,
    "mcp-method": message.method!,
    "mcp-name": String(message.params!.name),
  };
  return fetch(url, { method: "POST", headers, body: JSON.stringify(message) }).then(toAnswer);
}

describe.each(HOSTS)("auth bindings on %s", (host) => {
  let server: RunningHost | undefined;
  const clients: TestClient[] = [];
  afterEach(async () => {
    for (const client of clients.splice(0)) await client.close().catch(() => {});
    await server?.close();
    server = undefined;
  });

  const release = { current: deferred<void>() };
  const started = { current: deferred<void>() };

  async function start(auth: AuthOptions = staticAuth()) {
    release.current = deferred<void>();
    started.current = deferred<void>();
    const handler = defineMcpHandler({
      name: "bindings",
      version: "1.0.0",
      auth,
      events: new MemoryEventStore(),
      tools: [
        defineTool({
          name: "secret",
          description: "Streams the caller's secret, then waits to be released",
          handler: async (event) => {
            const mcp = event.context.mcp!;
            await mcp.progress(1, 2, `secret of ${mcp.principal}`);
            started.current.resolve();
            await release.current.promise;
            return `done for ${mcp.principal}`;
          },
        }),
        defineTool({
          name: "poke",
          description: "notifySession to the given session",
          handler: async (event, args: { sessionId?: unknown }) => {
            const sent = await event.context.mcp!.notifySession(String(args.sessionId), "notifications/message", {
              level: "info",
              data: "poke",
            });
            return sent ? "delivered" : "refused";
          },
        }),
        defineTool({
          name: "ask",
          description: "Asks for a word (MRTR on the modern era)",
          handler: async (event) => {
            const answer = await event.context.mcp!.elicit("word", "A word?", { word: { type: "string" } });
            return `${event.context.mcp!.principal} said ${JSON.stringify(answer.content)}`;
          },
        }),
      ],
    });
    server = await startHost(host, handler);
    return server.url;
  }

  for (const factory of CLIENTS) {
    it(`${factory.name}: another principal's POST, GET, Last-Event-ID, DELETE and responses meet an unknown session`, async () => {
      const url = await start();
      for (const [owner, other] of PAIRS as [string, string][]) {
        const client = await factory.connect(url, {}, owner);
        clients.push(client);
        const sessionId = client.sessionId!;
        const progress: string[] = [];
        const call = client.callTool("secret", {}, { onprogress: (p) => void progress.push(p.message ?? "") });
        await started.current.promise;

        const ping = { jsonrpc: "2.0", id: 7, method: "ping" };
        const unknownPost = await post(url, ping, legacyHeaders(other, "00000000-0000-0000-0000-000000000000"));
        expectSameAsUnknown(await post(url, ping, legacyHeaders(other, sessionId)), unknownPost);
        const list = { jsonrpc: "2.0", id: 7, method: "tools/list" };
        const unknownList = await post(url, list, legacyHeaders(other, "x"));
        expectSameAsUnknown(await post(url, list, legacyHeaders(other, sessionId)), unknownList);

        // Cancelling the owner's call in flight: refused, and the call goes on.
        const sentIds = client.sent.filter((s) => s.rpcMethod === "tools/call");
        expect(sentIds.length).toBeGreaterThan(0);
        for (const requestId of [0, 1, 2, 3]) {
          const cancel = { jsonrpc: "2.0", method: "notifications/cancelled", params: { requestId } };
          const unknownCancel = await post(url, cancel, legacyHeaders(other, "x"));
          expectSameAsUnknown(await post(url, cancel, legacyHeaders(other, sessionId)), unknownCancel);
        }
        // A response posted for a server→client request of the owner's session.
        const response = { jsonrpc: "2.0", id: 0, result: { action: "accept", content: {} } };
        const unknownResponse = await post(url, response, legacyHeaders(other, "x"));
        expectSameAsUnknown(await post(url, response, legacyHeaders(other, sessionId)), unknownResponse);

        // The owner's GET stream and the replay of the call's stream.
        const getHeaders = { ...legacyHeaders(other, sessionId), accept: "text/event-stream" };
        const unknownGet = await send(url, "GET", { ...getHeaders, "mcp-session-id": "x" });
        expectSameAsUnknown(await send(url, "GET", getHeaders), unknownGet);
        for (const lastEventId of ["0", `${sessionId}:1`, "get:1", "a.1:1"]) {
          const resume = { ...getHeaders, "last-event-id": lastEventId };
          expectSameAsUnknown(await send(url, "GET", resume), unknownGet);
          expectSameAsUnknown(
            await send(`${url}?lastEventId=${encodeURIComponent(lastEventId)}`, "GET", getHeaders),
            unknownGet,
          );
        }
        const unknownDelete = await send(url, "DELETE", legacyHeaders(other, "x"));
        expectSameAsUnknown(await send(url, "DELETE", legacyHeaders(other, sessionId)), unknownDelete);

        // Nothing of it reached the owner's session: the call ends normally, and the session lives on.
        release.current.resolve();
        const result = await call;
        expect(result.content?.[0]?.text).toMatch(/^done for /);
        expect(progress[0]).toMatch(/^secret of /);
        expect((await client.listTools()).tools.length).toBe(3);
        release.current = deferred<void>();
        started.current = deferred<void>();
        await client.close();
      }
    });
  }

  it("the owner's own requests on the session pass, and an expired token gets 401 while the session waits for a fresh one", async () => {
    let expired = false;
    const url = await start({
      validate: (token) =>
        token === "alice-old"
          ? { subject: "alice", scopes: [], expiresAt: expired ? 1 : 4_000_000_000 }
          : token === "alice-new"
            ? { subject: "alice", scopes: [] }
            : undefined,
    });
    const opened = await post(
      url,
      { jsonrpc: "2.0", id: 1, method: "initialize", params: { protocolVersion: LEGACY, capabilities: {} } },
      bearer("alice-old"),
    );
    const sessionId = opened.headers.get("mcp-session-id")!;
    const ping = { jsonrpc: "2.0", id: 2, method: "ping" };
    expect(single(await post(url, ping, legacyHeaders("alice-old", sessionId)))).toMatchObject({ result: {} });
    expired = true;
    const refused = await post(url, ping, legacyHeaders("alice-old", sessionId));
    expect(refused.status).toBe(401);
    expect(refused.headers.get("www-authenticate")).toContain('error="invalid_token"');
    expect(single(await post(url, ping, legacyHeaders("alice-new", sessionId)))).toMatchObject({ result: {} });
  });

  it("a requestState minted for one principal is refused to every other", async () => {
    const url = await start();
    for (const [owner, other] of PAIRS as [string, string][]) {
      const first = await postModern(url, owner, modern("tools/call", { name: "ask", arguments: {} }));
      const result = single(first).result!;
      expect(result.resultType).toBe("input_required");
      const requestState = result.requestState as string;
      const inputResponses = { word: { action: "accept", content: { word: "hi" } } };
      const retry = (token: string) =>
        postModern(url, token, modern("tools/call", { name: "ask", arguments: {}, requestState, inputResponses }));
      const stolen = single(await retry(other));
      expect(stolen.error).toMatchObject({ code: -32602, data: { reason: "invalid_request_state" } });
      expect(JSON.stringify(stolen)).not.toContain("said");
      const own = single(await retry(owner));
      expect((own.result!.content as { text: string }[])[0]!.text).toMatch(/^(alice|bob|[0-9a-f]{64}) said /);
    }
  });

  for (const crossPrincipalNotify of [false, true]) {
    it(`notifySession reaches ${crossPrincipalNotify ? "any" : "only the caller's own"} sessions (crossPrincipalNotify ${crossPrincipalNotify})`, async () => {
      const url = await start(staticAuth({ crossPrincipalNotify }));
      const factory = CLIENTS[0]!;
      const pokes = deferred<void>();
      let received = 0;
      const onLog = () => {
        received++;
        pokes.resolve();
      };
      // The client opens its GET stream by itself after initialize: notifySession has somewhere to go.
      const alice = await factory.connect(url, { onLog }, "alice-token");
      const aliceAgain = await factory.connect(url, {}, "alice-token");
      const bob = await factory.connect(url, {}, "bob-token");
      clients.push(alice, aliceAgain, bob);
      const poke = (client: TestClient) => client.callTool("poke", { sessionId: alice.sessionId });
      expect((await poke(aliceAgain)).content?.[0]?.text).toBe("delivered");
      await pokes.promise;
      expect((await poke(bob)).content?.[0]?.text).toBe(crossPrincipalNotify ? "delivered" : "refused");
      // Bob's poke, when refused, never reached alice: one more from her own session arrives alone.
      expect((await poke(aliceAgain)).content?.[0]?.text).toBe("delivered");
      await expect.poll(() => received).toBe(crossPrincipalNotify ? 3 : 2);
    });
  }
});
