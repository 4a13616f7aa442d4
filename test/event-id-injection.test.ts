/**
 * A custom EventStore is code of the user's, but the ids it gives go into the SSE stream: one with
 * a line break would write fields of its own choosing (`event:`, `data:`, a whole event) into the
 * client's stream. Such an id is refused where it leaves the store: an appended event goes to the
 * live client under the id of an unkept one (`<stream>/0`, as when the store fails), a replay is
 * answered 503 with nothing of it written, a `background_failure` incident says why, and no
 * injected field reaches the client. Over real HTTP on both h3 majors, on a POST stream, on the
 * session's GET stream (whose priming event carries the store's id) and on a resumption.
 */
import { afterEach, describe, expect, it } from "vitest";
import { z } from "zod";
import {
  MemoryEventStore,
  defineMcpHandler,
  defineTool,
  type EventReplay,
  type EventStore,
  type IncidentKind,
  type JsonRpcMessage,
  type McpEventHandler,
} from "../src/index.ts";
import { HOSTS, startHost, type RunningHost } from "./helpers/hosts.ts";
import { openRawSession, openSessionGet, postInSession, toolCall } from "./helpers/legacy-raw.ts";

/** A real event store (the memory one) whose ids carry a line break and an SSE field after it. */
class InjectingEventStore extends MemoryEventStore {
  readonly breakWith: string;

  constructor(breakWith: string) {
    super();
    this.breakWith = breakWith;
  }

  override async append(sessionId: string, streamId: string, message: JsonRpcMessage | null): Promise<string> {
    const id = await super.append(sessionId, streamId, message);
    return `${id}${this.breakWith}event: injected${this.breakWith}data: {"injected":true}`;
  }
}

/** A real event store whose replays (not its appends) give ids with a line break and an SSE field after it. */
class InjectingReplayStore extends MemoryEventStore {
  override async replayAfter(sessionId: string, lastEventId: string): Promise<EventReplay | undefined> {
    const found = await super.replayAfter(sessionId, lastEventId);
    if (!found) return found;
    return { ...found, events: found.events.map((event) => ({ ...event, id: `${event.id}\nevent: injected` })) };
  }
}

/** The SSE lines of a body (split as the SSE grammar does: CR LF, LF or CR). */
function lines(text: string): string[] {
  return text.split(/\r\n|\r|\n/);
}

describe.each(HOSTS)("event ids with line breaks on %s", (host) => {
  let server: RunningHost | undefined;
  let handler: McpEventHandler | undefined;

  afterEach(async () => {
    await handler?.close();
    await server?.close();
    server = handler = undefined;
  });

  async function start(
    store: EventStore | string,
  ): Promise<{ url: string; reported: { kind: IncidentKind; error: unknown }[] }> {
    const reported: { kind: IncidentKind; error: unknown }[] = [];
    handler = defineMcpHandler({
      name: "inject",
      version: "1.0.0",
      events: typeof store === "string" ? new InjectingEventStore(store) : store,
      onIncident: (kind, error) => void reported.push({ kind, error }),
      tools: [
        defineTool({
          name: "chatty",
          description: "Sends two progress notifications, then answers",
          input: z.object({}),
          handler: async (event) => {
            await event.context.mcp!.progress(1, 2);
            await event.context.mcp!.progress(2, 2);
            return "done";
          },
        }),
        defineTool({
          name: "announce",
          description: "Tells every listening client that the tool list changed",
          input: z.object({}),
          handler: async (event) => {
            await event.context.mcp!.notify.toolsChanged();
            return "told";
          },
        }),
      ],
    });
    server = await startHost(host, handler);
    return { url: server.url, reported };
  }

  it.each([
    ["LF", "\n"],
    ["CR", "\r"],
    ["CR LF", "\r\n"],
  ])("a POST stream writes no field of an id broken by %s, and says so", async (_name, breakWith) => {
    const { url, reported } = await start(breakWith);
    const session = await openRawSession(url);
    const response = await postInSession(url, session, toolCall(1, "chatty", {}, "p"));
    expect(response.headers.get("content-type")).toContain("text/event-stream");
    const text = await response.text();
    const written = lines(text);
    expect(written.filter((line) => /^(event: injected|data: \{"injected")/.test(line))).toEqual([]);
    // Every message still reached the live client, without an id.
    const data = written.filter((line) => line.startsWith("data: {")).map((line) => JSON.parse(line.slice(6)));
    expect(data.map((message) => message.method ?? message.result?.content?.[0]?.text)).toEqual([
      "notifications/progress",
      "notifications/progress",
      "done",
    ]);
    // Each went out under the id of an event that was not kept (as when the store fails): `<stream>/0`.
    expect(written.filter((line) => line.startsWith("id:") && !/^id: [^/]+\/0$/.test(line))).toEqual([]);
    const refused = reported.filter(({ kind }) => kind === "background_failure");
    expect(refused.length).toBeGreaterThanOrEqual(3);
    expect(String(refused[0]!.error)).toMatch(/event id .*line break/i);
  });

  it("the GET stream's priming event carries no field of a broken id", async () => {
    const { url, reported } = await start("\n");
    const session = await openRawSession(url);
    const { response, sse } = await openSessionGet(url, session);
    expect(response.status).toBe(200);
    const told = await postInSession(url, session, toolCall(2, "announce", {}));
    expect(await told.text()).toContain("told");
    const event = await sse.next(/list_changed|injected/);
    sse.close();
    // Without the refusal the priming event's id line is followed by `event: injected` and `data: {"injected":true}`.
    expect(event.data).toContain("notifications/tools/list_changed");
    expect(event.event).toBe("message");
    expect(event.id).toMatch(/^get\/0$/);
    expect(reported.some(({ kind, error }) => kind === "background_failure" && /line break/i.test(String(error)))).toBe(
      true,
    );
  });
});

describe.each(HOSTS)("replayed event ids with line breaks on %s", (host) => {
  let server: RunningHost | undefined;
  let handler: McpEventHandler | undefined;

  afterEach(async () => {
    await handler?.close();
    await server?.close();
    server = handler = undefined;
  });

  it("a resumption whose replay has such an id writes nothing of it: 503, and an incident", async () => {
    const reported: { kind: IncidentKind; error: unknown }[] = [];
    handler = defineMcpHandler({
      name: "inject",
      version: "1.0.0",
      events: new InjectingReplayStore(),
      onIncident: (kind, error) => void reported.push({ kind, error }),
      tools: [
        defineTool({
          name: "chatty",
          description: "Sends two progress notifications, then answers",
          input: z.object({}),
          handler: async (event) => {
            await event.context.mcp!.progress(1, 2);
            await event.context.mcp!.progress(2, 2);
            return "done";
          },
        }),
      ],
    });
    server = await startHost(host, handler);
    const session = await openRawSession(server.url);
    const streamed = await postInSession(server.url, session, toolCall(1, "chatty", {}, "p"));
    const first = lines(await streamed.text())
      .find((line) => line.startsWith("id: "))!
      .slice(4);
    const response = await fetch(server.url, {
      method: "GET",
      headers: { accept: "text/event-stream", "last-event-id": first, ...session.headers },
    });
    const text = await response.text();
    expect(lines(text).filter((line) => line === "event: injected")).toEqual([]);
    expect(response.status).toBe(503);
    expect(reported.some(({ kind, error }) => kind === "background_failure" && /line break/i.test(String(error)))).toBe(
      true,
    );
  });
});
