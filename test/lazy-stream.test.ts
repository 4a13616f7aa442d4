/**
 * A pending call's response stream opens only when something needs it: a call whose handler
 * returns a promise and sends nothing before answering gets plain JSON, as a synchronous one does;
 * one that sends progress first streams. Both eras, both h3 majors.
 */
import { afterEach, describe, expect, it } from "vitest";
import { defineMcpHandler, defineTool } from "../src/index.ts";
import { HOSTS, startHost, type RunningHost } from "./helpers/hosts.ts";
import { openRawSession, postInSession, toolCall } from "./helpers/legacy-raw.ts";
import { postToolCall, toAnswer, type Answer } from "./helpers/rpc.ts";

const MODERN_META = {
  "io.modelcontextprotocol/protocolVersion": "2026-07-28",
  "io.modelcontextprotocol/clientCapabilities": {},
};

/** Answers after a turn of the event loop, sending nothing before (as a store read does). */
const silentAsync = defineTool({
  name: "silent_async",
  description: "Answers after a turn, silently",
  handler: async () => {
    await new Promise<void>((resolve) => setImmediate(resolve));
    return "later";
  },
});

/** Sends progress first, then answers after a turn. */
const progressFirst = defineTool({
  name: "progress_first",
  description: "Progress, then the answer",
  handler: async (event) => {
    await event.context.mcp!.progress(1, 2);
    await new Promise<void>((resolve) => setImmediate(resolve));
    return "streamed";
  },
});

/** Reads the request's signal (to watch for a disconnect), then answers after a turn. */
const signalReader = defineTool({
  name: "signal_reader",
  description: "Watches its signal, answers after a turn",
  handler: async (event) => {
    const signal = event.context.mcp!.signal;
    await new Promise<void>((resolve) => setImmediate(resolve));
    return signal.aborted ? "aborted" : "watched";
  },
});

const tools = [silentAsync, progressFirst, signalReader];

/** One call on the given era; the answer read to its end. */
type Call = (url: string, name: string, progressToken?: string) => Promise<Answer>;

const ERAS: [string, Call][] = [
  [
    "modern",
    async (url, name, progressToken) => {
      const _meta = progressToken === undefined ? MODERN_META : { ...MODERN_META, progressToken };
      return toAnswer(await postToolCall(url, 1, { name, arguments: {}, _meta }));
    },
  ],
  [
    "legacy",
    async (url, name, progressToken) => {
      const session = await openRawSession(url);
      return toAnswer(await postInSession(url, session, toolCall(2, name, {}, progressToken)));
    },
  ],
];

/** The text of the call's result, from a JSON answer or the final event of a stream. */
function resultText(answer: Answer): unknown {
  const message = answer.json ?? (JSON.parse(answer.events.at(-1)!.data) as unknown);
  return (message as { result: { content: { text: string }[] } }).result.content[0].text;
}

describe.each(HOSTS)("lazy response stream on %s", (host) => {
  let server: RunningHost | undefined;
  afterEach(async () => {
    await server?.close();
    server = undefined;
  });

  describe.each(ERAS)("%s", (_era, call) => {
    it("answers a silent async call as plain JSON", async () => {
      // A keep-alive far beyond any machine's delay: only the call's own sends could open a stream.
      server = await startHost(host, defineMcpHandler({ name: "l", version: "1", keepAliveMs: 60_000, tools }));
      const answer = await call(server.url, "silent_async");
      expect(answer.headers.get("content-type")).toBe("application/json");
      expect(resultText(answer)).toBe("later");
    });

    it("answers a silent async call that reads its signal as plain JSON", async () => {
      server = await startHost(host, defineMcpHandler({ name: "l", version: "1", keepAliveMs: 60_000, tools }));
      const answer = await call(server.url, "signal_reader");
      expect(answer.headers.get("content-type")).toBe("application/json");
      expect(resultText(answer)).toBe("watched");
    });

    it("streams an async call that sends progress first", async () => {
      server = await startHost(host, defineMcpHandler({ name: "l", version: "1", keepAliveMs: 60_000, tools }));
      const answer = await call(server.url, "progress_first", "p1");
      expect(answer.headers.get("content-type")).toBe("text/event-stream");
      // Legacy streams start with a priming event, which carries no message.
      const messages = answer.events
        .filter((event) => event.data !== "")
        .map((event) => JSON.parse(event.data) as { method?: string });
      expect(messages[0].method).toBe("notifications/progress");
      expect(resultText(answer)).toBe("streamed");
    });
  });
});
