/**
 * `event.context.mcp` tells handlers the truth and nothing more, over real HTTP on h3 v2 and h3 v1
 * with the real clients of both eras: `cacheHints` is ready to fill on the modern era; a legacy
 * request's `Last-Event-ID` is exposed; only this library's `McpError` becomes a JSON-RPC error (the
 * MCP SDK's own, thrown by a client inside a proxying tool, is that tool's failure); a missing client
 * capability gets the error the session's revision defines; the allow-list variables are read like
 * the options; and the object shows only its documented members.
 */
import { McpError as SdkMcpError, ErrorCode as SdkErrorCode } from "@modelcontextprotocol/sdk/types.js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  ErrorCode,
  McpError,
  defineMcpHandler,
  defineResource,
  defineTool,
  type McpContext,
  type McpEventHandler,
} from "../src/index.ts";
import { META_CLIENT_CAPABILITIES, META_PROTOCOL_VERSION } from "../src/protocol/meta-keys.ts";
import { closeAfterEach } from "./helpers/cleanup.ts";
import { ERAS, connectEra, type CallResult, type EraClient } from "./helpers/era-clients.ts";
import { HOSTS, startHost, type RunningHost } from "./helpers/hosts.ts";
import { MODERN_PROTOCOL_VERSION } from "./helpers/modern-clients.ts";
import { jsonOf, textOf } from "./helpers/results.ts";
import { POST_HEADERS, initializeByHand, post, single, type Answer } from "./helpers/rpc.ts";

/** Every member `McpContext` documents (README, "event.context.mcp"); `tsc` checks the list is whole. */
const DOCUMENTED = [
  "era",
  "protocolVersion",
  "requestId",
  "signal",
  "transportSignal",
  "progressToken",
  "meta",
  "options",
  "sessionId",
  "lastEventId",
  "auth",
  "principal",
  "clientInfo",
  "clientCapabilities",
  "logLevel",
  "trace",
  "inputResponses",
  "requestState",
  "state",
  "cacheHints",
  "method",
  "name",
  "user",
  "lifespan",
  "task",
  "progress",
  "log",
  "debug",
  "info",
  "notice",
  "warning",
  "error",
  "critical",
  "alert",
  "emergency",
  "notifySession",
  "notify",
  "requireClientCapability",
  "readResource",
  "elicit",
  "elicitUrl",
  "sample",
  "listRoots",
  "closeStream",
] as const satisfies readonly (keyof McpContext)[];
// A member added to McpContext but not to the list above fails type-checking here.
const WHOLE: [Exclude<keyof McpContext, (typeof DOCUMENTED)[number]>] extends [never] ? true : false = true;

/** Every string-keyed member of `value` and of its prototypes (but Object's own), `constructor` aside. */
function membersOf(value: object): string[] {
  const names = new Set<string>();
  for (let at: object | null = value; at !== null && at !== Object.prototype; at = Object.getPrototypeOf(at)) {
    for (const key of Reflect.ownKeys(at)) if (typeof key === "string" && key !== "constructor") names.add(key);
  }
  return [...names].sort();
}

/** The built package (`npm test` builds it first): a second copy of the library, with its own McpError class. */
const BUILT_PACKAGE = new URL("../dist/index.mjs", import.meta.url).href;

/** What each era answers for a capability the client did not declare (see src/context/request-context.ts). */
const MISSING_CAPABILITY = { modern: ErrorCode.MissingRequiredClientCapability, legacy: ErrorCode.InvalidParams };

