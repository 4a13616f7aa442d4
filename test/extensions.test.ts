/**
 * The seam optional parts plug in through (`extensions`, or carried by a store): an extension's
 * methods are served in the eras it names and its capabilities advertised in both, over real HTTP
 * on both h3 majors; one extension carried twice plugs in once; and a session store and bus that
 * several instances may share are refused without the session routing, with an error that says
 * what to add.
 */
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import {
  defineMcpHandler,
  defineTool,
  MemoryBus,
  MemoryEventStore,
  MemorySessionStore,
  McpError,
  type Bus,
  type McpExtension,
  type SessionStore,
} from "../src/index.ts";
import type { McpEventHandler } from "../src/handler-types.ts";
import { RedisBus, RedisSessionStore } from "../src/_entries/redis.ts";
import { sessionRouting } from "../src/_entries/shared.ts";
import { HOSTS, startHost, type RunningHost } from "./helpers/hosts.ts";
import { liveSse } from "./helpers/live-sse.ts";
import { POST_HEADERS, initializeByHand, post, single, toAnswer } from "./helpers/rpc.ts";

const MODERN = "2026-07-28";
const MODERN_META = {
  "io.modelcontextprotocol/protocolVersion": MODERN,
  "io.modelcontextprotocol/clientCapabilities": {},
};

function modern(url: string, method: string, params: Record<string, unknown> = {}) {
  return post(
    url,
    { jsonrpc: "2.0", id: 7, method, params: { ...params, _meta: MODERN_META } },
    { "mcp-protocol-version": MODERN, "mcp-method": method },
  );
}

/** An extension like the protocol extensions to come: a method per era, a capability, a closer. */
function exampleExtension(seen: { plugged: number; closed: number; stores: unknown[] }): McpExtension {
  return {
    name: "example/era",
    plug(server) {
      seen.plugged++;
      seen.stores.push(server.stores.sessions, server.stores.events, server.stores.bus);
      server.method("example/era", ({ context, params }) => ({ era: context.era, echoed: params.text ?? null }));
      server.method("example/legacy-only", () => ({ legacy: true }), ["legacy"]);
      server.method("example/modern-only", () => ({ modern: true }), ["modern"]);
      server.advertise({ extensions: { "example/era": { version: 1 } } });
      server.advertise({ extensions: { "example/other": {} } });
      // Like tasks: a capability of its own in legacy, an extension entry in modern.
      server.advertise({ example: { legacy: true } }, ["legacy"]);
      server.advertise({ extensions: { "example/modern": {} } }, ["modern"]);
      server.onClose(() => void seen.closed++);
    },
  };
}

