/**
 * The identity a validator returns, over real HTTP on h3 v2 and h3 v1 and in both eras: every
 * request sees its own copy, so a handler that writes into `event.context.mcp.auth` grants nothing
 * to a later request, nor to itself, and leaves the validator's object alone; and junk from the
 * validator (NaN expiry, scopes that are not strings, a non-object identity…) fails closed with 503.
 */
import { afterEach, describe, expect, it } from "vitest";
import {
  defineMcpHandler,
  defineResource,
  defineTool,
  type AuthIdentity,
  type AuthOptions,
  type McpEventHandler,
} from "../src/index.ts";
import { HOSTS, startHost, type RunningHost } from "./helpers/hosts.ts";
import { bearer, legacyPost, modernPost } from "./helpers/auth.ts";
import { expectError, post, single, type Answer } from "./helpers/rpc.ts";

/** One cached object per token, as a validator in front of a token cache returns it. */
function cachedIdentities(): Record<string, AuthIdentity> {
  return {
    "reader-token": { subject: "reader", scopes: ["read"], extra: { plan: { tier: "free" } } },
    "anonymous-token": { scopes: ["read"], clientId: "cli", extra: { plan: { tier: "free" } } },
  };
}

/** A tool that tries to grant its caller more, then says what it sees and whether a guarded read works. */
const escalate = defineTool({
  name: "escalate",
  description: "Writes into its own identity, then reads a resource that needs write",
  handler: async (event) => {
    const mcp = event.context.mcp!;
    const auth = mcp.auth!;
    auth.scopes.push("write");
    (auth.extra!.plan as { tier: string }).tier = "paid";
    auth.extra!.admin = true;
    auth.subject = "root";
    auth.expiresAt = Number.NaN;
    let read = "allowed";
    try {
      await mcp.readResource("notes://secret");
    } catch (error) {
      read = (error as Error).message;
    }
    return { read, sees: mcp.auth ?? null };
  },
});

const whoami = defineTool({
  name: "whoami",
  description: "Says what the handler sees of the caller",
  handler: (event) => ({ principal: event.context.mcp!.principal ?? null, auth: event.context.mcp!.auth ?? null }),
});

const writeNote = defineTool({
  name: "write-note",
  description: "Needs the write scope",
  scopes: ["write"],
  handler: () => "written",
});

const secret = defineResource({
  uri: "notes://secret",
  name: "secret",
  scopes: ["write"],
  handler: () => "the secret",
});

type Era = "legacy" | "modern";
const ERAS: Era[] = ["legacy", "modern"];

function call(era: Era, url: string, token: string, name: string): Promise<Answer> {
  const params = { name, arguments: {} };
  return era === "legacy" ? legacyPost(url, token, "tools/call", params) : modernPost(url, token, "tools/call", params);
}

function structured(answer: Answer): Record<string, unknown> {
  const message = single(answer);
  expect(message.error).toBeUndefined();
  return message.result!.structuredContent as Record<string, unknown>;
}

