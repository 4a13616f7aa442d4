/**
 * The legacy session era as real clients use it: the 1.x SDK and the 2.x client (legacy mode)
 * talk to one mcp-h3 handler over real HTTP on h3 v2 and h3 v1. Each case drives a feature end to
 * end through the client's own transport (SSE upgrades, server→client requests answered by POST,
 * `notifications/cancelled`, DELETE, `Last-Event-ID` resumption), so a break anywhere on the path fails it.
 */
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { z } from "zod";
import { defineMcpHandler, defineTool } from "../src/index.ts";
import { addTool, chattyTool, greetPrompt, readmeResource, stepsTool, userProfileTemplate } from "./helpers/catalog.ts";
import { closeAfterEach } from "./helpers/cleanup.ts";
import {
  CLIENTS,
  answerHi,
  type LogMessage,
  type Progress,
  type TestClient,
  type ToolResult,
} from "./helpers/clients.ts";
import { deferred } from "./helpers/deferred.ts";
import { HOSTS, startHost, type RunningHost } from "./helpers/hosts.ts";
import { POST_HEADERS, initializeByHand } from "./helpers/rpc.ts";
import { parseSse } from "./helpers/sse.ts";
import { abortedWithin, sleep } from "./helpers/wait.ts";

const PROTOCOL_VERSION = "2025-11-25";

// ---------------------------------------------------------------------------------------------
// Small helpers

function textOf(result: ToolResult): string {
  const first = result.content?.[0];
  expect(first?.type).toBe("text");
  return first!.text!;
}

/** Progress as a plain record, whatever extra fields a client adds. */
function pickProgress(p: Progress): Progress {
  return p.message === undefined ? { progress: p.progress, total: p.total } : { ...p };
}

// ---------------------------------------------------------------------------------------------
// The server under test: one handler with every feature the cases use

/**
 * Probes the tools close over, so a test can see what happened inside the handler. Tests in a file
 * run one after another, so each case resets the probe it uses.
 */
const probes = {
  slowStarted: deferred<void>(),
  slowAborted: deferred<boolean>(),
};

function buildHandler() {
  return defineMcpHandler({
    name: "legacy-clients",
    version: "1.0.0",
    logging: true,
    // Fast reconnection after closeStream(): the clients honour the priming event's `retry:`.
    retryMs: 50,
    tools: [
      addTool,
      stepsTool,
      chattyTool,
      defineTool({
        name: "ask",
        description: "Asks the user who they are",
        handler: async (event) => {
          const answer = await event.context.mcp!.elicit(
            "who",
            "Who are you?",
            z.object({ name: z.string(), age: z.number() }),
          );
          return JSON.stringify(answer);
        },
      }),
      defineTool({
        name: "summarize",
        description: "Asks the client's model for a greeting",
        handler: async (event) => {
          const answer = await event.context.mcp!.sample("greeting", {
            messages: [{ role: "user", content: { type: "text", text: "Say hi" } }],
            maxTokens: 50,
          });
          return JSON.stringify({ model: answer.model, content: answer.content });
        },
      }),
      defineTool({
        name: "slow",
        description: "Waits up to 5 s for cancellation",
        handler: async (event) => {
          const signal = event.context.mcp!.signal;
          probes.slowStarted.resolve();
          const aborted = await abortedWithin(signal, 5_000);
          probes.slowAborted.resolve(aborted);
          return aborted ? "aborted" : "finished";
        },
      }),
      defineTool({
        name: "resumable",
        description: "Drops its connection after progress 1 and goes on while the client is away",
        input: z.object({ lingerMs: z.number() }),
        handler: async (event, { lingerMs }) => {
          const mcp = event.context.mcp!;
          await mcp.progress(1, 5);
          mcp.closeStream();
          // Queued behind the close: these land in the event log with no connection attached.
          for (let step = 2; step <= 5; step++) await mcp.progress(step, 5);
          // lingerMs > retryMs: the client is back on the live stream before the result is sent.
          if (lingerMs > 0) await sleep(lingerMs);
          return "resumed";
        },
      }),
    ],
    resources: [readmeResource, userProfileTemplate((_event, { id }) => JSON.stringify({ id }))],
    prompts: [greetPrompt],
  });
}