describe.each(HOSTS)("the extension seam on %s", (host) => {
  const seen = { plugged: 0, closed: 0, stores: [] as unknown[] };
  const bus = new MemoryBus();
  let handler: McpEventHandler;
  let server: RunningHost;

  beforeAll(async () => {
    handler = defineMcpHandler({
      name: "seam",
      version: "1.0.0",
      bus,
      tools: [defineTool({ name: "noop", description: "Does nothing", handler: () => "ok" })],
      extensions: [exampleExtension(seen)],
    });
    server = await startHost(host, handler);
  });
  afterAll(async () => {
    await server.close();
  });

  it("is plugged in once, when the handler is defined, with the stores it runs on", () => {
    expect(seen.plugged).toBe(1);
    expect(seen.stores[0]).toBeInstanceOf(MemorySessionStore);
    expect(seen.stores[1]).toBeInstanceOf(MemoryEventStore);
    expect(seen.stores[2]).toBe(bus);
  });

  it("legacy: advertises its capabilities of that era beside the definitions' and serves its methods of that era", async () => {
    const init = await post(server.url, {
      jsonrpc: "2.0",
      id: 1,
      method: "initialize",
      params: { protocolVersion: "2025-11-25", capabilities: {}, clientInfo: { name: "raw", version: "1" } },
    });
    const capabilities = single(init).result!.capabilities as Record<string, unknown>;
    expect(capabilities.tools).toEqual({ listChanged: true });
    expect(capabilities.extensions).toEqual({ "example/era": { version: 1 }, "example/other": {} });
    expect(capabilities.example).toEqual({ legacy: true });

    const headers = { "mcp-session-id": await initializeByHand(server.url), "mcp-protocol-version": "2025-11-25" };
    const call = (method: string, params = {}) => post(server.url, { jsonrpc: "2.0", id: 2, method, params }, headers);
    expect(single(await call("example/era", { text: "hi" })).result).toEqual({ era: "legacy", echoed: "hi" });
    expect(single(await call("example/legacy-only")).result).toEqual({ legacy: true });
    const other = single(await call("example/modern-only"));
    expect(other.error).toMatchObject({ code: -32601, message: expect.stringContaining("example/modern-only") });
    // The definitions' methods are still there.
    expect(single(await call("tools/list")).result?.tools).toHaveLength(1);
  });

  it("modern: advertises its capabilities of that era in server/discover and serves its methods of that era", async () => {
    const discover = single(await modern(server.url, "server/discover"));
    const capabilities = discover.result!.capabilities as Record<string, unknown>;
    expect(capabilities.extensions).toEqual({
      "example/era": { version: 1 },
      "example/other": {},
      "example/modern": {},
    });
    expect(capabilities.example).toBeUndefined();
    expect(capabilities.tools).toEqual({ listChanged: true });

    // Modern results are stamped (resultType, serverInfo) as every other result.
    expect(single(await modern(server.url, "example/era", { text: "yo" })).result).toMatchObject({
      era: "modern",
      echoed: "yo",
    });
    expect(single(await modern(server.url, "example/modern-only")).result).toMatchObject({ modern: true });
    const other = single(await modern(server.url, "example/legacy-only"));
    expect(other.error).toMatchObject({ code: -32601, message: expect.stringContaining("example/legacy-only") });
  });

  it("runs its closer when the handler closes, once", async () => {
    await handler.close();
    await handler.close();
    expect(seen.closed).toBe(1);
  });
});

describe("extensions carried by stores", () => {
  it("plug in once by name, whether the options, the store or the bus bring them", () => {
    const seen = { plugged: 0, closed: 0, stores: [] as unknown[] };
    const extension = exampleExtension(seen);
    const bus = Object.assign(new MemoryBus(), { extensions: [extension] });
    const events = Object.assign(new MemoryEventStore(), { extensions: [extension] });
    defineMcpHandler({ name: "x", version: "1", bus, events, extensions: [extension] });
    expect(seen.plugged).toBe(1);
  });
});

/** A store and a bus of one's own, as several instances would share them (here over memory, by delegation). */
function ownStores(extensions?: McpExtension[]): { store: SessionStore; bus: Bus } {
  const memory = new MemorySessionStore();
  const store: SessionStore = {
    get: (id) => memory.get(id),
    peek: (id) => memory.peek(id),
    set: (session) => memory.set(session),
    create: (session) => memory.create(session),
    delete: (id) => memory.delete(id),
  };
  const inner = new MemoryBus();
  const bus = {
    publish: (channel: string, message: unknown) => inner.publish(channel, message),
    subscribe: (channel: string, listener: (message: unknown) => void) => inner.subscribe(channel, listener),
    ...(extensions && { extensions }),
  };
  return { store, bus };
}