describe.each(HOSTS)("identities on %s", (host) => {
  let server: RunningHost | undefined;
  afterEach(async () => {
    await server?.close();
    server = undefined;
  });

  async function start(auth: AuthOptions): Promise<{ url: string; handler: McpEventHandler }> {
    const handler = defineMcpHandler({
      name: "identity",
      version: "1.0.0",
      auth,
      tools: [escalate, whoami, writeNote],
      resources: [secret],
    });
    server = await startHost(host, handler);
    return { url: server.url, handler };
  }

  describe.each(ERAS)("%s era", (era) => {
    it.each(["reader-token", "anonymous-token"])(
      "a handler writing into mcp.auth (%s) changes nothing for later requests, itself or the validator",
      async (token) => {
        const identities = cachedIdentities();
        const before = structuredClone(identities);
        const { url } = await start({ validate: (given) => identities[given] });

        const escalated = structured(await call(era, url, token, "escalate"));
        // Its own copy changed, and only that: the read it tried still needed the write it was not granted.
        expect(escalated.read).toMatch(/Forbidden|scope/i);
        expect((escalated.sees as AuthIdentity).scopes).toEqual(["read", "write"]);

        for (let round = 0; round < 2; round++) {
          const later = await call(era, url, token, "write-note");
          expect(later.status).toBe(403);
          const seen = structured(await call(era, url, token, "whoami"));
          const expected = { ...before[token] };
          expect(seen.auth).toEqual(expected);
          if (token === "reader-token") expect(seen.principal).toBe("reader");
          else expect(seen.principal).toMatch(/^[0-9a-f]{64}$/);
        }
        expect(identities).toEqual(before);
      },
    );

    it("with exposeToken, each request still gets its own copy with its token", async () => {
      const identities = cachedIdentities();
      const { url } = await start({ validate: (given) => identities[given], exposeToken: true });
      structured(await call(era, url, "reader-token", "escalate"));
      expect((await call(era, url, "reader-token", "write-note")).status).toBe(403);
      const seen = structured(await call(era, url, "reader-token", "whoami"));
      expect(seen.auth).toEqual({ ...cachedIdentities()["reader-token"], token: "reader-token" });
      expect(identities["reader-token"]).not.toHaveProperty("token");
    });
  });

  /** What a validator may return that is not an identity; each is answered 503 and counted. */
  const JUNK: [string, unknown][] = [
    ["expiresAt NaN", { subject: "alice", scopes: ["read"], expiresAt: Number.NaN }],
    ["expiresAt Infinity", { subject: "alice", scopes: ["read"], expiresAt: Number.POSITIVE_INFINITY }],
    ["expiresAt a string", { subject: "alice", scopes: ["read"], expiresAt: "4000000000" }],
    ["expiresAt null", { subject: "alice", scopes: ["read"], expiresAt: null }],
    ["scopes a string", { subject: "alice", scopes: "read" }],
    ["scopes holding a number", { subject: "alice", scopes: ["read", 1] }],
    ["scopes an object", { subject: "alice", scopes: { 0: "read", length: 1 } }],
    ["subject a number", { subject: 42, scopes: ["read"] }],
    ["subject an object", { subject: { toString: () => "alice" }, scopes: ["read"] }],
    ["clientId a number", { clientId: 7, scopes: ["read"] }],
    ["extra a string", { scopes: ["read"], extra: "x" }],
    ["extra holding a function", { scopes: ["read"], extra: { check: () => true } }],
    ["an array", [{ subject: "alice", scopes: ["read"] }]],
    ["a function", () => ({ subject: "alice", scopes: ["read"] })],
    ["a number", 42],
    ["a string", "alice"],
    ["true", true],
  ];

  describe.each(ERAS)("%s era", (era) => {
    it.each(JUNK)("answers 503 and counts a callback_failure when validate returns %s", async (_, junk) => {
      const { url, handler } = await start({ validate: () => junk as AuthIdentity });
      for (let round = 1; round <= 2; round++) {
        const answer =
          era === "legacy"
            ? await post(url, INITIALIZE, bearer("any-token"))
            : await modernPost(url, "any-token", "tools/call", { name: "whoami", arguments: {} });
        expectError(answer, 503, -32603, /could not be checked; try again/);
        expect(handler.incidents.callback_failure).toBe(round);
      }
    });
  });

  it("answers 503 for junk from an async validator too", async () => {
    const { url, handler } = await start({
      validate: async () => ({ subject: "alice", scopes: ["read"], expiresAt: Number.NaN }),
    });
    expectError(await post(url, INITIALIZE, bearer("any-token")), 503, -32603);
    expect(handler.incidents.callback_failure).toBe(1);
  });
});

const INITIALIZE = {
  jsonrpc: "2.0",
  id: 1,
  method: "initialize",
  params: { protocolVersion: "2025-11-25", capabilities: {}, clientInfo: { name: "raw", version: "1" } },
};