// ---------------------------------------------------------------------------------------------
// Raw HTTP, for what the clients do not expose (a foreign session id, a foreign Last-Event-ID)

function rawPost(url: string, sessionId: string | undefined, body: unknown): Promise<Response> {
  const headers: Record<string, string> = { ...POST_HEADERS };
  if (sessionId !== undefined) {
    headers["mcp-session-id"] = sessionId;
    headers["mcp-protocol-version"] = PROTOCOL_VERSION;
  }
  return fetch(url, { method: "POST", headers, body: JSON.stringify(body) });
}

function rawGet(url: string, sessionId: string, lastEventId: string): Promise<Response> {
  return fetch(url, {
    method: "GET",
    headers: {
      accept: "text/event-stream",
      "mcp-session-id": sessionId,
      "mcp-protocol-version": PROTOCOL_VERSION,
      "last-event-id": lastEventId,
    },
  });
}

/** initialize + notifications/initialized, as a client does; returns the session id. */
async function rawSession(url: string): Promise<string> {
  const sessionId = await initializeByHand(url, PROTOCOL_VERSION);
  const initialized = await rawPost(url, sessionId, { jsonrpc: "2.0", method: "notifications/initialized" });
  expect(initialized.status).toBe(202);
  return sessionId;
}

// ---------------------------------------------------------------------------------------------

