/**
 * The auth gate, over real HTTP on h3 v2 and h3 v1: every request of both eras needs a bearer token
 * `auth.validate` accepts; 401 and 403 carry a challenge the 2.x client's own parser reads; a failing
 * validator answers 503 and admits nothing.
 */
import { createHash } from "node:crypto";
import { extractWWWAuthenticateParams } from "@modelcontextprotocol/client";
import { afterEach, describe, expect, it } from "vitest";
import { defineMcpHandler, defineTool, type AuthOptions } from "../src/index.ts";
import { CLIENTS } from "./helpers/clients.ts";
import { HOSTS, startHost, type RunningHost } from "./helpers/hosts.ts";
import { MODERN_MODES, connectModern } from "./helpers/modern-clients.ts";
import { METADATA_URL, bearer, staticAuth } from "./helpers/auth.ts";
import { POST_HEADERS, expectError, initializeByHand, post, send, type Answer } from "./helpers/rpc.ts";

const INITIALIZE = {
  jsonrpc: "2.0",
  id: 1,
  method: "initialize",
  params: { protocolVersion: "2025-11-25", capabilities: {}, clientInfo: { name: "raw", version: "1" } },
};
const DISCOVER = {
  jsonrpc: "2.0",
  id: 1,
  method: "server/discover",
  params: {
    _meta: {
      "io.modelcontextprotocol/protocolVersion": "2026-07-28",
      "io.modelcontextprotocol/clientCapabilities": {},
    },
  },
};
const MODERN_HEADERS = { "mcp-protocol-version": "2026-07-28", "mcp-method": "server/discover" };

function whoami(): ReturnType<typeof defineTool> {
  return defineTool({
    name: "whoami",
    description: "Returns what the handler sees of the caller",
    handler: (event) => {
      const mcp = event.context.mcp!;
      return { principal: mcp.principal ?? null, auth: mcp.auth ?? null };
    },
  });
}

/** The challenge as the 2.x client's own auth code reads it. */
function challengeOf(answer: Answer): ReturnType<typeof extractWWWAuthenticateParams> {
  return extractWWWAuthenticateParams(new Response(null, { headers: answer.headers }));
}

