/**
 * The modern era (2026-07-28) as a real client uses it: the 2.x client, pinned to 2026-07-28 and in
 * `auto` mode, talks to one mcp-h3 handler over real HTTP on h3 v2 and h3 v1. Each case drives a
 * feature end to end through the client's own transport and its own machinery (the connect-time
 * `server/discover` probe, the per-request `_meta` envelope, the multi round-trip driver that
 * fulfils `input_required` with the client's handlers, `subscriptions/listen`, abort = disconnect),
 * and checks the wire where the client would hide a fallback. The same server also serves legacy
 * sessions, so the cases at the end run one tool definition on both eras.
 */
import {
  LOG_LEVEL_META_KEY,
  SERVER_INFO_META_KEY,
  SUBSCRIPTION_ID_META_KEY,
  type McpSubscription,
} from "@modelcontextprotocol/client";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { z } from "zod";
import { defineMcpHandler, defineTool } from "../src/index.ts";
import { addTool, chattyTool, greetPrompt, readmeResource, stepsTool, userProfileTemplate } from "./helpers/catalog.ts";
import { closeAfterEach } from "./helpers/cleanup.ts";
import {
  CLIENTS,
  answerHi,
  type ClientHooks,
  type ElicitAnswer,
  type LogMessage,
  type TestClient,
} from "./helpers/clients.ts";
import { deferred } from "./helpers/deferred.ts";
import { HOSTS, startHost, type RunningHost } from "./helpers/hosts.ts";
import {
  MODERN_MODES,
  MODERN_PROTOCOL_VERSION,
  connectModern,
  type ModernConnection,
  type WireExchange,
} from "./helpers/modern-clients.ts";
import { jsonOf, textOf } from "./helpers/results.ts";
import { abortedWithin } from "./helpers/wait.ts";

/** Client-side timeout of each call: well under the test timeout, so a hang fails with a reason. */
const CALL_TIMEOUT_MS = 5_000;

// ---------------------------------------------------------------------------------------------
// The server under test: one handler, both eras

/**
 * What the tools saw, so a test can look inside the handler. Tests in a file run one after
 * another, so each case resets the probes it uses.
 */
const probes = {
  slowStarted: deferred<void>(),
  /** Whether `mcp.signal` aborted within 5 s, and the era the slow call ran in. */
  slowAborted: deferred<{ aborted: boolean; era: string }>(),
  /** One entry per run of the shared `ask` definition: the era it ran in. */
  askRuns: [] as string[],
  /** One entry per run of `interview`: the era and the `mcp.state` it started with. */
  interviewRuns: [] as { era: string; state: unknown }[],
};

/**
 * ONE definition, used unchanged by both eras: on a legacy session `elicit` sends a real
 * `elicitation/create` request over the session's stream; on the modern era it ends the call with
 * `input_required` and returns the answer on the client's retry.
 */
const askTool = defineTool({
  name: "ask",
  description: "Asks the user who they are",
  handler: async (event) => {
    const mcp = event.context.mcp!;
    probes.askRuns.push(mcp.era);
    const answer = await mcp.elicit("who", "Who are you?", z.object({ name: z.string(), age: z.number() }));
    return JSON.stringify({ era: mcp.era, answer });
  },
});

/**
 * Two questions in two rounds; the first answer is kept in `mcp.state`. On the modern era each
 * retry carries only the answers of its own round, so the name can reach the third run only through
 * the signed `requestState`; on a legacy session `elicit` simply waits, and `state` is a property.
 */
const interviewTool = defineTool({
  name: "interview",
  description: "Asks for a name, then for a colour, remembering the name between rounds",
  handler: async (event) => {
    const mcp = event.context.mcp!;
    probes.interviewRuns.push({ era: mcp.era, state: structuredClone(mcp.state) });
    const saved = mcp.state as { name: string } | undefined;
    let name = saved?.name;
    if (name === undefined) {
      const who = await mcp.elicit("name", "What is your name?", z.object({ name: z.string() }));
      if (who.action !== "accept" || !who.content) return "no name";
      name = who.content.name;
      // Set before asking again: the state travels with the next input_required result.
      mcp.state = { name };
    }
    const pick = await mcp.elicit("colour", `Hello ${name}, your favourite colour?`, z.object({ colour: z.string() }));
    if (pick.action !== "accept" || !pick.content) return "no colour";
    return JSON.stringify({ era: mcp.era, name, colour: pick.content.colour });
  },
});