describe.each(HOSTS)("legacy clients on %s", (host) => {
  let server: RunningHost;

  beforeAll(async () => {
    server = await startHost(host, buildHandler());
  });

  afterAll(async () => {
    await server.close();
  });

  describe.each(CLIENTS)("$name", (factory) => {
    const open = closeAfterEach<TestClient>();

    async function connect(hooks?: Parameters<typeof factory.connect>[1]): Promise<TestClient> {
      const client = await factory.connect(server.url, hooks);
      open.push(client);
      return client;
    }

    it("lists and calls tools", async () => {
      const client = await connect();
      const { tools } = await client.listTools();
      // The catalog lists in definition order, the same on every call.
      expect(tools.map((tool) => tool.name)).toEqual([
        "add",
        "steps",
        "chatty",
        "ask",
        "summarize",
        "slow",
        "resumable",
      ]);
      expect(tools[0]).toMatchObject({
        name: "add",
        description: "Adds two numbers",
        inputSchema: { type: "object", properties: { a: { type: "number" }, b: { type: "number" } } },
      });
      const result = await client.callTool("add", { a: 2, b: 40 });
      expect(result.isError).toBeFalsy();
      expect(result.content).toEqual([{ type: "text", text: "42" }]);
    });

    it("receives progress and log messages of a call", async () => {
      const logs: LogMessage[] = [];
      const client = await connect({ onLog: (message) => void logs.push(message) });
      const progress: Progress[] = [];
      const result = await client.callTool("steps", {}, { onprogress: (p) => void progress.push(pickProgress(p)) });
      expect(textOf(result)).toBe("stepped");
      expect(progress).toEqual([
        { progress: 1, total: 3, message: "step 1" },
        { progress: 2, total: 3, message: "step 2" },
        { progress: 3, total: 3, message: "step 3" },
      ]);
      await expect.poll(() => logs).toEqual([{ level: "info", logger: "steps", data: { done: 3 } }]);
    });

    it("filters log messages by logging/setLevel", async () => {
      const logs: LogMessage[] = [];
      const client = await connect({ onLog: (message) => void logs.push(message) });
      // Control: with no level set, a legacy session gets every level.
      await client.callTool("chatty", {});
      await expect.poll(() => logs.map((log) => log.level)).toEqual(["info", "error"]);
      logs.length = 0;

      await client.setLoggingLevel("warning");
      expect(textOf(await client.callTool("chatty", {}))).toBe("logged");
      // The info line is sent before the error line on the same stream, so once the error line is
      // here an info line that passed the filter would be here too.
      await expect.poll(() => logs.map((log) => log.level)).toEqual(["error"]);
      expect(logs[0]!.data).toBe("error line");
    });

    it("answers an elicitation from a tool", async () => {
      const asked: { message: string; requestedSchema?: unknown }[] = [];
      const client = await connect({
        onElicit: (params) => {
          asked.push(params);
          return { action: "accept", content: { name: "Ada", age: 36 } };
        },
      });
      const result = await client.callTool("ask", {});
      expect(result.isError).toBeFalsy();
      expect(JSON.parse(textOf(result))).toEqual({ action: "accept", content: { name: "Ada", age: 36 } });
      expect(asked).toHaveLength(1);
      expect(asked[0]!.message).toBe("Who are you?");
      expect(asked[0]!.requestedSchema).toMatchObject({
        type: "object",
        properties: { name: { type: "string" }, age: { type: "number" } },
      });
    });

    it("answers a sampling request from a tool", async () => {
      const asked: { messages: unknown[]; maxTokens: number }[] = [];
      const client = await connect({ onSample: answerHi(asked) });
      const result = await client.callTool("summarize", {});
      expect(result.isError).toBeFalsy();
      expect(JSON.parse(textOf(result))).toEqual({ model: "test-model", content: { type: "text", text: "Hi!" } });
      expect(asked).toHaveLength(1);
      expect(asked[0]!.maxTokens).toBe(50);
      expect(asked[0]!.messages).toEqual([{ role: "user", content: { type: "text", text: "Say hi" } }]);
    });

    it("reads a resource and a template resource, and lists templates", async () => {
      const client = await connect();
      const readme = await client.readResource("docs://readme");
      expect(readme.contents).toEqual([{ uri: "docs://readme", mimeType: "text/markdown", text: "# Readme" }]);
      const profile = await client.readResource("users://alice/profile");
      expect(profile.contents).toHaveLength(1);
      expect(profile.contents[0]!.uri).toBe("users://alice/profile");
      expect(JSON.parse(profile.contents[0]!.text!)).toEqual({ id: "alice" });
      const { resourceTemplates } = await client.listResourceTemplates();
      expect(resourceTemplates).toEqual([
        expect.objectContaining({ uriTemplate: "users://{id}/profile", name: "user-profile" }),
      ]);
    });

    it("gets a prompt with arguments", async () => {
      const client = await connect();
      const prompt = await client.getPrompt("greet", { name: "Ada", style: "formal" });
      expect(prompt.messages).toEqual([{ role: "user", content: { type: "text", text: "Greet Ada in a formal way" } }]);
    });

    it("completes a prompt argument and a template variable", async () => {
      const client = await connect();
      const styles = await client.complete({
        ref: { type: "ref/prompt", name: "greet" },
        argument: { name: "style", value: "f" },
        context: { arguments: { name: "Ada" } },
      });
      expect(styles.completion.values).toEqual(["formal", "friendly", "funny"]);
      const narrowed = await client.complete({
        ref: { type: "ref/prompt", name: "greet" },
        argument: { name: "style", value: "fr" },
      });
      expect(narrowed.completion.values).toEqual(["friendly"]);
      const ids = await client.complete({
        ref: { type: "ref/resource", uri: "users://{id}/profile" },
        argument: { name: "id", value: "al" },
      });
      expect(ids.completion.values).toEqual(["alice", "albert"]);
    });

    it("cancels a long call: the tool's signal fires and the call rejects", async () => {
      probes.slowStarted = deferred();
      probes.slowAborted = deferred();
      const client = await connect();
      const controller = new AbortController();
      const call = client.callTool("slow", {}, { signal: controller.signal });
      // Swallow here, assert below: the rejection must not go unhandled while we wait.
      const settled = call.then(
        () => ({ ok: true as const }),
        (error: unknown) => ({ ok: false as const, error }),
      );
      await probes.slowStarted.promise;
      controller.abort(new Error("user gave up"));
      const outcome = await settled;
      expect(outcome.ok).toBe(false);
      // The handler saw its signal abort well before its 5 s fallback…
      expect(await probes.slowAborted.promise).toBe(true);
      // …because the client POSTed notifications/cancelled, which the server accepted (the handler may
      // see the abort before the 202 is back at the client, hence the poll).
      await expect
        .poll(() => client.sent.filter((request) => request.rpcMethod === "notifications/cancelled"))
        .toEqual([expect.objectContaining({ method: "POST", status: 202 })]);
    });

    // A POSTed request must be answered with application/json or text/event-stream (wire.md §8.1): a
    // cancelled call's POST ends as an empty event stream, which both clients accept without an error.
    it("ends a cancelled call's POST as a request response the client accepts", async () => {
      probes.slowStarted = deferred();
      probes.slowAborted = deferred();
      const client = await connect();
      const controller = new AbortController();
      const call = client.callTool("slow", {}, { signal: controller.signal }).catch(() => "rejected");
      await probes.slowStarted.promise;
      controller.abort();
      expect(await call).toBe("rejected");
      expect(await probes.slowAborted.promise).toBe(true);
      const post = await vi.waitUntil(() =>
        client.sent.find((request) => request.rpcMethod === "tools/call" && request.status !== undefined),
      );
      expect(post.status).toBe(200);
      expect(post.contentType).toMatch(/^(application\/json|text\/event-stream)/);
      // The transport handles that response as soon as it arrives; a later call through the same
      // client completes only after it (order, not a clock), and nothing was reported either way.
      const after = await client.callTool("add", { a: 1, b: 2 });
      expect(after.content).toEqual([{ type: "text", text: "3" }]);
      expect(client.errors).toEqual([]);
    });

    it("terminates the session: a later request with its id gets 404", async () => {
      const client = await connect();
      const sessionId = client.sessionId;
      expect(sessionId).toBeTruthy();
      const ping = { jsonrpc: "2.0", id: 99, method: "ping" };
      // Control: the same raw request is served while the session lives.
      const before = await rawPost(server.url, sessionId, ping);
      expect(before.status).toBe(200);
      await before.text();

      await client.terminateSession();
      const after = await rawPost(server.url, sessionId, ping);
      expect(after.status).toBe(404);
      await after.text();
    });

    it.each([
      { lingerMs: 0, how: "replayed after the call ended" },
      { lingerMs: 300, how: "continued live after the replay" },
    ])("resumes a dropped stream: progress 1..5 once each and the result, $how", async ({ lingerMs }) => {
      const client = await connect();
      const progress: number[] = [];
      const result = await client.callTool(
        "resumable",
        { lingerMs },
        { onprogress: (p) => void progress.push(p.progress) },
      );
      expect(textOf(result)).toBe("resumed");
      expect(progress).toEqual([1, 2, 3, 4, 5]);
      // The connection really dropped: the client came back once, by itself, with a GET + Last-Event-ID.
      const resumptions = client.sent.filter((request) => request.method === "GET" && request.lastEventId !== null);
      expect(resumptions).toHaveLength(1);
    });
  });

  it("a Last-Event-ID of session A replays nothing on a GET of session B (400)", async () => {
    const a = await rawSession(server.url);
    const b = await rawSession(server.url);
    const call = await rawPost(server.url, a, {
      jsonrpc: "2.0",
      id: 2,
      method: "tools/call",
      params: { name: "steps", arguments: {}, _meta: { progressToken: "token-of-a" } },
    });
    expect(call.status).toBe(200);
    expect(call.headers.get("content-type")).toContain("text/event-stream");
    const events = parseSse(await call.text());
    const firstId = events[0]?.id;
    expect(firstId).toBeTruthy();
    expect(events.some((event) => event.data.includes("token-of-a"))).toBe(true);

    // Control: on A's own session the id replays the rest of A's stream.
    const own = await rawGet(server.url, a, firstId!);
    expect(own.status).toBe(200);
    const replayed = parseSse(await own.text());
    expect(replayed.filter((event) => event.data.includes("token-of-a"))).toHaveLength(3);

    const foreign = await rawGet(server.url, b, firstId!);
    const body = await foreign.text();
    expect(foreign.status).toBe(400);
    expect(body).not.toContain("token-of-a");
    expect(body).not.toContain("stepped");
  });
});
