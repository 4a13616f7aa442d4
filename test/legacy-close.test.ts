/**
 * `handler.close()` ends the legacy era too: open GET streams end gracefully (their body closes),
 * calls in flight are aborted and their responses end, server→client requests waiting for an
 * answer are rejected, and nothing is left behind — no live entry, no retention timer. Over real
 * HTTP, on both h3 majors.
 */
import { afterEach, describe, expect, it } from "vitest";
import { z } from "zod";
import { defineMcpHandler, defineTool } from "../src/index.ts";
import type { McpEventHandler } from "../src/handler-types.ts";
import { deferred } from "./helpers/deferred.ts";
import { HOSTS, startHost, type RunningHost } from "./helpers/hosts.ts";
import { liveSse, openGetStream } from "./helpers/live-sse.ts";
import { POST_HEADERS, post } from "./helpers/rpc.ts";

const VERSION = "2025-11-25";
let nextId = 1;

describe.each(HOSTS)("handler.close() and legacy sessions on %s", (host) => {
  let server: RunningHost | undefined;

  afterEach(async () => {
    await server?.close();
    server = undefined;
  });

  it("ends GET streams, calls in flight and waiting input requests, and leaves nothing behind", async () => {
    const slowStarted = deferred();
    const slowAborted = deferred<unknown>();
    const asking = deferred();
    const handler: McpEventHandler = defineMcpHandler({
      name: "closing",
      version: "1.0.0",
      tools: [
        defineTool({
          name: "slow",
          description: "Runs until its call is aborted",
          input: z.object({}),
          handler: async (event) => {
            const signal = event.context.mcp!.signal;
            slowStarted.resolve();
            await new Promise((resolve) => signal.addEventListener("abort", resolve, { once: true }));
            slowAborted.resolve(signal.reason);
            return "aborted";
          },
        }),
        defineTool({
          name: "ask",
          description: "Asks the client a question it never answers",
          input: z.object({}),
          handler: async (event) => {
            asking.resolve();
            await event.context.mcp!.elicit("q", "Name?", { type: "object", properties: { n: { type: "string" } } });
            return "answered";
          },
        }),
        defineTool({
          name: "chatty",
          description: "Streams one progress notification, so its log waits out the replay window",
          input: z.object({}),
          handler: async (event) => {
            await event.context.mcp!.progress(1, 1);
            return "done";
          },
        }),
      ],
    });
    server = await startHost(host, handler);
    const url = server.url;
    const init = await post(url, {
      jsonrpc: "2.0",
      id: nextId++,
      method: "initialize",
      params: { protocolVersion: VERSION, capabilities: { elicitation: {} }, clientInfo: { name: "c", version: "1" } },
    });
    const headers = { "mcp-session-id": init.headers.get("mcp-session-id")!, "mcp-protocol-version": VERSION };
    await post(url, { jsonrpc: "2.0", method: "notifications/initialized" }, headers);

    const { sse: getStream } = await openGetStream(url, headers);
    const callBody = (name: string) =>
      JSON.stringify({ jsonrpc: "2.0", id: nextId++, method: "tools/call", params: { name, arguments: {} } });
    const slow = fetch(url, { method: "POST", headers: { ...POST_HEADERS, ...headers }, body: callBody("slow") });
    slow.catch(() => {}); // awaited below
    await slowStarted.promise;
    const askAbort = new AbortController();
    const askResponse = await fetch(url, {
      method: "POST",
      headers: { ...POST_HEADERS, ...headers },
      body: callBody("ask"),
      signal: askAbort.signal,
    });
    const ask = liveSse(askResponse, askAbort);
    await asking.promise;
    expect(JSON.parse((await ask.next(/elicitation\/create/)).data).method).toBe("elicitation/create");
    const chatty = { name: "chatty", arguments: {}, _meta: { progressToken: 1 } };
    await post(url, { jsonrpc: "2.0", id: nextId++, method: "tools/call", params: chatty }, headers);

    const sessions = handler.engine.services.sessions!;
    const live = sessions.live.get(headers["mcp-session-id"]);
    expect(live?.getStream?.connected).toBe(true);
    expect(live?.inflight.size).toBe(2);
    expect(live?.pending.size).toBe(1);
    expect(sessions.retention.timerPending).toBe(true);

    await handler.close();

    expect(await getStream.endedWithin(2000)).toBe(true);
    expect(await ask.endedWithin(2000)).toBe(true);
    const slowAnswer = await slow;
    expect(slowAnswer.status).toBe(200);
    await slowAnswer.text(); // the response ends
    expect(await slowAborted.promise).toBeInstanceOf(Error);
    expect(sessions.live.size).toBe(0);
    expect(live?.inflight.size).toBe(0);
    expect(live?.pending.size).toBe(0);
    expect(sessions.retention.timerPending).toBe(false);
  });
});
