/**
 * Hostile: super-linear work on client data. Each path is timed at two input sizes, N and 4N: linear
 * work grows about 4x, quadratic 16x, cubic 64x, so the ratio must stay under 8 (room for a loaded
 * 2-core box). The server runs in a child process: a backtracking regex would block an in-process
 * server and the test with it; here the request times out and the child is killed.
 */
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { startChildServer, type ChildServer } from "../helpers/child-server.ts";
import { HOSTS } from "../helpers/hosts.ts";
import { LEGACY, legacy, modern, modernHeaders } from "../helpers/hostile.ts";
import { guardProcess } from "../helpers/process-guard.ts";
import { POST_HEADERS, toAnswer, type Answer } from "../helpers/rpc.ts";

guardProcess();

/** A linear path answers the small size in well under this; a stuck one is cut off. */
const SMALL_TIMEOUT_MS = 5000;
const LARGE_TIMEOUT_MS = 15_000;
const MAX_RATIO = 8;

async function timedPost(
  url: string,
  body: string,
  headers: Record<string, string>,
  timeoutMs: number,
): Promise<{ answer: Answer; ms: number }> {
  const started = performance.now();
  let response: Response;
  try {
    response = await fetch(url, { method: "POST", headers, body, signal: AbortSignal.timeout(timeoutMs) });
  } catch (error) {
    throw new Error(
      `no answer within ${timeoutMs} ms for a ${body.length}-byte body (super-linear work?): ${String(error)}`,
    );
  }
  const answer = await toAnswer(response);
  return { answer, ms: performance.now() - started };
}

/** The fastest of three runs of each size (the least disturbed), and their ratio. */
async function growth(send: (size: number, timeoutMs: number) => Promise<number>, size: number): Promise<number> {
  const best = async (n: number, timeoutMs: number): Promise<number> => {
    let fastest = Infinity;
    for (let run = 0; run < 3; run++) fastest = Math.min(fastest, await send(n, timeoutMs));
    return fastest;
  };
  const small = await best(size, SMALL_TIMEOUT_MS);
  const large = await best(4 * size, LARGE_TIMEOUT_MS);
  // A floor of 1 ms keeps timer granularity from inventing a ratio.
  return Math.max(large, 1) / Math.max(small, 1);
}

describe.each(HOSTS)("hostile super-linear paths on %s", (host) => {
  let child: ChildServer;
  let sessionHeaders: Record<string, string>;

  // A fresh child for each case: one stuck in a regex would leave the next case nothing to measure.
  beforeEach(async () => {
    child = await startChildServer("test/hostile/servers/costly-paths.ts", [host]);
    const init = legacy("initialize", {
      protocolVersion: LEGACY,
      capabilities: {},
      clientInfo: { name: "x", version: "1" },
    });
    const answer = await toAnswer(
      await fetch(child.url, { method: "POST", headers: POST_HEADERS, body: JSON.stringify(init) }),
    );
    sessionHeaders = {
      ...POST_HEADERS,
      "mcp-session-id": answer.headers.get("mcp-session-id")!,
      "mcp-protocol-version": LEGACY,
    };
  });

  afterEach(() => {
    child?.close();
  });

  /** A modern call of `fenced` whose sampled answer is `text`. */
  function fencedCall(text: string): { body: string; headers: Record<string, string> } {
    const call = modern("tools/call", {
      name: "fenced",
      arguments: {},
      inputResponses: { llm: { role: "assistant", model: "m", content: { type: "text", text } } },
    });
    return { body: JSON.stringify(call), headers: modernHeaders(call) };
  }

  it("sample({schema}) reads a padded fenced answer correctly", async () => {
    const text = "```json" + " \n".repeat(2000) + '{"ok":true}' + " \n".repeat(2000) + "```";
    const { body, headers } = fencedCall(text);
    const { answer } = await timedPost(child.url, body, headers, SMALL_TIMEOUT_MS);
    expect(answer.status, answer.text.slice(0, 300)).toBe(200);
    expect(answer.text).toContain("ok=true");
  });

  it("sample({schema}) fed a forged 2.3 KB+ answer: a clear error, linear growth", async () => {
    let last: Answer | undefined;
    const ratio = await growth(async (size, timeoutMs) => {
      // An open fence followed by whitespace that never closes: the worst case for a backtracking match.
      const { body, headers } = fencedCall("```" + " ".repeat(size) + "x");
      const { answer, ms } = await timedPost(child.url, body, headers, timeoutMs);
      last = answer;
      return ms;
    }, 2300);
    expect(last!.status).toBe(200);
    expect(last!.text).toMatch(/"isError":true/);
    expect(last!.text).toMatch(/not JSON/);
    expect(ratio).toBeLessThan(MAX_RATIO);
  });

  it("a tile://{z}.{x}.{y} read with a worst-case URI up to maxUriLength: answered, linear growth", async () => {
    let last: Answer | undefined;
    const ratio = await growth(async (length, timeoutMs) => {
      // Dots everywhere and a slash at the end: every split of the dots is a candidate, none matches.
      const uri = "tile://" + ".".repeat(length - 8) + "/";
      const { answer, ms } = await timedPost(
        child.url,
        JSON.stringify(legacy("resources/read", { uri })),
        sessionHeaders,
        timeoutMs,
      );
      last = answer;
      return ms;
    }, 4096);
    expect(last!.status).toBe(200);
    const error = (last!.json as { error?: { code: number } }).error;
    expect(error, last!.text.slice(0, 300)).toBeDefined();
    expect(ratio).toBeLessThan(MAX_RATIO);
    // The message quotes the URI short; `data.uri` carries it whole, as the specification defines
    // that error (bounded by maxUriLength).
    expect((error as unknown as { message: string }).message.length).toBeLessThan(300);
  });

  it("uniqueItems over 2,000 vs 8,000 objects: linear-ish growth, and a late duplicate is found", async () => {
    let last: Answer | undefined;
    const items = (count: number): { k: number; tag: string }[] =>
      Array.from({ length: count }, (_, k) => ({ k, tag: "t" }));
    const ratio = await growth(async (count, timeoutMs) => {
      const call = modern("tools/call", { name: "unique", arguments: { items: items(count) } });
      const { answer, ms } = await timedPost(child.url, JSON.stringify(call), modernHeaders(call), timeoutMs);
      last = answer;
      return ms;
    }, 2000);
    expect(last!.text).toContain("unique 8000");
    expect(ratio).toBeLessThan(MAX_RATIO);
    const twin = [...items(8000), { tag: "t", k: 3 }];
    const call = modern("tools/call", { name: "unique", arguments: { items: twin } });
    const { answer } = await timedPost(child.url, JSON.stringify(call), modernHeaders(call), LARGE_TIMEOUT_MS);
    expect(answer.text).toMatch(/"isError":true/);
  });
});