function buildHandler(): McpEventHandler {
  return defineMcpHandler({
    name: "context-surface",
    version: "1.0.0",
    tools: [
      defineTool({
        name: "members",
        description: "The members of event.context.mcp, as a handler can enumerate them",
        handler: (event) => {
          const mcp = event.context.mcp!;
          return JSON.stringify({ all: membersOf(mcp), enumerable: Object.keys(mcp).sort() });
        },
      }),
      defineTool({
        name: "last-event-id",
        handler: (event) => JSON.stringify({ lastEventId: event.context.mcp!.lastEventId ?? null }),
      }),
      defineTool({
        name: "cache-hints",
        handler: (event) => {
          const mcp = event.context.mcp!;
          return JSON.stringify({ cacheHints: mcp.cacheHints ?? null });
        },
      }),
      defineTool({
        name: "throw-sdk-error",
        description: "A proxying tool whose upstream MCP client failed",
        handler: () => {
          throw new SdkMcpError(SdkErrorCode.InvalidParams, "upstream refused the call");
        },
      }),
      defineTool({
        name: "throw-own-error",
        handler: () => {
          throw new McpError(ErrorCode.InvalidParams, "the request is wrong", { field: "city" });
        },
      }),
      defineTool({
        name: "throw-other-copy-error",
        description: "Throws the McpError of another copy of this library (the built package)",
        handler: async () => {
          const other = (await import(/* @vite-ignore */ BUILT_PACKAGE)) as { McpError: typeof McpError };
          const error = new other.McpError(ErrorCode.InvalidParams, "from the other copy", { copy: "dist" });
          expect(error).not.toBeInstanceOf(McpError);
          throw error;
        },
      }),
      defineTool({
        name: "needs-elicitation",
        handler: (event) => {
          event.context.mcp!.requireClientCapability("elicitation", "sampling.tools");
          return "allowed";
        },
      }),
    ],
    resources: [
      defineResource({
        uri: "test://hinted",
        name: "hinted",
        // The handler's own hint wins over this one; the scope, which it leaves unset, comes from here.
        cacheHints: { ttlMs: 5, cacheScope: "public" },
        handler: (event) => {
          event.context.mcp!.cacheHints!.ttlMs = 60_000;
          return "hinted";
        },
      }),
      defineResource({
        uri: "test://untouched",
        name: "untouched",
        cacheHints: { ttlMs: 7, cacheScope: "public" },
        handler: (event) => JSON.stringify(event.context.mcp!.cacheHints),
      }),
    ],
  });
}

/** A modern (2026-07-28) request by hand, with the standard headers. */
function postModern(url: string, method: string, params: Record<string, unknown>, name?: string): Promise<Answer> {
  const headers: Record<string, string> = {
    "mcp-protocol-version": MODERN_PROTOCOL_VERSION,
    "mcp-method": method,
  };
  if (name !== undefined) headers["mcp-name"] = name;
  const _meta = { [META_PROTOCOL_VERSION]: MODERN_PROTOCOL_VERSION, [META_CLIENT_CAPABILITIES]: {} };
  return post(url, { jsonrpc: "2.0", id: 1, method, params: { ...params, _meta } }, headers);
}

/** A legacy `tools/call` by hand on `sessionId`, with extra headers. */
function postLegacyCall(url: string, sessionId: string, name: string, headers: Record<string, string>) {
  return post(
    url,
    { jsonrpc: "2.0", id: 2, method: "tools/call", params: { name, arguments: {} } },
    { "mcp-session-id": sessionId, "mcp-protocol-version": "2025-11-25", accept: "application/json", ...headers },
  );
}

/** What a failed call rejected with: the JSON-RPC error as both clients surface it. */
async function rpcErrorOf(call: Promise<unknown>): Promise<{ code: number; message: string; data?: unknown }> {
  const outcome = await call.then(
    (value) => ({ ok: true as const, value }),
    (error: unknown) => ({ ok: false as const, error }),
  );
  expect(outcome.ok, `expected a JSON-RPC error, got ${JSON.stringify(outcome)}`).toBe(false);
  return (outcome as { error: { code: number; message: string; data?: unknown } }).error;
}

