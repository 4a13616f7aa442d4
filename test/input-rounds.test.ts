/**
 * A call that keeps asking for input is bounded by `maxInputRounds` on both eras: server→client
 * requests on a legacy session, `input_required` round trips on the modern era. Past the cap the
 * call fails with an error that names the option. On the modern era, the requests made together
 * (one `Promise.all`) go out in one round, and one made after awaiting another in the next; each
 * round sends the progress its run of the handler reports, once.
 */
import { afterEach, describe, expect, it } from "vitest";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { ElicitRequestSchema } from "@modelcontextprotocol/sdk/types.js";
import { z } from "zod";
import { defineMcpHandler, defineTool } from "../src/index.ts";
import { createMcpTestClient } from "../src/_entries/testing.ts";
import { HOSTS, startHost, type RunningHost } from "./helpers/hosts.ts";
import { postToolCall } from "./helpers/rpc.ts";

const FORM = { type: "object", properties: { n: { type: "integer" } }, required: ["n"] } as const;

/** The `_meta` envelope of a modern client that can answer elicitations. */
const ELICITING_META = {
  "io.modelcontextprotocol/protocolVersion": "2026-07-28",
  "io.modelcontextprotocol/clientCapabilities": { elicitation: {} },
};

/** One round of a modern `tools/call` of `name`: the state and the answers to the previous round's questions. */
function callRound(
  url: string,
  name: string,
  round: number,
  requestState: string | undefined,
  inputResponses: Record<string, unknown> | undefined,
): Promise<Response> {
  return postToolCall(url, round, { name, arguments: {}, _meta: ELICITING_META, requestState, inputResponses });
}

/** Asks again and again, one question per round, carrying the count in its state. */
const endless = defineTool({
  name: "endless",
  description: "Never satisfied",
  handler: async (event) => {
    const mcp = event.context.mcp!;
    let asked = (mcp.state as number | undefined) ?? 0;
    for (;;) {
      mcp.state = asked;
      await mcp.elicit(`q${asked}`, `Question ${asked}`, FORM);
      asked += 1;
    }
  },
});

const handler = (): ReturnType<typeof defineMcpHandler> =>
  defineMcpHandler({ name: "rounds", version: "1", maxInputRounds: 3, tools: [endless] });

