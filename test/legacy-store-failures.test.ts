/**
 * Stores that fail (a networked store whose server is down) never crash the process nor hang a
 * request: a request that cannot be served without the store gets 503 with `Retry-After`; inside
 * a call, `-32603`; background store work that fails is counted in `handler.incidents`. The stores
 * are real implementations of the public interfaces that fail when told (helpers/failing-stores).
 * An unhandled rejection would fail this file. Over real HTTP, on both h3 majors, for stores that
 * reject and for stores that throw before returning a promise.
 */
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { z } from "zod";
import { defineMcpHandler, defineResource, defineTool, type IncidentKind } from "../src/index.ts";
import type { McpEventHandler } from "../src/handler-types.ts";
import {
  FailingBus,
  FailingEventStore,
  FailingSessionStore,
  Faults,
  KeptChanging,
  type FailureMode,
} from "./helpers/failing-stores.ts";
import { sessionRouting } from "../src/_entries/shared.ts";
import { HOSTS, startHost, type RunningHost } from "./helpers/hosts.ts";
import { openGetStream } from "./helpers/live-sse.ts";
import { expectError, post, send, single, toAnswer, type Answer } from "./helpers/rpc.ts";

const VERSION = "2025-11-25";
const INTERNAL_ERROR = -32603;
const MODES: FailureMode[] = ["reject", "throw"];
let nextId = 1;

/** A GET that never hangs: an event stream (not expected here) is cut after its head. */
async function get(url: string, headers: Record<string, string>): Promise<Answer> {
  const abort = new AbortController();
  const response = await fetch(url, { headers: { ...headers, accept: "text/event-stream" }, signal: abort.signal });
  if (response.headers.get("content-type")?.includes("text/event-stream")) {
    abort.abort();
    return {
      status: response.status,
      headers: response.headers,
      text: "(an event stream)",
      json: undefined,
      events: [],
    };
  }
  return toAnswer(response);
}