describe("a shared session store and bus need the session routing", () => {
  it("are refused without it, when the handler is defined, with what to add", () => {
    const { store, bus } = ownStores();
    expect(() => defineMcpHandler({ name: "x", version: "1", sessions: { store }, bus })).toThrow(
      /nothing routes legacy sessions between instances.*import \{ sessionRouting \} from "mcp-h3\/shared".*extensions: \[sessionRouting\]/s,
    );
  });

  it("are accepted with it from the options or carried by the bus", () => {
    const given = ownStores();
    expect(() =>
      defineMcpHandler({
        name: "x",
        version: "1",
        sessions: { store: given.store },
        bus: given.bus,
        extensions: [sessionRouting],
      }),
    ).not.toThrow();
    const carried = ownStores([sessionRouting]);
    expect(() =>
      defineMcpHandler({ name: "x", version: "1", sessions: { store: carried.store }, bus: carried.bus }),
    ).not.toThrow();
  });

  it("on Redis: the Redis bus brings it; a bus of one's own around it does not, and is refused", async () => {
    // Nothing connects until the first request: the handlers are only defined here.
    const store = new RedisSessionStore({ url: "redis://127.0.0.1:1" });
    const redisBus = new RedisBus({ url: "redis://127.0.0.1:1" });
    expect(() => defineMcpHandler({ name: "x", version: "1", sessions: { store }, bus: redisBus })).not.toThrow();
    const wrapped: Bus = {
      publish: (channel, message) => redisBus.publish(channel, message),
      subscribe: (channel, listener) => redisBus.subscribe(channel, listener),
    };
    expect(() => defineMcpHandler({ name: "x", version: "1", sessions: { store }, bus: wrapped })).toThrow(
      /mcp-h3\/shared/,
    );
    await Promise.all([store.close(), redisBus.close()]);
  });

  it("are not needed by the memory stores, nor by a store of one's own on the memory bus, nor with sessions off", () => {
    const { store, bus } = ownStores();
    expect(() => defineMcpHandler({ name: "x", version: "1" })).not.toThrow();
    expect(() => defineMcpHandler({ name: "x", version: "1", sessions: { store } })).not.toThrow();
    expect(() => defineMcpHandler({ name: "x", version: "1", bus })).not.toThrow();
    expect(() => defineMcpHandler({ name: "x", version: "1", sessions: false, bus })).not.toThrow();
  });
});

/**
 * `wrapToolCall`: wrappers nest in plugging order, only in the eras they name, and `run` gives the
 * tool a context of the wrapper's: its signal (the request's disconnect no longer cancels), its
 * `mcp.task`, its input requests (or the request's own, `viaRequest`), on a copy of the event.
 */