describe.each(HOSTS)("event.context.mcp on %s", (hostName) => {
  let host: RunningHost;
  const open = closeAfterEach<EraClient>();

  beforeAll(async () => {
    host = await startHost(hostName, buildHandler());
  });
  afterAll(() => host.close());

  describe.each(ERAS)("%s era", (era) => {
    async function connect(capabilities?: Record<string, object>): Promise<EraClient> {
      const client = await connectEra(era, host.url, capabilities ? { capabilities } : {});
      open.push(client);
      return client;
    }

    it("shows exactly its documented members: nothing else is enumerable, nor reachable on its prototypes", async () => {
      expect(WHOLE).toBe(true);
      const client = await connect();
      const seen = jsonOf(await client.callTool("members"));
      for (const key of seen.enumerable) expect(DOCUMENTED).toContain(key);
      expect(seen.all).toEqual([...DOCUMENTED].sort());
    });

    it("a thrown MCP SDK McpError is the tool's failure: an isError result the model reads", async () => {
      const client = await connect();
      const result: CallResult = await client.callTool("throw-sdk-error");
      expect(result.isError, JSON.stringify(result)).toBe(true);
      expect(result.content).toEqual([{ type: "text", text: expect.stringContaining("upstream refused the call") }]);
    });

    it("a thrown mcp-h3 McpError is the call's JSON-RPC error, with its code and data", async () => {
      const client = await connect();
      const error = await rpcErrorOf(client.callTool("throw-own-error"));
      expect(error.code).toBe(ErrorCode.InvalidParams);
      expect(error.message).toContain("the request is wrong");
      expect(error.data).toEqual({ field: "city" });
    });

    it("an McpError of another copy of mcp-h3 (its brand is registered) is still a JSON-RPC error", async () => {
      const client = await connect();
      const error = await rpcErrorOf(client.callTool("throw-other-copy-error"));
      expect(error).toMatchObject({ code: ErrorCode.InvalidParams, data: { copy: "dist" } });
      expect(error.message).toContain("from the other copy");
    });

    it(`requireClientCapability answers ${MISSING_CAPABILITY[era]} naming what is missing, and passes once declared`, async () => {
      const without = await connect({ sampling: {} });
      const error = await rpcErrorOf(without.callTool("needs-elicitation"));
      expect(error.code).toBe(MISSING_CAPABILITY[era]);
      expect(error.message).toContain("elicitation, sampling.tools");
      expect(error.data).toEqual({ requiredCapabilities: { elicitation: {}, sampling: { tools: {} } } });
      const declared = await connect({ elicitation: {}, sampling: { tools: {} } });
      expect(textOf((await declared.callTool("needs-elicitation")) as never)).toBe("allowed");
    });

    it(era === "modern" ? "cacheHints starts empty" : "cacheHints is undefined (the era has none)", async () => {
      const client = await connect();
      expect(jsonOf(await client.callTool("cache-hints")).cacheHints).toEqual(era === "modern" ? {} : null);
    });
  });

  describe("modern cache hints", () => {
    it("mcp.cacheHints.ttlMs = 60_000 is stamped; the unset scope falls through to the definition", async () => {
      const answer = await postModern(host.url, "resources/read", { uri: "test://hinted" }, "test://hinted");
      expect(answer.status, answer.text).toBe(200);
      const result = single(answer).result!;
      expect(result.ttlMs).toBe(60_000);
      expect(result.cacheScope).toBe("public");
    });

    it("an untouched (empty) cacheHints means not set: the definition's hints apply", async () => {
      const answer = await postModern(host.url, "resources/read", { uri: "test://untouched" }, "test://untouched");
      const result = single(answer).result!;
      expect(result).toMatchObject({ ttlMs: 7, cacheScope: "public" });
      expect((result.contents as { text: string }[])[0]!.text).toBe("{}");
    });
  });

  describe("lastEventId", () => {
    it("a legacy POST carrying Last-Event-ID exposes it", async () => {
      const sessionId = await initializeByHand(host.url);
      const answer = await postLegacyCall(host.url, sessionId, "last-event-id", { "last-event-id": "stream-1/4" });
      expect(jsonOf(single(answer).result as never)).toEqual({ lastEventId: "stream-1/4" });
    });

    it("is undefined on a legacy POST without the header, and on the modern era even with it", async () => {
      const sessionId = await initializeByHand(host.url);
      const legacy = await postLegacyCall(host.url, sessionId, "last-event-id", {});
      expect(jsonOf(single(legacy).result as never)).toEqual({ lastEventId: null });
      const modern = await post(
        host.url,
        {
          jsonrpc: "2.0",
          id: 3,
          method: "tools/call",
          params: {
            name: "last-event-id",
            arguments: {},
            _meta: { [META_PROTOCOL_VERSION]: MODERN_PROTOCOL_VERSION, [META_CLIENT_CAPABILITIES]: {} },
          },
        },
        {
          ...POST_HEADERS,
          "mcp-protocol-version": MODERN_PROTOCOL_VERSION,
          "mcp-method": "tools/call",
          "mcp-name": "last-event-id",
          "last-event-id": "stream-1/4",
        },
      );
      expect(jsonOf(single(modern).result as never)).toEqual({ lastEventId: null });
    });
  });
});