function buildHandler() {
  return defineMcpHandler({
    name: "modern-clients",
    version: "3.1.4",
    instructions: "Test server for the modern era",
    logging: true,
    tools: [
      addTool,
      defineTool({
        name: "whoami",
        description: "What the handler sees of the request",
        handler: (event) => {
          const mcp = event.context.mcp!;
          return JSON.stringify({
            era: mcp.era,
            protocolVersion: mcp.protocolVersion,
            clientInfo: mcp.clientInfo,
            sessionId: mcp.sessionId ?? null,
            logLevel: mcp.logLevel ?? null,
          });
        },
      }),
      defineTool({
        name: "tagged",
        description: "Answers with a _meta of its own",
        handler: () => ({ content: [{ type: "text", text: "tagged" }], _meta: { "example.com/tag": "blue" } }),
      }),
      stepsTool,
      chattyTool,
      askTool,
      defineTool({
        name: "visit",
        description: "Asks the user to open a page",
        handler: async (event) => {
          const mcp = event.context.mcp!;
          const answer = await mcp.elicit("site", "Open the page to connect", { url: "https://example.com/connect" });
          return JSON.stringify({ era: mcp.era, action: answer.action });
        },
      }),
      defineTool({
        name: "summarize",
        description: "Asks the client's model for a greeting",
        handler: async (event) => {
          const mcp = event.context.mcp!;
          const answer = await mcp.sample("greeting", {
            messages: [{ role: "user", content: { type: "text", text: "Say hi" } }],
            maxTokens: 50,
          });
          return JSON.stringify({ era: mcp.era, model: answer.model, content: answer.content });
        },
      }),
      interviewTool,
      defineTool({
        name: "bump-tools",
        description: "Announces that the tool list changed",
        handler: async (event) => {
          await event.context.mcp!.notify.toolsChanged();
          return "bumped tools";
        },
      }),
      defineTool({
        name: "bump-prompts",
        description: "Announces that the prompt list changed",
        handler: async (event) => {
          await event.context.mcp!.notify.promptsChanged();
          return "bumped prompts";
        },
      }),
      defineTool({
        name: "slow",
        description: "Reports progress once, then waits up to 5 s for cancellation",
        handler: async (event) => {
          const mcp = event.context.mcp!;
          // The progress upgrades the response to SSE: the client then holds an open stream to close.
          await mcp.progress(1, 2, "started");
          probes.slowStarted.resolve();
          const aborted = await abortedWithin(mcp.signal, 5_000);
          probes.slowAborted.resolve({ aborted, era: mcp.era });
          return aborted ? "aborted" : "finished";
        },
      }),
    ],
    resources: [
      readmeResource,
      userProfileTemplate((event, { id }) => JSON.stringify({ id, era: event.context.mcp!.era })),
    ],
    prompts: [greetPrompt],
  });
}

const TOOL_NAMES = [
  "add",
  "whoami",
  "tagged",
  "steps",
  "chatty",
  "ask",
  "visit",
  "summarize",
  "interview",
  "bump-tools",
  "bump-prompts",
  "slow",
];

/** The two answers of `interview`, picked by the question; anything else is declined. */
function interviewAnswers(asked: string[]): ClientHooks["onElicit"] {
  return ({ message }): ElicitAnswer => {
    asked.push(message);
    if (message === "What is your name?") return { action: "accept", content: { name: "Ada" } };
    if (message === "Hello Ada, your favourite colour?") return { action: "accept", content: { colour: "teal" } };
    return { action: "decline" };
  };
}

const ADA: ElicitAnswer = { action: "accept", content: { name: "Ada", age: 36 } };

/** A modern request never opens or names a legacy session. */
function expectNoSession(wire: readonly WireExchange[]): void {
  expect(wire.filter((exchange) => exchange.body?.method === "initialize")).toEqual([]);
  expect(wire.filter((exchange) => exchange.headers.session !== null)).toEqual([]);
  expect(wire.filter((exchange) => exchange.httpMethod !== "POST")).toEqual([]);
}

// ---------------------------------------------------------------------------------------------