describe.each(HOSTS)("legacy store failures on %s", (host) => {
  describe.each(MODES)("a store that fails by %s", (mode) => {
    const faults = new Faults();
    const sessionStore = new FailingSessionStore(faults);
    const eventStore = new FailingEventStore(faults);
    const reported: IncidentKind[] = [];
    let server: RunningHost;
    let handler: McpEventHandler;
    let url: string;

    beforeAll(async () => {
      handler = defineMcpHandler({
        name: "failures",
        version: "1.0.0",
        logging: true,
        sessions: { store: sessionStore, maxStreamsPerSession: 1 },
        events: eventStore,
        bus: new FailingBus(faults),
        // Stores like these are shared by several instances: the routing between them runs too.
        extensions: [sessionRouting],
        onIncident: (kind) => void reported.push(kind),
        resources: [defineResource({ uri: "docs://readme", name: "readme", handler: () => "hello" })],
        tools: [
          defineTool({
            name: "chatty",
            input: z.object({}),
            handler: async (event) => {
              await event.context.mcp!.progress(1, 2);
              return "done";
            },
          }),
          defineTool({
            name: "announce",
            input: z.object({}),
            handler: async (event) => {
              await event.context.mcp!.notify.toolsChanged();
              return "announced";
            },
          }),
        ],
      });
      server = await startHost(host, handler);
      url = server.url;
    });

    afterEach(() => faults.heal());

    afterAll(async () => {
      await handler.close();
      await server.close();
    });

    async function openSession(): Promise<Record<string, string>> {
      const answer = await post(url, {
        jsonrpc: "2.0",
        id: nextId++,
        method: "initialize",
        params: { protocolVersion: VERSION, capabilities: {}, clientInfo: { name: "failures-test", version: "1" } },
      });
      expect(answer.status, answer.text).toBe(200);
      const headers = { "mcp-session-id": answer.headers.get("mcp-session-id")!, "mcp-protocol-version": VERSION };
      expect((await post(url, { jsonrpc: "2.0", method: "notifications/initialized" }, headers)).status).toBe(202);
      return headers;
    }

    function rpc(headers: Record<string, string>, method: string, params: unknown = {}): Promise<Answer> {
      return post(url, { jsonrpc: "2.0", id: nextId++, method, params }, headers);
    }

    function expectUnavailable(answer: Answer): void {
      expectError(answer, 503, INTERNAL_ERROR, /session store failed/);
      expect(answer.headers.get("retry-after")).toMatch(/^[1-9][0-9]*$/);
    }

    /** The server still serves: a fresh session answers a ping. */
    async function expectServing(): Promise<void> {
      faults.heal();
      expect(single(await rpc(await openSession(), "ping")).result).toEqual({});
    }

    it("a failing session lookup answers POST, GET and DELETE with 503 + Retry-After", async () => {
      const session = await openSession();
      faults.fail(mode, "sessions.get");
      expectUnavailable(await rpc(session, "ping"));
      expectUnavailable(await get(url, session));
      expectUnavailable(await send(url, "DELETE", session));
      expectUnavailable(await post(url, { jsonrpc: "2.0", method: "notifications/initialized" }, session));
      faults.heal();
      expect(single(await rpc(session, "ping")).result).toEqual({});
    });

    it("a failing create answers initialize with 503 + Retry-After and opens nothing", async () => {
      const before = sessionStore.inner.size;
      faults.fail(mode, "sessions.create");
      const answer = await post(url, {
        jsonrpc: "2.0",
        id: nextId++,
        method: "initialize",
        params: { protocolVersion: VERSION, capabilities: {}, clientInfo: { name: "x", version: "1" } },
      });
      expectUnavailable(answer);
      expect(answer.headers.get("mcp-session-id")).toBeNull();
      expect(sessionStore.inner.size).toBe(before);
      await expectServing();
    });

    it("a failing save: 503 for notifications/initialized, -32603 inside setLevel and subscribe, nothing changed", async () => {
      const pending = await post(url, {
        jsonrpc: "2.0",
        id: nextId++,
        method: "initialize",
        params: { protocolVersion: VERSION, capabilities: {}, clientInfo: { name: "x", version: "1" } },
      });
      const pendingHeaders = {
        "mcp-session-id": pending.headers.get("mcp-session-id")!,
        "mcp-protocol-version": VERSION,
      };
      const session = await openSession();
      faults.fail(mode, "sessions.set");
      expectUnavailable(await post(url, { jsonrpc: "2.0", method: "notifications/initialized" }, pendingHeaders));
      expectError(await rpc(session, "logging/setLevel", { level: "error" }), 200, INTERNAL_ERROR, /not saved/);
      faults.fail(mode, "sessions.subscribe");
      expectError(
        await rpc(session, "resources/subscribe", { uri: "docs://readme" }),
        200,
        INTERNAL_ERROR,
        /not saved/,
      );
      faults.heal();
      const stored = await sessionStore.inner.get(session["mcp-session-id"]!);
      expect(stored?.logLevel).toBeUndefined();
      expect(await sessionStore.inner.isSubscribed(session["mcp-session-id"]!, "docs://readme")).toBe(false);
      expect((await sessionStore.inner.get(pendingHeaders["mcp-session-id"]))?.initialized).toBe(false);
    });

    it("a failing bus or session save answers a GET stream with 503; after healing it opens and delivers", async () => {
      const session = await openSession();
      for (const method of ["bus.subscribe", "sessions.set"]) {
        faults.fail(mode, method);
        expectUnavailable(await get(url, session));
        faults.heal();
      }
      const { response, sse } = await openGetStream(url, session);
      try {
        expect(response.status).toBe(200);
        expect(single(await rpc(session, "tools/call", { name: "announce", arguments: {} })).result).toBeDefined();
        expect(JSON.parse((await sse.next(/list_changed/)).data).method).toBe("notifications/tools/list_changed");
      } finally {
        sse.close();
      }
    });

    it("a failing event log costs resumability, not the stream: the call is answered in full, the failure counted", async () => {
      const session = await openSession();
      const counted = handler.incidents.background_failure;
      faults.fail(mode, "events.append");
      const answer = await rpc(session, "tools/call", { name: "chatty", arguments: {}, _meta: { progressToken: 1 } });
      expect(answer.status).toBe(200);
      const data = answer.events.filter((event) => event.data !== "").map((event) => JSON.parse(event.data));
      expect(data.map((message) => message.method ?? "result")).toEqual(["notifications/progress", "result"]);
      expect(handler.incidents.background_failure).toBeGreaterThan(counted);
      faults.heal();
      // Its events were never kept: a resumption from one gets the plain 400.
      const lastEventId = answer.events.find((event) => event.data !== "")!.id!;
      const resumed = await get(url, { ...session, "last-event-id": lastEventId });
      expectError(resumed, 400, -32000, /no longer available/);
    });

    it("a failing replay lookup answers the resumption with 503", async () => {
      const session = await openSession();
      const answer = await rpc(session, "tools/call", { name: "chatty", arguments: {}, _meta: { progressToken: 1 } });
      const lastEventId = answer.events.find((event) => event.data !== "")!.id!;
      faults.fail(mode, "events.replayAfter");
      expectUnavailable(await get(url, { ...session, "last-event-id": lastEventId }));
    });

    it("failing background work (dropping logs, a failed delete of events) is counted, never thrown", async () => {
      const session = await openSession();
      const counted = handler.incidents.background_failure;
      faults.fail(mode, "events.dropStream", "events.dropSession");
      // maxStreamsPerSession is 1: the second streamed call drops the first one's log.
      for (let call = 0; call < 2; call++) {
        await rpc(session, "tools/call", { name: "chatty", arguments: {}, _meta: { progressToken: 1 } });
      }
      expect((await send(url, "DELETE", session)).status).toBe(200);
      expect(handler.incidents.background_failure).toBeGreaterThanOrEqual(counted + 2);
      expect(reported).toContain("background_failure");
      await expectServing();
    });

    it("a failing publish fails the tool that published, and nothing else", async () => {
      const session = await openSession();
      faults.fail(mode, "bus.publish");
      const answer = single(await rpc(session, "tools/call", { name: "announce", arguments: {} }));
      expect(answer.result?.isError).toBe(true);
      await expectServing();
    });
  });
});

