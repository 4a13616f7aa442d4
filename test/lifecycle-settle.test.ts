/**
 * Issue 10, "no promise without an owner, every reply settles": a failure after the handler ran is
 * answered as a JSON-RPC error (never an unhandled rejection, never a request left without an
 * answer); a handler abandoned by `input_required` still runs its `finally`; a listen slot is
 * released on every path; a reply whose client went away settles.
 *
 * Over real HTTP on h3 v2 and h3 v1, and through `handler.fetch` where only a Web `Request` can
 * set the scene (a request already aborted before the engine sees it).
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { z } from "zod";
import { defineMcpHandler, defineTool, type McpEventHandler } from "../src/index.ts";
import { deferred } from "./helpers/deferred.ts";
import { HOSTS, startHost, type RunningHost } from "./helpers/hosts.ts";
import { POST_HEADERS, toAnswer, type Answer, type RpcMessage } from "./helpers/rpc.ts";
import { abortedWithin, sleep } from "./helpers/wait.ts";
import { watchProcess } from "./helpers/watch-process.ts";

const MODERN = "2026-07-28";
const INTERNAL_ERROR = -32603;

let nextId = 1;

/** A modern request with its envelope and standard headers. */
function modernRequest(
  url: string,
  method: string,
  params: Record<string, unknown>,
  signal?: AbortSignal,
  progressToken?: string,
): Request {
  const meta: Record<string, unknown> = {
    "io.modelcontextprotocol/protocolVersion": MODERN,
    "io.modelcontextprotocol/clientCapabilities": { elicitation: { form: {} } },
    "io.modelcontextprotocol/clientInfo": { name: "lifecycle-test", version: "1.0.0" },
  };
  if (progressToken !== undefined) meta.progressToken = progressToken;
  const message = { jsonrpc: "2.0", id: nextId++, method, params: { ...params, _meta: meta } };
  const headers: Record<string, string> = { ...POST_HEADERS, "mcp-protocol-version": MODERN, "mcp-method": method };
  if (typeof params.name === "string") headers["mcp-name"] = params.name;
  return new Request(url, { method: "POST", headers, body: JSON.stringify(message), signal });
}

async function call(url: string, name: string, args: Record<string, unknown> = {}): Promise<RpcMessage> {
  const answer = await toAnswer(await fetch(modernRequest(url, "tools/call", { name, arguments: args })));
  expect(answer.status, answer.text).toBe(200);
  return answer.json as RpcMessage;
}

function textOf(message: RpcMessage): string {
  return ((message.result?.content as { text: string }[] | undefined) ?? [])[0]?.text ?? "";
}

const watch = watchProcess();

/** A result JSON cannot carry. */
function unsendable(): { content: { type: "text"; text: string }[]; _meta: Record<string, unknown> } {
  return { content: [{ type: "text", text: "big" }], _meta: { big: 10n } };
}

/** Tools whose state cannot be signed, and tools abandoned by `input_required`. */
function lifecycleHandler(): McpEventHandler & { cleanedUp: () => number } {
  let cleanedUp = 0;
  const ask = async (event: Parameters<Parameters<typeof defineTool>[0]["handler"]>[0]): Promise<string> => {
    const answer = await event.context.mcp!.elicit("name", "Your name?", z.object({ name: z.string() }));
    return JSON.stringify(answer);
  };
  const handler = defineMcpHandler({
    name: "lifecycle",
    version: "1.0.0",
    // A shared secret, as a deployment has: without one the first input_required round warns once
    // (a random key per instance), and these tests watch the console for anything at all.
    requestState: { secret: "a shared secret of at least thirty-two bytes" },
    tools: [
      defineTool({
        name: "circular-state",
        input: z.object({}),
        handler: (event) => {
          const state: Record<string, unknown> = {};
          state.self = state;
          event.context.mcp!.state = state;
          return ask(event);
        },
      }),
      defineTool({
        name: "bigint-state",
        input: z.object({}),
        handler: (event) => {
          event.context.mcp!.state = 10n;
          return ask(event);
        },
      }),
      defineTool({
        name: "cleanup",
        input: z.object({}),
        handler: async (event) => {
          try {
            return await ask(event);
          } finally {
            cleanedUp++;
          }
        },
      }),
      defineTool({
        name: "unawaited-input",
        input: z.object({}),
        handler: (event) => {
          // Never awaited: it rejects when input_required abandons the handler, with nobody to see it.
          void event.context.mcp!.elicit("first", "First?", z.object({ first: z.string() }));
          return ask(event);
        },
      }),
      defineTool({ name: "count", input: z.object({}), handler: () => String(cleanedUp) }),
      defineTool({ name: "bigint-sync", input: z.object({}), handler: () => unsendable() }),
      defineTool({ name: "bigint-async", input: z.object({}), handler: async () => unsendable() }),
      defineTool({
        name: "bigint-stream",
        input: z.object({}),
        handler: async (event) => {
          await event.context.mcp!.progress(1, 2);
          return unsendable();
        },
      }),
    ],
  });
  return Object.assign(handler, { cleanedUp: () => cleanedUp });
}