describe.each(HOSTS)("wrapping tools/call through the seam on %s", (host) => {
  const order: string[] = [];
  const controllers = new Map<string, AbortController>();
  const background: Promise<Record<string, unknown>>[] = [];
  let handler: McpEventHandler;
  let server: RunningHost;

  function wrapping(name: string, eras?: ("legacy" | "modern")[]): McpExtension {
    return {
      name: `example/wrap-${name}`,
      plug(point) {
        point.wrapToolCall((call, next) => {
          order.push(`${name}:${call.tool?.name ?? "?"}:${call.tool?.task ?? "-"}`);
          if (name === "inner" && call.tool?.name === "until_aborted") {
            const controller = new AbortController();
            controllers.set("background", controller);
            background.push(call.run({ signal: controller.signal }));
            return { content: [{ type: "text", text: "started" }] };
          }
          if (name !== "inner" || call.tool?.name !== "detached") return next();
          const controller = new AbortController();
          controllers.set(String(call.params.arguments && (call.params.arguments as { id?: string }).id), controller);
          return call.run({
            signal: controller.signal,
            task: { id: "task-1", setStatusMessage: () => Promise.resolve() },
            ask: (request, viaRequest) =>
              request.key === "via-request"
                ? viaRequest()
                : Promise.resolve({ action: "accept", content: { name: request.key } }),
          });
        }, eras);
      },
    };
  }

  beforeAll(async () => {
    handler = defineMcpHandler({
      name: "wrap",
      version: "1.0.0",
      requestState: { secret: "the wrap test: a secret of at least 32 bytes" },
      tools: [
        defineTool({
          name: "detached",
          task: "optional",
          input: { type: "object", properties: { id: { type: "string" }, ask: { type: "string" } } },
          handler: async (event, { ask }) => {
            const mcp = event.context.mcp!;
            const answer = ask ? await mcp.elicit(String(ask), "Name?") : undefined;
            return JSON.stringify({
              task: mcp.task?.id ?? null,
              aborted: mcp.signal.aborted,
              answered: answer?.content ?? null,
              sameEvent: event.context.mcp === mcp,
            });
          },
        }),
        defineTool({
          name: "until_aborted",
          task: "optional",
          handler: async (event) => {
            const signal = event.context.mcp!.signal;
            await new Promise((resolve) => signal.addEventListener("abort", resolve, { once: true }));
            return `stopped: ${String(signal.reason)}`;
          },
        }),
      ],
      extensions: [wrapping("outer"), wrapping("inner", ["modern"])],
    });
    server = await startHost(host, handler);
  });
  afterAll(async () => {
    await server.close();
    await handler.close();
  });

  const callModern = (args: Record<string, unknown>) =>
    post(
      server.url,
      {
        jsonrpc: "2.0",
        id: 3,
        method: "tools/call",
        params: {
          name: "detached",
          arguments: args,
          _meta: { ...MODERN_META, "io.modelcontextprotocol/clientCapabilities": { elicitation: {} } },
        },
      },
      { "mcp-protocol-version": MODERN, "mcp-method": "tools/call", "mcp-name": "detached" },
    );

  it("modern: the wrappers nest, outer first; run gives the tool the wrapper's task and input answers", async () => {
    order.length = 0;
    const answer = single(await callModern({ id: "a", ask: "from-wrapper" }));
    expect(order).toEqual(["outer:detached:optional", "inner:detached:optional"]);
    const text = (answer.result!.content as { text: string }[])[0]!.text;
    expect(JSON.parse(text)).toEqual({
      task: "task-1",
      aborted: false,
      answered: { name: "from-wrapper" },
      sameEvent: true,
    });
  });

  it("modern: an input request sent viaRequest is the request's own MRTR round", async () => {
    const answer = single(await callModern({ id: "b", ask: "via-request" }));
    expect(answer.result).toMatchObject({
      resultType: "input_required",
      inputRequests: { "via-request": { method: "elicitation/create" } },
    });
  });

  it("modern: a run outlives its request; the wrapper's signal, not the request's end, stops it", async () => {
    const answer = await post(
      server.url,
      {
        jsonrpc: "2.0",
        id: 5,
        method: "tools/call",
        params: { name: "until_aborted", arguments: {}, _meta: MODERN_META },
      },
      { "mcp-protocol-version": MODERN, "mcp-method": "tools/call", "mcp-name": "until_aborted" },
    );
    expect((single(answer).result!.content as { text: string }[])[0]!.text).toBe("started");
    // The request was answered and its connection read to its end: the run goes on until its own signal.
    controllers.get("background")!.abort("the wrapper stopped it");
    const result = await background[0]!;
    expect(result.content).toEqual([{ type: "text", text: "stopped: the wrapper stopped it" }]);
  });

  it("legacy: only the wrapper plugged for both eras runs; the tool sees the request's own context", async () => {
    order.length = 0;
    const headers = { "mcp-session-id": await initializeByHand(server.url), "mcp-protocol-version": "2025-11-25" };
    const answer = single(
      await post(
        server.url,
        { jsonrpc: "2.0", id: 4, method: "tools/call", params: { name: "detached", arguments: {} } },
        headers,
      ),
    );
    expect(order).toEqual(["outer:detached:optional"]);
    const text = (answer.result!.content as { text: string }[])[0]!.text;
    expect(JSON.parse(text)).toMatchObject({ task: null, aborted: false });
  });
});

/**
 * `listen`: an extension serves a key of the `subscriptions/listen` filter; what it honours is
 * acknowledged, what it sends reaches the stream stamped with its subscription id, its refusal
 * refuses the listen, and the stream's end stops it.
 */