describe.each(HOSTS)("a session another writer keeps changing, on %s", (host) => {
  it("a change is made again on 5 fresh copies at most, then answered -32603, and nothing is saved", async () => {
    const store = new KeptChanging();
    const handler = defineMcpHandler({
      name: "changing",
      version: "1.0.0",
      logging: true,
      sessions: { store },
      resources: [defineResource({ uri: "docs://readme", name: "readme", handler: () => "hello" })],
    });
    const server = await startHost(host, handler);
    try {
      const init = await post(server.url, {
        jsonrpc: "2.0",
        id: nextId++,
        method: "initialize",
        params: { protocolVersion: VERSION, capabilities: {}, clientInfo: { name: "x", version: "1" } },
      });
      const headers = { "mcp-session-id": init.headers.get("mcp-session-id")!, "mcp-protocol-version": VERSION };
      expect((await post(server.url, { jsonrpc: "2.0", method: "notifications/initialized" }, headers)).status).toBe(
        202,
      );
      store.changing = true;
      const setLevel = {
        jsonrpc: "2.0",
        id: nextId++,
        method: "logging/setLevel",
        params: { level: "error" },
      };
      expectError(await post(server.url, setLevel, headers), 200, INTERNAL_ERROR, /not saved/);
      expect(store.refused).toBe(5);
      store.changing = false;
      expect((await store.get(headers["mcp-session-id"]))?.logLevel).toBeUndefined();
      // Once the writer is done, the same request goes through.
      expect(single(await post(server.url, { ...setLevel, id: nextId++ }, headers)).result).toEqual({});
      expect((await store.get(headers["mcp-session-id"]))?.logLevel).toBe("error");
    } finally {
      await handler.close();
      await server.close();
    }
  });
});
