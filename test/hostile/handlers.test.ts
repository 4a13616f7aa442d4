/**
 * Hostile: what a handler does with hostile data must not take the server down either. A state that
 * cannot be signed (circular, BigInt), a result that cannot be serialized, a thrown non-Error: each
 * ends its call with a JSON-RPC answer (`-32603`), never a hang or an unhandled rejection. A handler
 * left waiting by `input_required` is released, so its `finally` runs.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { defineTool } from "../../src/index.ts";
import { HOSTS } from "../helpers/hosts.ts";
import {
  LEGACY,
  expectPing,
  expectRefused,
  expectStillServes,
  legacy,
  modern,
  openSession,
  postModern,
  startHostile,
  type HostileServer,
} from "../helpers/hostile.ts";
import { guardProcess } from "../helpers/process-guard.ts";
import { POST_HEADERS, send, single } from "../helpers/rpc.ts";
import { sleep } from "../helpers/wait.ts";

guardProcess();

const INTERNAL_ERROR = -32603;

const badTools = (effects: string[]) => [
  defineTool({
    name: "throws",
    input: { type: "object", properties: { kind: { type: "string" } } },
    handler: (_event, args) => {
      effects.push(`throws:${String(args.kind)}`);
      const thrown: Record<string, unknown> = {
        null: null,
        undefined: undefined,
        string: "plain string",
        number: 42,
        getter: {
          get message(): string {
            throw new Error("a getter that throws");
          },
        },
      };
      throw thrown[String(args.kind)];
    },
  }),
  defineTool({
    name: "bad-result",
    input: { type: "object", properties: { kind: { type: "string" } } },
    handler: (_event, args) => {
      if (args.kind === "bigint")
        return { content: [{ type: "text", text: "x" }], structuredContent: { n: 1n } } as never;
      const circular: Record<string, unknown> = { type: "text", text: "x" };
      circular.self = circular;
      return { content: [circular] } as never;
    },
  }),
];

async function waitFor(check: () => boolean, ms = 3000): Promise<boolean> {
  const deadline = Date.now() + ms;
  while (Date.now() < deadline && !check()) await sleep(10);
  return check();
}

describe.each(HOSTS)("hostile handler outcomes on %s", (host) => {
  let server: HostileServer;

  beforeAll(async () => {
    server = await startHostile(host, {}, badTools);
  });

  afterAll(async () => {
    await server.close();
  });

  for (const tool of ["circular-state", "bigint-state"]) {
    it(`a handler putting a ${tool === "circular-state" ? "circular" : "BigInt"} value in mcp.state gets a -32603 answer`, async () => {
      const call = modern("tools/call", { name: tool, arguments: {} });
      const answer = await postModern(server.url, call);
      expectRefused(answer, 200, INTERNAL_ERROR);
      expect(single(answer).id).toBe(call.id);
      await expectStillServes(server.url, server);
    });
  }

  it("a suspended input_required handler is released: its finally runs", async () => {
    const before = server.effects.length;
    const answer = await postModern(server.url, modern("tools/call", { name: "ask", arguments: {} }));
    expect(single(answer).result?.resultType).toBe("input_required");
    expect(await waitFor(() => server.effects.slice(before).includes("ask:finally"))).toBe(true);
    expect(server.effects.slice(before)).not.toContain("ask:done:undefined");
  });

  it("a legacy handler waiting for the client's answer is released when its session is deleted", async () => {
    const session = await openSession(server.url);
    const before = server.effects.length;
    const controller = new AbortController();
    const response = await fetch(server.url, {
      method: "POST",
      headers: { ...POST_HEADERS, ...session.headers },
      body: JSON.stringify(legacy("tools/call", { name: "ask", arguments: {} })),
      signal: controller.signal,
    });
    expect(response.headers.get("content-type")).toContain("text/event-stream");
    expect(await waitFor(() => server.effects.slice(before).includes("ask:start"))).toBe(true);
    const deleted = await send(server.url, "DELETE", { "mcp-session-id": session.id, "mcp-protocol-version": LEGACY });
    expect(deleted.status).toBeLessThan(300);
    expect(await waitFor(() => server.effects.slice(before).includes("ask:finally"))).toBe(true);
    controller.abort();
    await response.body?.cancel().catch(() => {});
  });

  for (const kind of ["null", "undefined", "string", "number", "getter"]) {
    it(`a handler throwing ${kind === "getter" ? "an object whose message getter throws" : `a bare ${kind}`} gets an error answer on both eras`, async () => {
      const call = modern("tools/call", { name: "throws", arguments: { kind } });
      const answer = await postModern(server.url, call);
      expect(answer.status, answer.text).toBe(200);
      const body = single(answer);
      // A tool error the model can read, or an internal error: an answer either way.
      expect(body.result?.isError === true || body.error?.code === INTERNAL_ERROR, answer.text).toBe(true);
      const session = await openSession(server.url);
      const legacyAnswer = await fetch(server.url, {
        method: "POST",
        headers: { ...POST_HEADERS, ...session.headers },
        body: JSON.stringify(legacy("tools/call", { name: "throws", arguments: { kind } })),
        signal: AbortSignal.timeout(10_000),
      });
      expect(legacyAnswer.status).toBe(200);
      await expectPing(server.url, session);
    });
  }

  for (const kind of ["circular", "bigint"]) {
    it(`a handler returning a ${kind} result gets -32603 on both eras, not a 500`, async () => {
      const call = modern("tools/call", { name: "bad-result", arguments: { kind } });
      expectRefused(await postModern(server.url, call), 200, INTERNAL_ERROR);
      const session = await openSession(server.url);
      const response = await fetch(server.url, {
        method: "POST",
        headers: { ...POST_HEADERS, ...session.headers },
        body: JSON.stringify(legacy("tools/call", { name: "bad-result", arguments: { kind } })),
        signal: AbortSignal.timeout(10_000),
      });
      const text = await response.text();
      expect(response.status, text).toBe(200);
      expect(JSON.parse(text).error.code).toBe(INTERNAL_ERROR);
      await expectStillServes(server.url, server);
    });
  }

  it("a hook that throws is counted as callback_failure and the request is served", async () => {
    const hooked = await startHostile(host, {
      hooks: {
        onRequest: () => {
          throw new Error("hook failure");
        },
      },
      onIncident: () => {},
    });
    try {
      const before = hooked.handler.incidents.callback_failure;
      await expectStillServes(hooked.url, hooked);
      expect(hooked.handler.incidents.callback_failure).toBeGreaterThan(before);
    } finally {
      await hooked.close();
    }
  });
});
