/**
 * Closing a modern POST's response stream cancels its request (2026-07-28: the disconnect is the
 * cancel), on h3 v2 and h3 v1 over real sockets: the handler's `mcp.signal` aborts and its work
 * stops, through a burst of opens and closes, and the server answers normally afterwards with
 * nothing left running.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { defineMcpHandler, defineTool } from "../src/index.ts";
import { HOSTS, startHost, type RunningHost } from "./helpers/hosts.ts";
import { POST_HEADERS } from "./helpers/rpc.ts";
import { sleep } from "./helpers/wait.ts";

/** Polls `done` every 20 ms until it holds or `ms` passed. */
async function waitFor(done: () => boolean, ms: number): Promise<void> {
  for (const end = Date.now() + ms; !done() && Date.now() < end;) await sleep(20);
}

const VERSION = "2026-07-28";
const BURST = 40;

function callInit(id: number, tool: string, progressToken: string, signal?: AbortSignal): RequestInit {
  const meta = {
    "io.modelcontextprotocol/protocolVersion": VERSION,
    "io.modelcontextprotocol/clientCapabilities": {},
    progressToken,
  };
  return {
    method: "POST",
    signal,
    headers: { ...POST_HEADERS, "mcp-protocol-version": VERSION, "mcp-method": "tools/call", "mcp-name": tool },
    body: JSON.stringify({
      jsonrpc: "2.0",
      id,
      method: "tools/call",
      params: { name: tool, arguments: {}, _meta: meta },
    }),
  };
}

describe.each(HOSTS)("a modern call whose client closes its stream, on %s", (host) => {
  const counts = { started: 0, aborted: 0, finished: 0, running: 0 };
  let server: RunningHost;
  beforeAll(async () => {
    const work = defineTool({
      name: "work",
      handler: async (event) => {
        const mcp = event.context.mcp!;
        counts.started++;
        counts.running++;
        try {
          // Progress first, so the answer is an event stream the client can close mid-way.
          await mcp.progress(1, 100, "started");
          const outcome = await new Promise<string>((resolve) => {
            const timer = setTimeout(() => resolve("finished"), 10_000);
            mcp.signal.addEventListener("abort", () => (clearTimeout(timer), resolve("aborted")), { once: true });
          });
          if (outcome === "aborted") counts.aborted++;
          else counts.finished++;
          return outcome;
        } finally {
          counts.running--;
        }
      },
    });
    const ping = defineTool({ name: "ping", handler: () => "pong" });
    server = await startHost(host, defineMcpHandler({ name: "close", version: "1.0.0", tools: [work, ping] }));
  });
  afterAll(() => server.close());

  it(`aborts each handler of a burst of ${BURST} closed streams, and serves on`, async () => {
    await Promise.all(
      Array.from({ length: BURST }, async (_, index) => {
        const controller = new AbortController();
        const response = await fetch(server.url, callInit(index, "work", `p${index}`, controller.signal));
        expect(response.headers.get("content-type")).toContain("text/event-stream");
        const reader = response.body!.getReader();
        let seen = "";
        while (!seen.includes("started")) seen += new TextDecoder().decode((await reader.read()).value);
        controller.abort();
      }),
    );
    await waitFor(() => counts.aborted === BURST, 5_000);
    expect(counts).toEqual({ started: BURST, aborted: BURST, finished: 0, running: 0 });
    // Healthy: the next call is answered as usual.
    const answer = await fetch(server.url, callInit(1000, "ping", "last"));
    expect(await answer.text()).toContain('"text":"pong"');
  });
});