describe.each(HOSTS)("a listen key served through the seam on %s", (host) => {
  const stopped: string[] = [];
  let handler: McpEventHandler;
  let server: RunningHost;
  beforeAll(async () => {
    const source: McpExtension = {
      name: "example/listen",
      plug(point) {
        point.listen("exampleTopics", {
          accept(value) {
            if (!Array.isArray(value)) throw new McpError(-32602, "exampleTopics must be a list");
            return value.filter((topic) => topic === "weather");
          },
          async open(accepted, _principal, send) {
            for (const topic of accepted as string[]) send("notifications/example", { topic });
            return () => void stopped.push("stopped");
          },
        });
      },
    };
    handler = defineMcpHandler({ name: "listen-seam", version: "1.0.0", extensions: [source] });
    server = await startHost(host, handler);
  });
  afterAll(async () => {
    await server.close();
    await handler.close();
  });

  const listen = (notifications: unknown) => {
    const abort = new AbortController();
    const body = JSON.stringify({
      jsonrpc: "2.0",
      id: 9,
      method: "subscriptions/listen",
      params: { notifications, _meta: MODERN_META },
    });
    const headers = { ...POST_HEADERS, "mcp-protocol-version": MODERN, "mcp-method": "subscriptions/listen" };
    return { abort, response: fetch(server.url, { method: "POST", headers, body, signal: abort.signal }) };
  };

  it("acknowledges what the source honours, delivers what it sends, and stops it when the stream ends", async () => {
    const { abort, response } = listen({ exampleTopics: ["weather", "secret"] });
    const stream = liveSse(await response, abort);
    const ack = JSON.parse((await stream.next(/acknowledged/)).data) as { params: { notifications: unknown } };
    expect(ack.params.notifications).toEqual({ exampleTopics: ["weather"] });
    const sent = JSON.parse((await stream.next(/notifications\/example/)).data) as { params: unknown };
    expect(sent.params).toEqual({ topic: "weather", _meta: { "io.modelcontextprotocol/subscriptionId": 9 } });
    stream.close();
    await vi.waitFor(() => expect(stopped).toEqual(["stopped"]));
  });

  it("refuses the listen when the source refuses its key", async () => {
    const { response } = listen({ exampleTopics: "weather" });
    const answer = single(await toAnswer(await response));
    expect(answer.error).toMatchObject({ code: -32602, message: "exampleTopics must be a list" });
  });
});

/** `decorateTools`: the `tools/list` entries of the eras named, changed once per catalog; the others as they were. */
describe.each(HOSTS)("tools/list entries decorated through the seam on %s", (host) => {
  let calls = 0;
  let handler: McpEventHandler;
  let server: RunningHost;
  beforeAll(async () => {
    const decorating: McpExtension = {
      name: "example/decorate",
      plug(point) {
        point.decorateTools(
          (entry, tool) => {
            calls++;
            return tool.task ? { ...entry, execution: { taskSupport: tool.task } } : entry;
          },
          ["legacy"],
        );
      },
    };
    handler = defineMcpHandler({
      name: "decorate",
      version: "1.0.0",
      tools: [
        defineTool({ name: "plain", handler: () => "plain" }),
        defineTool({ name: "long", task: "required", handler: () => "long" }),
      ],
      extensions: [decorating],
    });
    server = await startHost(host, handler);
  });
  afterAll(async () => {
    await server.close();
    await handler.close();
  });

  it("legacy: the entries carry what the decorator adds; modern: they do not", async () => {
    const headers = { "mcp-session-id": await initializeByHand(server.url), "mcp-protocol-version": "2025-11-25" };
    const list = () => post(server.url, { jsonrpc: "2.0", id: 2, method: "tools/list" }, headers);
    const legacyTools = single(await list()).result!.tools as Record<string, unknown>[];
    expect(legacyTools.map((tool) => [tool.name, tool.execution ?? null])).toEqual([
      ["plain", null],
      ["long", { taskSupport: "required" }],
    ]);
    single(await list());
    // Two tools, decorated once for the handler's static catalog, however often it is listed.
    expect(calls).toBe(2);
    const modernTools = single(await modern(server.url, "tools/list")).result!.tools as Record<string, unknown>[];
    expect(modernTools.every((tool) => !("execution" in tool))).toBe(true);
  });
});