describe.each(HOSTS)("lifecycle on %s", (host) => {
  let handler: ReturnType<typeof lifecycleHandler>;
  let server: RunningHost;

  beforeAll(async () => {
    handler = lifecycleHandler();
    server = await startHost(host, handler);
  });
  afterAll(() => server.close());

  it.each(["circular-state", "bigint-state"])(
    "answers -32603 when the input_required state of %s cannot be signed, with no unhandled rejection",
    async (name) => {
      const answer = await Promise.race([call(server.url, name), sleep(5000).then(() => "no answer" as const)]);
      expect(answer).not.toBe("no answer");
      const message = answer as RpcMessage;
      expect(message.error?.code, JSON.stringify(message)).toBe(INTERNAL_ERROR);
      expect(message.error?.message).toMatch(/\w+/);
      await sleep(20);
      expect(watch.rejections).toEqual([]);
      // The server goes on serving.
      expect(textOf(await call(server.url, "count"))).toMatch(/^\d+$/);
    },
  );

  it.each(["bigint-sync", "bigint-async", "bigint-stream"])(
    "answers -32603 when the result of %s cannot be sent as JSON",
    async (name) => {
      const request = modernRequest(server.url, "tools/call", { name, arguments: {} }, undefined, "p");
      const answer = await Promise.race([toAnswer(await fetch(request)), sleep(5000).then(() => undefined)]);
      expect(answer, "an answer").toBeDefined();
      const messages = answer!.json ? [answer!.json as RpcMessage] : answer!.events.map((e) => JSON.parse(e.data));
      const last = messages.at(-1) as RpcMessage;
      expect(last.error?.code, answer!.text).toBe(INTERNAL_ERROR);
      expect(last.error?.message).toContain("BigInt");
      expect(watch.rejections).toEqual([]);
    },
  );

  it("runs the finally of a handler abandoned by input_required, and reports nothing", async () => {
    const before = Number(textOf(await call(server.url, "count")));
    const answer = await call(server.url, "cleanup");
    expect(answer.result?.resultType).toBe("input_required");
    expect(textOf(await call(server.url, "count"))).toBe(String(before + 1));
    expect(watch.rejections).toEqual([]);
    expect(watch.lines).toEqual([]);
  });

  it("gives an input request the handler never awaited an owner: abandoned, it is no unhandled rejection", async () => {
    const answer = await call(server.url, "unawaited-input");
    expect(answer.result?.resultType).toBe("input_required");
    await sleep(20);
    expect(watch.rejections).toEqual([]);
  });
});

describe.each(HOSTS)("listen slots on %s", (host) => {
  it("are released when the client goes away after the stream started", async () => {
    const handler = defineMcpHandler({ name: "listen", version: "1.0.0", tools: [], maxListens: 2 });
    const server = await startHost(host, handler);
    try {
      for (let round = 0; round < 3; round++) {
        const controllers = [new AbortController(), new AbortController()];
        const responses = await Promise.all(
          controllers.map((c) =>
            fetch(modernRequest(server.url, "subscriptions/listen", { notifications: {} }, c.signal)),
          ),
        );
        for (const response of responses) expect(response.headers.get("content-type")).toContain("event-stream");
        for (const controller of controllers) controller.abort();
        await sleep(50);
      }
    } finally {
      await server.close();
    }
  });
});

describe("through handler.fetch", () => {
  it("releases the listen slot of a request aborted before its stream started", async () => {
    const handler = defineMcpHandler({ name: "listen", version: "1.0.0", tools: [], maxListens: 2 });
    for (let i = 0; i < 5; i++) {
      const gone = new AbortController();
      gone.abort();
      const answer = await handler.fetch(
        modernRequest("http://localhost/mcp", "subscriptions/listen", { notifications: {} }, gone.signal),
      );
      await answer.body?.cancel().catch(() => {});
    }
    const open = new AbortController();
    const live = await handler.fetch(
      modernRequest("http://localhost/mcp", "subscriptions/listen", { notifications: {} }, open.signal),
    );
    expect(live.headers.get("content-type")).toContain("text/event-stream");
    open.abort();
    await live.body?.cancel().catch(() => {});
  });

  it("releases the listen slots that handler.close() ends", async () => {
    const handler = defineMcpHandler({ name: "listen", version: "1.0.0", tools: [], maxListens: 2 });
    const open = async (): Promise<Response> =>
      handler.fetch(
        modernRequest("http://localhost/mcp", "subscriptions/listen", { notifications: { toolsListChanged: true } }),
      );
    const first = [await open(), await open()];
    expect((await open()).headers.get("content-type")).toContain("application/json");
    await handler.close();
    for (const response of first) expect(await response.text()).toContain('"resultType":"complete"');
    const again = [await open(), await open()];
    for (const response of again) expect(response.headers.get("content-type")).toContain("text/event-stream");
    await handler.close();
  });

  it("settles the reply of a call whose client went away before it answered", async () => {
    const started = deferred();
    const release = deferred();
    const handler = defineMcpHandler({
      name: "gone",
      version: "1.0.0",
      keepAliveMs: 0,
      tools: [
        defineTool({
          name: "wait",
          input: z.object({}),
          handler: async (event) => {
            const signal = event.context.mcp!.signal;
            started.resolve();
            await Promise.race([abortedWithin(signal, 10_000), release.promise]);
            return "late";
          },
        }),
      ],
    });
    const client = new AbortController();
    const reply = handler.fetch(modernRequest("http://localhost/mcp", "tools/call", { name: "wait" }, client.signal));
    await started.promise;
    client.abort();
    const settled = await Promise.race([reply.then(() => "settled"), sleep(3000).then(() => "pending")]);
    release.resolve();
    expect(settled).toBe("settled");
  });

  it("answers -32603 through handler.fetch when the state cannot be signed", async () => {
    const handler = lifecycleHandler();
    const answer: Answer = await toAnswer(
      await handler.fetch(
        modernRequest("http://localhost/mcp", "tools/call", { name: "circular-state", arguments: {} }),
      ),
    );
    expect((answer.json as RpcMessage).error?.code).toBe(INTERNAL_ERROR);
    expect(watch.rejections).toEqual([]);
  });
});