describe.each(HOSTS)("maxInputRounds on %s", (host) => {
  let server: RunningHost | undefined;
  afterEach(async () => {
    await server?.close();
    server = undefined;
  });

  it("legacy: the fourth server→client request fails the call", async () => {
    server = await startHost(host, handler());
    const client = new Client({ name: "t", version: "1" }, { capabilities: { elicitation: {} } });
    let answered = 0;
    client.setRequestHandler(ElicitRequestSchema, async () => {
      answered += 1;
      return { action: "accept", content: { n: answered } };
    });
    await client.connect(new StreamableHTTPClientTransport(new URL(server.url)));
    await expect(client.callTool({ name: "endless", arguments: {} })).rejects.toThrow(/maxInputRounds/);
    expect(answered).toBe(3);
    await client.close();
  });

  it("modern: the fourth input_required round is an error", async () => {
    server = await startHost(host, handler());
    let requestState: string | undefined;
    let inputResponses: Record<string, unknown> | undefined;
    for (let round = 1; round <= 4; round += 1) {
      const response = await callRound(server.url, "endless", round, requestState, inputResponses);
      const body = (await response.json()) as {
        result?: { resultType: string; requestState: string; inputRequests: Record<string, unknown> };
        error?: { code: number; message: string };
      };
      if (round <= 3) {
        expect(body.result?.resultType, JSON.stringify(body)).toBe("input_required");
        requestState = body.result!.requestState;
        const [key] = Object.keys(body.result!.inputRequests);
        inputResponses = { [key!]: { action: "accept", content: { n: round } } };
      } else {
        expect(body.error?.code, JSON.stringify(body)).toBe(-32603);
        expect(body.error?.message).toMatch(/maxInputRounds/);
      }
    }
  });

  it("modern: questions asked one after another are answered across rounds without mcp.state", async () => {
    // Each retry carries only the answer of its own round; earlier answers ride in the signed state.
    const survey = defineTool({
      name: "survey",
      description: "Three questions in a row",
      handler: async (event) => {
        const mcp = event.context.mcp!;
        const a = await mcp.elicit("a", "First?", FORM);
        const b = await mcp.elicit("b", "Second?", FORM);
        const c = await mcp.elicit("c", "Third?", FORM);
        return `${String(a.content?.n)}-${String(b.content?.n)}-${String(c.content?.n)}`;
      },
    });
    server = await startHost(host, defineMcpHandler({ name: "rounds", version: "1", tools: [survey] }));
    let requestState: string | undefined;
    let inputResponses: Record<string, unknown> | undefined;
    const asked: string[] = [];
    for (let round = 1; round <= 4; round += 1) {
      const response = await callRound(server.url, "survey", round, requestState, inputResponses);
      const body = (await response.json()) as {
        result: {
          resultType: string;
          requestState?: string;
          inputRequests?: Record<string, unknown>;
          content?: { text: string }[];
        };
      };
      if (round === 4) {
        expect(body.result.resultType).toBe("complete");
        expect(body.result.content?.[0]?.text).toBe("1-2-3");
        break;
      }
      expect(body.result.resultType).toBe("input_required");
      const keys = Object.keys(body.result.inputRequests!);
      expect(keys).toHaveLength(1);
      asked.push(keys[0]!);
      requestState = body.result.requestState;
      inputResponses = { [keys[0]!]: { action: "accept", content: { n: round } } };
    }
    expect(asked).toEqual(["a", "b", "c"]);
  });

  it("modern: requests made together go out in one round; one asked after awaiting another, in the next", async () => {
    const grouped = defineTool({
      name: "grouped",
      description: "Two questions together, one alone, then three together (one of them a few awaits later)",
      handler: async (event) => {
        const mcp = event.context.mcp!;
        const ask = (key: string) => mcp.elicit(key, `${key}?`, FORM);
        const afterAwaits = async (key: string) => {
          for (let i = 0; i < 5; i++) await Promise.resolve();
          return ask(key);
        };
        const firstTwo = await Promise.all([ask("a"), ask("b")]);
        const alone = await ask("c");
        const lastThree = await Promise.all([ask("d"), afterAwaits("e"), ask("f")]);
        return [...firstTwo, alone, ...lastThree].map((answer) => String(answer.content?.n)).join("-");
      },
    });
    server = await startHost(host, defineMcpHandler({ name: "rounds", version: "1", tools: [grouped] }));
    let requestState: string | undefined;
    let inputResponses: Record<string, unknown> | undefined;
    const asked: string[][] = [];
    for (let round = 1; round <= 4; round += 1) {
      const response = await callRound(server.url, "grouped", round, requestState, inputResponses);
      const body = (await response.json()) as {
        result: {
          resultType: string;
          requestState?: string;
          inputRequests?: Record<string, unknown>;
          content?: { text: string }[];
        };
      };
      if (body.result.resultType === "complete") {
        expect(body.result.content?.[0]?.text).toBe("1-1-2-3-3-3");
        break;
      }
      expect(body.result.resultType).toBe("input_required");
      const keys = Object.keys(body.result.inputRequests!);
      asked.push([...keys].sort());
      requestState = body.result.requestState;
      inputResponses = Object.fromEntries(keys.map((key) => [key, { action: "accept", content: { n: round } }]));
    }
    expect(asked).toEqual([["a", "b"], ["c"], ["d", "e", "f"]]);
  });

  it("modern: progress goes on across rounds, never back nor twice, as on a legacy session", async () => {
    // The handler runs again on the retry and reports its first two steps again: the requestState
    // carries the last progress sent, so only what goes past it is sent (before: 0, 1, then 0, 1
    // again). Between the rounds the 2.x client reports a progress of its own while it fulfils one
    // (`progress: round`, "round 1"): that one is the client's, not the server's.
    const steps = defineTool({
      name: "steps",
      description: "Two progress steps, a question, a third step",
      handler: async (event) => {
        const mcp = event.context.mcp!;
        await mcp.progress(0, 3, "first step");
        await mcp.progress(1, 3, "second step");
        const answer = await mcp.elicit("go", "Go?", z.object({ go: z.boolean() }));
        await mcp.progress(2, 3, "third step");
        return String(answer.action);
      },
    });
    server = await startHost(host, defineMcpHandler({ name: "rounds", version: "1", tools: [steps] }));
    for (const era of ["modern", "legacy"] as const) {
      const received: string[] = [];
      const client = await createMcpTestClient(server.url, {
        era,
        elicitation: () => ({ action: "accept", content: { go: true } }),
      });
      try {
        await client.callTool(
          { name: "steps", arguments: {} },
          { onprogress: ({ progress, message }) => void received.push(`${progress} ${message}`) },
        );
      } finally {
        await client.close();
      }
      const fromServer = received.filter((line) => line.endsWith(" step"));
      expect(fromServer, era).toEqual(["0 first step", "1 second step", "2 third step"]);
      const fromClient = received.filter((line) => !line.endsWith(" step"));
      expect(fromClient, era).toEqual(era === "modern" ? [expect.stringMatching(/^1 .*round 1/)] : []);
    }
  });

  it("a handler's progress that does not increase is not sent (the spec: it must increase with each notification)", async () => {
    const wobbly = defineTool({
      name: "wobbly",
      handler: async (event) => {
        const mcp = event.context.mcp!;
        for (const value of [1, 1, 0.5, 2, Number.NaN, 3]) await mcp.progress(value);
        return "done";
      },
    });
    server = await startHost(host, defineMcpHandler({ name: "rounds", version: "1", tools: [wobbly] }));
    for (const era of ["modern", "legacy"] as const) {
      const received: number[] = [];
      const client = await createMcpTestClient(server.url, { era });
      try {
        await client.callTool(
          { name: "wobbly", arguments: {} },
          { onprogress: ({ progress }) => void received.push(progress) },
        );
      } finally {
        await client.close();
      }
      expect(received, era).toEqual([1, 2, 3]);
    }
  });
});