describe.each(HOSTS)("auth gate on %s", (host) => {
  let server: RunningHost | undefined;
  afterEach(async () => {
    await server?.close();
    server = undefined;
  });

  async function start(auth: AuthOptions = staticAuth({ scopes: ["read"], realm: "notes" })) {
    const handler = defineMcpHandler({ name: "auth", version: "1.0.0", auth, tools: [whoami()] });
    server = await startHost(host, handler);
    return { url: server.url, handler };
  }

  it("answers 401 with a challenge to every method of both eras without a token", async () => {
    const { url } = await start();
    const answers = [
      await post(url, INITIALIZE),
      await post(url, DISCOVER, MODERN_HEADERS),
      await send(url, "GET", { accept: "text/event-stream" }),
      await send(url, "DELETE"),
    ];
    for (const answer of answers) {
      const error = expectError(answer, 401, -32000, /Bearer token/);
      expect(error).not.toHaveProperty("data");
      expect(answer.headers.get("www-authenticate")).toBe(
        `Bearer realm="notes", resource_metadata="${METADATA_URL}", scope="read"`,
      );
      const challenge = challengeOf(answer);
      expect(challenge.resourceMetadataUrl?.href).toBe(METADATA_URL);
      expect(challenge.scope).toBe("read");
      expect(challenge.error).toBeUndefined();
    }
  });

  it("treats a malformed Authorization header, or a token in the query string, as none", async () => {
    const { url } = await start();
    for (const value of [
      "Basic alice-token",
      "Bearer",
      "Bearer ",
      "Beareralice-token",
      "Bearer alice-token x",
      "Bearer a,b",
      "Bearer\talice-token",
      "Bearer alice-token, Bearer bob-token",
    ]) {
      const answer = await post(url, INITIALIZE, { authorization: value });
      expectError(answer, 401, -32000, /needs an Authorization/);
      expect(challengeOf(answer).error).toBeUndefined();
    }
    const query = await post(`${url}?access_token=alice-token`, INITIALIZE);
    expectError(query, 401, -32000);
  });

  it("reads the scheme case-insensitively, after one space or more", async () => {
    const { url } = await start();
    for (const value of ["bearer alice-token", "BEARER   alice-token", "Bearer alice-token  "]) {
      const answer = await post(url, INITIALIZE, { authorization: value });
      expect(answer.status, answer.text).toBe(200);
    }
  });

  it("answers an unknown or expired token with invalid_token", async () => {
    const { url } = await start();
    for (const token of ["stolen-token", "expired-token"]) {
      const answer = await post(url, INITIALIZE, bearer(token));
      expectError(answer, 401, -32000, token === "expired-token" ? /expired/ : /invalid/);
      expect(answer.headers.get("www-authenticate")).toBe(
        `Bearer realm="notes", error="invalid_token", resource_metadata="${METADATA_URL}", scope="read"`,
      );
      expect(challengeOf(answer).error).toBe("invalid_token");
    }
  });

  it("answers a valid token without the handler's scopes with 403 insufficient_scope", async () => {
    const { url } = await start(staticAuth({ scopes: ["read", "write"] }));
    const answer = await post(url, DISCOVER, { ...MODERN_HEADERS, ...bearer("reader-token") });
    const error = expectError(answer, 403, -32000, /read write/);
    expect(error.data).toEqual({ requiredScopes: ["read", "write"] });
    const challenge = challengeOf(answer);
    expect(challenge.error).toBe("insufficient_scope");
    expect(challenge.scope).toBe("read write");
    expect(challenge.resourceMetadataUrl?.href).toBe(METADATA_URL);
  });

  it("tells an unauthenticated client nothing about a session that exists", async () => {
    const { url } = await start();
    const sessionId = await initializeByHand(url, "2025-11-25").catch(() => undefined);
    expect(sessionId).toBeUndefined(); // initializeByHand sends no token: refused
    const opened = await post(url, INITIALIZE, bearer("alice-token"));
    const id = opened.headers.get("mcp-session-id")!;
    const known = await post(url, { jsonrpc: "2.0", id: 2, method: "ping" }, { "mcp-session-id": id });
    const unknown = await post(url, { jsonrpc: "2.0", id: 2, method: "ping" }, { "mcp-session-id": "nope" });
    expect(known.status).toBe(401);
    expect(known.text).toBe(unknown.text);
  });

  it("gives handlers the identity and the principal; the token only with exposeToken", async () => {
    for (const exposeToken of [false, true]) {
      const { url } = await start(staticAuth({ exposeToken }));
      for (const factory of CLIENTS) {
        const client = await factory.connect(url, {}, "anonymous-token");
        const result = await client.callTool("whoami", {});
        const seen = (result as { structuredContent?: unknown }).structuredContent as {
          principal: string;
          auth: Record<string, unknown>;
        };
        expect(seen.principal).toBe(createHash("sha256").update("anonymous-token").digest("hex"));
        expect(seen.auth).toEqual({
          scopes: ["read", "write"],
          clientId: "cli",
          ...(exposeToken ? { token: "anonymous-token" } : {}),
        });
        await client.close();
      }
      const modern = await connectModern(url, MODERN_MODES[0]!, {}, {}, "alice-token");
      const result = await modern.client.callTool({ name: "whoami", arguments: {} });
      expect(result.structuredContent).toMatchObject({ principal: "alice", auth: { subject: "alice" } });
      await modern.close();
      await server!.close();
      server = undefined;
    }
  });

  it("answers 503 when validate throws, and counts it as callback_failure", async () => {
    const { url, handler } = await start({
      validate: () => {
        throw new Error("the identity provider is down");
      },
    });
    const answer = await post(url, INITIALIZE, bearer("alice-token"));
    const error = expectError(answer, 503, -32603, /could not be checked; try again/);
    expect(answer.headers.get("mcp-session-id")).toBeNull();
    expect(error.message).not.toContain("identity provider");
    expect(handler.incidents.callback_failure).toBe(1);
  });

  it("answers 503 when validate never settles within validateTimeoutMs", async () => {
    const { url, handler } = await start({ validate: () => new Promise(() => {}), validateTimeoutMs: 20 });
    const answer = await post(url, DISCOVER, { ...MODERN_HEADERS, ...bearer("alice-token") });
    expectError(answer, 503, -32603, /in time/);
    expect(handler.incidents.callback_failure).toBe(1);
  });

  it("answers 503 when validate returns something that is not an identity", async () => {
    const { url } = await start({ validate: () => ({ scopes: "read" }) as never });
    expectError(await post(url, INITIALIZE, bearer("alice-token")), 503, -32603);
  });
});

describe("auth off", () => {
  it("leaves auth and principal undefined and ignores Authorization", async () => {
    const handler = defineMcpHandler({ name: "open", version: "1.0.0", tools: [whoami()] });
    const server = await startHost("h3-v2", handler);
    try {
      const answer = await fetch(server.url, {
        method: "POST",
        headers: {
          ...POST_HEADERS,
          ...bearer("alice-token"),
          ...MODERN_HEADERS,
          "mcp-method": "tools/call",
          "mcp-name": "whoami",
        },
        body: JSON.stringify({
          jsonrpc: "2.0",
          id: 1,
          method: "tools/call",
          params: { name: "whoami", arguments: {}, _meta: DISCOVER.params._meta },
        }),
      });
      const body = (await answer.json()) as { result: { structuredContent: unknown } };
      expect(body.result.structuredContent).toEqual({ principal: null, auth: null });
    } finally {
      await server.close();
    }
  });
});