describe.each(HOSTS)("modern clients on %s", (host) => {
  let server: RunningHost;

  beforeAll(async () => {
    server = await startHost(host, buildHandler());
  });

  afterAll(async () => {
    await server.close();
  });

  const open = closeAfterEach();

  describe.each(MODERN_MODES)("client 2.x, $name", (mode) => {
    const connections: ModernConnection[] = [];

    // Every case, not only the negotiation one, runs on the modern era: an `auto` client that
    // silently fell back to initialize would pass many feature checks, so each connection is
    // checked when made and its whole wire when the case ends.
    async function connect(hooks?: ClientHooks, capabilities?: Record<string, object>): Promise<ModernConnection> {
      const connection = await connectModern(server.url, mode, hooks, capabilities);
      open.push(connection);
      connections.push(connection);
      expect(connection.client.getProtocolEra()).toBe("modern");
      return connection;
    }

    afterEach(() => {
      for (const connection of connections.splice(0)) expectNoSession(connection.wire);
    });

    it("negotiates the modern era through server/discover, with no session", async () => {
      const { client, wire, errors } = await connect();
      expect(client.getProtocolEra()).toBe("modern");
      expect(client.getNegotiatedProtocolVersion()).toBe(MODERN_PROTOCOL_VERSION);
      // The connect-time probe was a modern server/discover, answered 200: no fallback happened.
      expect(wire[0]).toMatchObject({
        httpMethod: "POST",
        body: { method: "server/discover" },
        headers: { protocolVersion: MODERN_PROTOCOL_VERSION, method: "server/discover" },
        status: 200,
      });
      expect(wire[0]!.body!.params!._meta).toMatchObject({
        "io.modelcontextprotocol/protocolVersion": MODERN_PROTOCOL_VERSION,
        "io.modelcontextprotocol/clientInfo": { name: "client-2.x-modern-test", version: "2.0.0" },
        "io.modelcontextprotocol/clientCapabilities": {},
      });
      // serverInfo lives in the discover result's _meta; the client reads it from there.
      expect(client.getServerVersion()).toMatchObject({ name: "modern-clients", version: "3.1.4" });
      expect(client.getInstructions()).toBe("Test server for the modern era");

      // An explicit discover goes over the wire again and returns the full result.
      const discovered = await client.discover();
      expect(discovered.supportedVersions).toContain(MODERN_PROTOCOL_VERSION);
      // Only modern versions are listed (legacy ones are negotiated by initialize, wire.md §3.3).
      expect(discovered.supportedVersions.every((version) => version >= MODERN_PROTOCOL_VERSION)).toBe(true);
      expect(discovered.capabilities).toMatchObject({
        tools: { listChanged: true },
        resources: { subscribe: true, listChanged: true },
        prompts: { listChanged: true },
        completions: {},
        logging: {},
      });
      expect(discovered._meta?.[SERVER_INFO_META_KEY]).toMatchObject({ name: "modern-clients", version: "3.1.4" });
      // Cacheable result (wire.md §7): the defaults, since the handler configured none.
      expect(discovered).toMatchObject({ ttlMs: 0, cacheScope: "private" });
      expect(wire.filter((exchange) => exchange.body?.method === "server/discover")).toHaveLength(2);
      expectNoSession(wire);
      expect(errors).toEqual([]);
    });

    it("lists and calls tools; the handler sees the modern era and the client's _meta", async () => {
      const { client, wire, requests } = await connect();
      const { tools } = await client.listTools();
      // The catalog lists in definition order, the same on every call.
      expect(tools.map((tool) => tool.name)).toEqual(TOOL_NAMES);
      expect(tools[0]).toMatchObject({
        name: "add",
        description: "Adds two numbers",
        inputSchema: { type: "object", properties: { a: { type: "number" }, b: { type: "number" } } },
      });
      const sum = await client.callTool({ name: "add", arguments: { a: 2, b: 40 } }, { timeout: CALL_TIMEOUT_MS });
      expect(sum.content).toEqual([{ type: "text", text: "42" }]);
      // The result is stamped as a modern result (resultType, serverInfo); the client keeps _meta.
      expect(sum._meta?.[SERVER_INFO_META_KEY]).toMatchObject({ name: "modern-clients" });

      const seen = jsonOf(await client.callTool({ name: "whoami", arguments: {} }, { timeout: CALL_TIMEOUT_MS }));
      expect(seen).toEqual({
        era: "modern",
        protocolVersion: MODERN_PROTOCOL_VERSION,
        clientInfo: { name: "client-2.x-modern-test", version: "2.0.0" },
        sessionId: null,
        logLevel: null,
      });
      // The standard headers mirrored the body (SEP-2243), and the server accepted them.
      expect(
        requests("tools/call").map((exchange) => [exchange.headers.method, exchange.headers.name, exchange.status]),
      ).toEqual([
        ["tools/call", "add", 200],
        ["tools/call", "whoami", 200],
      ]);
      expectNoSession(wire);
    });

    it("stamps a result that has a _meta of its own: the tool's keys stay next to serverInfo", async () => {
      const { client, requests } = await connect();
      const tagged = await client.callTool({ name: "tagged", arguments: {} }, { timeout: CALL_TIMEOUT_MS });
      expect(tagged.content).toEqual([{ type: "text", text: "tagged" }]);
      expect(tagged._meta).toMatchObject({
        "example.com/tag": "blue",
        [SERVER_INFO_META_KEY]: { name: "modern-clients" },
      });
      const [exchange] = requests("tools/call");
      expect(((await exchange!.response) as { result: unknown }).result).toEqual({
        content: [{ type: "text", text: "tagged" }],
        resultType: "complete",
        _meta: { "example.com/tag": "blue", [SERVER_INFO_META_KEY]: { name: "modern-clients", version: "3.1.4" } },
      });
    });

    it("receives progress, and log messages only at the level the request's _meta asks for", async () => {
      const logs: LogMessage[] = [];
      const { client, requests } = await connect({ onLog: (message) => void logs.push(message) });
      const progress: unknown[] = [];
      // The 2.x client has no per-connection log level in the modern era (logging/setLevel is gone);
      // the level is a per-request _meta key, which it merges over its own envelope.
      const stepped = await client.callTool(
        { name: "steps", arguments: {}, _meta: { [LOG_LEVEL_META_KEY]: "info" } },
        {
          timeout: CALL_TIMEOUT_MS,
          onprogress: (p) => void progress.push({ progress: p.progress, total: p.total, message: p.message }),
        },
      );
      expect(textOf(stepped)).toBe("stepped");
      expect(progress).toEqual([
        { progress: 1, total: 3, message: "step 1" },
        { progress: 2, total: 3, message: "step 2" },
        { progress: 3, total: 3, message: "step 3" },
      ]);
      await expect.poll(() => logs).toEqual([{ level: "info", logger: "steps", data: { done: 3 } }]);
      expect(requests("tools/call")[0]!.body!.params!._meta).toMatchObject({ [LOG_LEVEL_META_KEY]: "info" });
      expect(requests("tools/call")[0]!.contentType).toContain("text/event-stream");

      // A threshold filters: warning lets the error line through, not the info line.
      logs.length = 0;
      const filtered = await client.callTool(
        { name: "chatty", arguments: {}, _meta: { [LOG_LEVEL_META_KEY]: "warning" } },
        { timeout: CALL_TIMEOUT_MS },
      );
      expect(textOf(filtered)).toBe("logged");
      // The info line is sent before the error line on the same stream, so once the error line is
      // here an info line that passed the filter would be here too.
      await expect.poll(() => logs).toEqual([{ level: "error", data: "error line" }]);

      // No level in _meta: the server MUST NOT send any log message (wire.md §3.1).
      logs.length = 0;
      expect(textOf(await client.callTool({ name: "chatty", arguments: {} }, { timeout: CALL_TIMEOUT_MS }))).toBe(
        "logged",
      );
      // With nothing to stream, that answer stayed a plain JSON response (a log line would have
      // upgraded it to SSE)…
      expect(requests("tools/call")[2]!.contentType).toContain("application/json");
      // …and once a later call's error line is here, a line of the earlier call would be here too.
      await client.callTool(
        { name: "chatty", arguments: {}, _meta: { [LOG_LEVEL_META_KEY]: "error" } },
        { timeout: CALL_TIMEOUT_MS },
      );
      await expect.poll(() => logs).toEqual([{ level: "error", data: "error line" }]);
    });

    it("completes an elicitation through MRTR with the client's own handler", async () => {
      probes.askRuns = [];
      const asked: { message: string; requestedSchema?: unknown }[] = [];
      const { client, requests, errors } = await connect({
        onElicit: (params) => {
          asked.push(params);
          return ADA;
        },
      });
      const result = await client.callTool({ name: "ask", arguments: {} }, { timeout: CALL_TIMEOUT_MS });
      expect(jsonOf(result)).toEqual({ era: "modern", answer: ADA });
      expect(asked).toHaveLength(1);
      expect(asked[0]!.message).toBe("Who are you?");
      expect(asked[0]!.requestedSchema).toMatchObject({
        type: "object",
        properties: { name: { type: "string" }, age: { type: "number" } },
      });
      // Two rounds on the wire: the first call ended input_required (no cache hints: it is not
      // cacheable, wire.md §4.4), the retry (a new id) carried the answer under the server's key
      // and echoed the requestState byte for byte.
      const calls = requests("tools/call");
      expect(calls).toHaveLength(2);
      const first = (await calls[0]!.response) as { result: Record<string, unknown> };
      expect(first.result).toEqual({
        resultType: "input_required",
        inputRequests: {
          who: {
            method: "elicitation/create",
            params: { message: "Who are you?", requestedSchema: expect.objectContaining({ type: "object" }) },
          },
        },
        requestState: expect.any(String),
        _meta: { [SERVER_INFO_META_KEY]: { name: "modern-clients", version: "3.1.4" } },
      });
      expect(calls[0]!.body!.params!.inputResponses).toBeUndefined();
      expect(calls[1]!.body!.params!.inputResponses).toEqual({ who: ADA });
      expect(calls[1]!.body!.params!.requestState).toBe(first.result.requestState);
      expect(calls[1]!.body!.id).not.toEqual(calls[0]!.body!.id);
      expect(probes.askRuns).toEqual(["modern", "modern"]);
      expect(errors).toEqual([]);
    });

    it("completes a URL elicitation through MRTR; the embedded request has the modern shape", async () => {
      const asked: unknown[] = [];
      const { client, requests } = await connect(
        {
          onElicit: (params) => {
            asked.push(params);
            return { action: "accept" };
          },
        },
        // A bare `elicitation: {}` means form mode only; URL mode must be declared.
        { elicitation: { url: {} } },
      );
      const result = await client.callTool({ name: "visit", arguments: {} }, { timeout: CALL_TIMEOUT_MS });
      expect(jsonOf(result)).toEqual({ era: "modern", action: "accept" });
      expect(asked).toEqual([{ mode: "url", message: "Open the page to connect", url: "https://example.com/connect" }]);
      // The client's schema drops unknown members before its handler sees them, so the wire itself
      // is checked: 2026-07-28 URL elicitation is `{ mode, message, url }`; `elicitationId` was
      // removed along with notifications/elicitation/complete (wire.md §4.2).
      const first = (await requests("tools/call")[0]!.response) as { result: { inputRequests: unknown } };
      expect(first.result.inputRequests).toEqual({
        site: {
          method: "elicitation/create",
          params: { mode: "url", message: "Open the page to connect", url: "https://example.com/connect" },
        },
      });
    });

    it("fails a call with -32021 when the client did not declare the capability a tool needs", async () => {
      // No hooks: the client declares no capability at all.
      const { client, requests } = await connect();
      const error = await client.callTool({ name: "ask", arguments: {} }, { timeout: CALL_TIMEOUT_MS }).then(
        () => undefined,
        (failure: unknown) => failure,
      );
      expect(error).toMatchObject({ code: -32021, data: { requiredCapabilities: { elicitation: {} } } });
      // A ladder error: 400, not an input_required result the client could not fulfil.
      expect(requests("tools/call")).toEqual([expect.objectContaining({ status: 400 })]);
    });

    it("completes a sampling round through MRTR with the client's own handler", async () => {
      const asked: { messages: unknown[]; maxTokens: number }[] = [];
      const { client, requests } = await connect({ onSample: answerHi(asked) });
      const result = await client.callTool({ name: "summarize", arguments: {} }, { timeout: CALL_TIMEOUT_MS });
      expect(jsonOf(result)).toEqual({ era: "modern", model: "test-model", content: { type: "text", text: "Hi!" } });
      expect(asked).toHaveLength(1);
      expect(asked[0]!.maxTokens).toBe(50);
      expect(asked[0]!.messages).toEqual([{ role: "user", content: { type: "text", text: "Say hi" } }]);
      const calls = requests("tools/call");
      expect(calls).toHaveLength(2);
      expect(calls[1]!.body!.params!.inputResponses).toMatchObject({
        greeting: { role: "assistant", model: "test-model", content: { type: "text", text: "Hi!" } },
      });
    });

    it("keeps mcp.state across three rounds of one call", async () => {
      probes.interviewRuns = [];
      const asked: string[] = [];
      const { client, requests } = await connect({ onElicit: interviewAnswers(asked) });
      const result = await client.callTool({ name: "interview", arguments: {} }, { timeout: CALL_TIMEOUT_MS });
      expect(jsonOf(result)).toEqual({ era: "modern", name: "Ada", colour: "teal" });
      // The second question names the first answer: the state reached the round that asked it.
      expect(asked).toEqual(["What is your name?", "Hello Ada, your favourite colour?"]);
      // Three runs of the handler; only the last one started with the state the second one set.
      expect(probes.interviewRuns).toEqual([
        { era: "modern", state: undefined },
        { era: "modern", state: undefined },
        { era: "modern", state: { name: "Ada" } },
      ]);
      // The third request carried only the colour: the name came back through requestState alone.
      const calls = requests("tools/call");
      expect(calls.map((exchange) => exchange.body!.params!.inputResponses)).toEqual([
        undefined,
        { name: { action: "accept", content: { name: "Ada" } } },
        { colour: { action: "accept", content: { colour: "teal" } } },
      ]);
      expect(calls[2]!.body!.params!.requestState).not.toEqual(calls[1]!.body!.params!.requestState);
    });

    it("reads a resource and a template resource, and lists both kinds", async () => {
      const { client } = await connect();
      const { resources } = await client.listResources();
      expect(resources).toEqual([expect.objectContaining({ uri: "docs://readme", name: "readme" })]);
      const { resourceTemplates } = await client.listResourceTemplates();
      expect(resourceTemplates).toEqual([
        expect.objectContaining({ uriTemplate: "users://{id}/profile", name: "user-profile" }),
      ]);
      const readme = await client.readResource({ uri: "docs://readme" });
      expect(readme.contents).toEqual([{ uri: "docs://readme", mimeType: "text/markdown", text: "# Readme" }]);
      expect(readme).toMatchObject({ ttlMs: 0, cacheScope: "private" });
      const profile = await client.readResource({ uri: "users://alice/profile" });
      expect(profile.contents).toHaveLength(1);
      expect(profile.contents[0]!.uri).toBe("users://alice/profile");
      expect(JSON.parse((profile.contents[0] as { text: string }).text)).toEqual({ id: "alice", era: "modern" });
    });

    it("lists and gets prompts", async () => {
      const { client } = await connect();
      const { prompts } = await client.listPrompts();
      expect(prompts).toEqual([expect.objectContaining({ name: "greet" })]);
      const prompt = await client.getPrompt({ name: "greet", arguments: { name: "Ada", style: "formal" } });
      expect(prompt.messages).toEqual([{ role: "user", content: { type: "text", text: "Greet Ada in a formal way" } }]);
    });

    it("completes a prompt argument and a template variable", async () => {
      const { client } = await connect();
      const styles = await client.complete({
        ref: { type: "ref/prompt", name: "greet" },
        argument: { name: "style", value: "fr" },
        context: { arguments: { name: "Ada" } },
      });
      expect(styles.completion.values).toEqual(["friendly"]);
      const ids = await client.complete({
        ref: { type: "ref/resource", uri: "users://{id}/profile" },
        argument: { name: "id", value: "al" },
      });
      expect(ids.completion.values).toEqual(["alice", "albert"]);
    });

    it("holds listen streams that carry only the change notifications each one asked for", async () => {
      const toolChanges: unknown[] = [];
      const promptChanges: unknown[] = [];
      const tools = await connect();
      const prompts = await connect();
      tools.client.setNotificationHandler("notifications/tools/list_changed", (n) => void toolChanges.push(n));
      tools.client.setNotificationHandler("notifications/prompts/list_changed", (n) => void promptChanges.push(n));
      prompts.client.setNotificationHandler("notifications/tools/list_changed", (n) => void toolChanges.push(n));
      prompts.client.setNotificationHandler("notifications/prompts/list_changed", (n) => void promptChanges.push(n));

      const subscriptions: McpSubscription[] = [];
      try {
        const toolsListen = await tools.client.listen({ toolsListChanged: true }, { timeout: CALL_TIMEOUT_MS });
        subscriptions.push(toolsListen);
        const promptsListen = await prompts.client.listen({ promptsListChanged: true }, { timeout: CALL_TIMEOUT_MS });
        subscriptions.push(promptsListen);
        expect(toolsListen.honoredFilter).toEqual({ toolsListChanged: true });
        expect(promptsListen.honoredFilter).toEqual({ promptsListChanged: true });
        expect(tools.requests("subscriptions/listen")[0]).toMatchObject({
          status: 200,
          contentType: expect.stringContaining("text/event-stream"),
        });

        // Another call, by the other client, announces a tool change…
        expect(
          textOf(await prompts.client.callTool({ name: "bump-tools", arguments: {} }, { timeout: CALL_TIMEOUT_MS })),
        ).toBe("bumped tools");
        await expect.poll(() => toolChanges).toHaveLength(1);
        // …then a prompt change. Both go through one bus in order, so once the prompt change has
        // reached the prompts stream, a tool change wrongly sent there would have arrived too.
        expect(
          textOf(await tools.client.callTool({ name: "bump-prompts", arguments: {} }, { timeout: CALL_TIMEOUT_MS })),
        ).toBe("bumped prompts");
        await expect.poll(() => promptChanges).toHaveLength(1);
        expect(toolChanges).toHaveLength(1);
        // Each notification names its stream: the listen request's id as subscriptionId (wire.md §6.2).
        const toolsListenId = tools.requests("subscriptions/listen")[0]!.body!.id;
        const promptsListenId = prompts.requests("subscriptions/listen")[0]!.body!.id;
        expect(toolChanges[0]).toEqual({
          method: "notifications/tools/list_changed",
          params: { _meta: { [SUBSCRIPTION_ID_META_KEY]: toolsListenId } },
        });
        expect(promptChanges[0]).toEqual({
          method: "notifications/prompts/list_changed",
          params: { _meta: { [SUBSCRIPTION_ID_META_KEY]: promptsListenId } },
        });
      } finally {
        await Promise.all(subscriptions.map((subscription) => subscription.close()));
      }
      expect(await subscriptions[0]!.closed).toBe("local");
    });

    it("ends a listen stream gracefully with its result when the handler closes", async () => {
      // Its own server: closing a handler ends every listen stream it serves.
      const handler = buildHandler();
      const own = await startHost(host, handler);
      try {
        const connection = await connectModern(own.url, mode);
        open.push(connection);
        connections.push(connection);
        const subscription = await connection.client.listen({ toolsListChanged: true }, { timeout: CALL_TIMEOUT_MS });
        await handler.close();
        const stillOpen = new Promise<string>((resolve) => setTimeout(() => resolve("still open"), 3_000));
        // "graceful" only when the listen result frame arrived before the stream ended (wire.md §6.3).
        expect(await Promise.race([subscription.closed, stillOpen])).toBe("graceful");
      } finally {
        await own.close();
      }
    });

    it.each([
      { streamed: true, how: "its SSE stream" },
      { streamed: false, how: "a response that has not started" },
    ])("aborts a call by closing $how: the handler's signal fires", async ({ streamed }) => {
      probes.slowStarted = deferred();
      probes.slowAborted = deferred();
      const { client, requests } = await connect();
      const controller = new AbortController();
      const progressed = deferred<void>();
      // With onprogress the client sends a progress token, and the tool's progress upgrades the
      // response to SSE; without one the tool sends nothing and the response has no headers yet.
      const call = client
        .callTool(
          { name: "slow", arguments: {} },
          {
            timeout: CALL_TIMEOUT_MS,
            signal: controller.signal,
            ...(streamed ? { onprogress: () => progressed.resolve() } : {}),
          },
        )
        .then(
          () => ({ ok: true as const }),
          (error: unknown) => ({ ok: false as const, error }),
        );
      await probes.slowStarted.promise;
      // Streamed: the client holds the call's SSE stream (the progress came through it) when it aborts.
      if (streamed) await progressed.promise;
      controller.abort(new Error("user gave up"));
      const outcome = await call;
      expect(outcome.ok).toBe(false);
      // The handler saw the abort well before its 5 s fallback…
      expect(await probes.slowAborted.promise).toEqual({ aborted: true, era: "modern" });
      // …and nothing but the closed connection told it: the modern client sends no cancel message.
      expect(requests("notifications/cancelled")).toEqual([]);
      expect(requests("tools/call")).toHaveLength(1);
      if (streamed) expect(requests("tools/call")[0]!.contentType).toContain("text/event-stream");
      else expect(requests("tools/call")[0]!.status).toBeUndefined();
    });
  });

  // -------------------------------------------------------------------------------------------
  // One definition, both eras, one server

  describe("one tool definition on both eras", () => {
    const legacyFactory = CLIENTS.find((factory) => factory.name === "sdk-1.x")!;
    const pinned = MODERN_MODES.find((mode) => mode.name === "pinned")!;

    async function connectLegacy(hooks: ClientHooks): Promise<TestClient> {
      const client = await legacyFactory.connect(server.url, hooks);
      open.push(client);
      return client;
    }

    async function connectPinned(hooks: ClientHooks): Promise<ModernConnection> {
      const connection = await connectModern(server.url, pinned, hooks);
      open.push(connection);
      return connection;
    }

    it("the same `ask` elicits on a legacy session and on the modern era", async () => {
      probes.askRuns = [];
      const legacyAsked: string[] = [];
      const modernAsked: string[] = [];
      const legacy = await connectLegacy({
        onElicit: ({ message }) => {
          legacyAsked.push(message);
          return { action: "accept", content: { name: "Lin", age: 7 } };
        },
      });
      const modern = await connectPinned({
        onElicit: ({ message }) => {
          modernAsked.push(message);
          return ADA;
        },
      });
      expect(modern.client.getProtocolEra()).toBe("modern");
      // Control: the legacy client really holds a session (initialize on the same URL).
      expect(legacy.sessionId).toBeTruthy();
      // Interleaved on purpose: both eras are live on the one handler at the same time.
      const [fromLegacy, fromModern] = await Promise.all([
        legacy.callTool("ask", {}),
        modern.client.callTool({ name: "ask", arguments: {} }, { timeout: CALL_TIMEOUT_MS }),
      ]);
      expect(jsonOf(fromLegacy)).toEqual({
        era: "legacy",
        answer: { action: "accept", content: { name: "Lin", age: 7 } },
      });
      expect(jsonOf(fromModern)).toEqual({ era: "modern", answer: ADA });
      expect(legacyAsked).toEqual(["Who are you?"]);
      expect(modernAsked).toEqual(["Who are you?"]);
      // Legacy: one run that waited for the answer; modern: two runs (ask, then the retry).
      expect(probes.askRuns.filter((era) => era === "legacy")).toHaveLength(1);
      expect(probes.askRuns.filter((era) => era === "modern")).toHaveLength(2);
      // The legacy answer went back as a POSTed JSON-RPC response, not as an MRTR retry.
      expect(legacy.sent.filter((request) => request.rpcMethod === "tools/call")).toHaveLength(1);
      expect(modern.requests("tools/call")).toHaveLength(2);
    });

    it("the multi-round `interview` works on a legacy session, where state is a plain property", async () => {
      probes.interviewRuns = [];
      const asked: string[] = [];
      const legacy = await connectLegacy({ onElicit: interviewAnswers(asked) });
      const result = await legacy.callTool("interview", {});
      expect(jsonOf(result)).toEqual({ era: "legacy", name: "Ada", colour: "teal" });
      expect(asked).toEqual(["What is your name?", "Hello Ada, your favourite colour?"]);
      // One run: elicit waited in place both times, so the handler never restarted.
      expect(probes.interviewRuns).toEqual([{ era: "legacy", state: undefined }]);
      expect(legacy.sent.filter((request) => request.rpcMethod === "tools/call")).toHaveLength(1);
    });
  });
});
