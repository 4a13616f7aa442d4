/**
 * `Last-Event-ID` resumption within bounds: a finished stream's events stay for
 * `sessions.replayWindowMs` and then go; a session keeps at most `sessions.maxStreamsPerSession`
 * logs; a resumption whose following events are no longer all kept (trimmed, dropped) gets 400
 * "no longer available" and nothing replayed, never a replay with a silent hole. Over real HTTP,
 * on both h3 majors.
 */
import { afterEach, describe, expect, it, vi } from "vitest";
import { z } from "zod";
import { MemoryEventStore, defineMcpHandler, defineTool, type McpHandlerOptions } from "../src/index.ts";
import type { McpEventHandler } from "../src/handler-types.ts";
import { HOSTS, startHost, type RunningHost } from "./helpers/hosts.ts";
import { expectError, post, send, type Answer } from "./helpers/rpc.ts";

const VERSION = "2025-11-25";
const SESSION_ERROR = -32000;
let nextId = 1;

describe.each(HOSTS)("legacy replay bounds on %s", (host) => {
  let server: RunningHost | undefined;
  let handler: McpEventHandler | undefined;

  afterEach(async () => {
    vi.useRealTimers();
    await handler?.close();
    await server?.close();
    server = handler = undefined;
  });

  async function start(options: Partial<McpHandlerOptions>): Promise<string> {
    handler = defineMcpHandler({
      name: "replay",
      version: "1.0.0",
      tools: [
        defineTool({
          name: "chatty",
          description: "Sends `count` progress notifications, then answers",
          input: z.object({ count: z.number() }),
          handler: async (event, { count }) => {
            for (let step = 1; step <= count; step++) await event.context.mcp!.progress(step, count);
            return "done";
          },
        }),
      ],
      ...options,
    });
    server = await startHost(host, handler);
    return server.url;
  }

  async function openSession(url: string): Promise<Record<string, string>> {
    const answer = await post(url, {
      jsonrpc: "2.0",
      id: nextId++,
      method: "initialize",
      params: { protocolVersion: VERSION, capabilities: {}, clientInfo: { name: "replay-test", version: "1" } },
    });
    const headers = { "mcp-session-id": answer.headers.get("mcp-session-id")!, "mcp-protocol-version": VERSION };
    await post(url, { jsonrpc: "2.0", method: "notifications/initialized" }, headers);
    return headers;
  }

  /** A streamed call read to its end; returns the ids of its events that carry a message. */
  async function chatty(url: string, headers: Record<string, string>, count: number): Promise<string[]> {
    const id = nextId++;
    const answer = await post(
      url,
      {
        jsonrpc: "2.0",
        id,
        method: "tools/call",
        params: { name: "chatty", arguments: { count }, _meta: { progressToken: id } },
      },
      headers,
    );
    expect(answer.headers.get("content-type")).toContain("text/event-stream");
    const ids = answer.events.filter((event) => event.data !== "").map((event) => event.id!);
    expect(ids).toHaveLength(count + 1);
    return ids;
  }

  function resume(url: string, headers: Record<string, string>, lastEventId: string): Promise<Answer> {
    return send(url, "GET", { ...headers, accept: "text/event-stream", "last-event-id": lastEventId });
  }

  function expectGone(answer: Answer): void {
    expectError(answer, 400, SESSION_ERROR, /no longer available/);
    expect(answer.text).not.toContain("progress");
  }

  it("a finished stream replays within the window, and is gone after it", async () => {
    vi.useFakeTimers({ toFake: ["setTimeout", "clearTimeout", "Date"] });
    const events = new MemoryEventStore();
    const url = await start({ events, sessions: { replayWindowMs: 60_000 } });
    const headers = await openSession(url);
    const [first, second, final] = await chatty(url, headers, 2);

    vi.advanceTimersByTime(59_000);
    const within = await resume(url, headers, first!);
    expect(within.status, within.text).toBe(200);
    expect(within.events.filter((event) => event.data !== "").map((event) => event.id)).toEqual([second, final]);

    vi.advanceTimersByTime(1_001);
    expect(events.streamCount(headers["mcp-session-id"]!)).toBe(0);
    expectGone(await resume(url, headers, first!));
  });

  it("keeps at most maxStreamsPerSession logs, dropping the oldest finished first", async () => {
    const events = new MemoryEventStore();
    const url = await start({ events, sessions: { maxStreamsPerSession: 3 } });
    const headers = await openSession(url);
    const streams: string[][] = [];
    for (let call = 0; call < 5; call++) streams.push(await chatty(url, headers, 1));
    expect(events.streamCount(headers["mcp-session-id"]!)).toBe(3);
    expectGone(await resume(url, headers, streams[0]![0]!));
    expectGone(await resume(url, headers, streams[1]![0]!));
    const kept = await resume(url, headers, streams[2]![0]!);
    expect(kept.status, kept.text).toBe(200);
    expect(kept.events.filter((event) => event.data !== "").map((event) => event.id)).toEqual([streams[2]![1]]);
  });

  it("a resumption past the trimmed start of a log gets 400 and nothing; one inside it replays as before", async () => {
    const url = await start({ events: new MemoryEventStore({ maxEventsPerStream: 4 }) });
    const headers = await openSession(url);
    const ids = await chatty(url, headers, 6); // 7 events with data (+ priming): only the last 4 are kept
    expectGone(await resume(url, headers, ids[0]!));
    const inside = await resume(url, headers, ids[3]!);
    expect(inside.status, inside.text).toBe(200);
    expect(inside.events.filter((event) => event.data !== "").map((event) => event.id)).toEqual(ids.slice(4));
  });

  it("a guessed or foreign Last-Event-ID learns nothing: the same 400 as an unknown one", async () => {
    const url = await start({});
    const owner = await openSession(url);
    const intruder = await openSession(url);
    const [real] = await chatty(url, owner, 1);
    const answers = await Promise.all(
      [real!, "get/1", `${real!.split("/")[0]}/999`, "x", "../1", `${real!}0`].map((id) => resume(url, intruder, id)),
    );
    const messages = answers.map((answer) => {
      const error = expectError(answer, 400, SESSION_ERROR, /Last-Event-ID .* no longer available/);
      expect(answer.text).not.toContain("progress");
      return error.message.replace(/Last-Event-ID ".*?" is/, "Last-Event-ID … is");
    });
    expect(new Set(messages).size).toBe(1);
  });
});
