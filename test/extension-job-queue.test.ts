/**
 * The example extension of docs/guide/writing-an-extension.md (test/extensions/job-queue.ts),
 * written against `mcp-h3` alone, over real HTTP on both h3 majors and in both eras: a listed
 * tool's call answers at once with a job id while the tool goes on detached from its request, its
 * caller reads the outcome once, another caller cannot, a cancel reaches the tool's `mcp.signal`,
 * and other tools are called plainly. The guide shows the extension's file as it is.
 */
import { readFileSync } from "node:fs";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { defineMcpHandler, defineTool } from "mcp-h3";
import { jobQueue } from "./extensions/job-queue.ts";
import { deferred, type Deferred } from "./helpers/deferred.ts";
import { HOSTS, startHost, type RunningHost } from "./helpers/hosts.ts";
import { initializeByHand, post, single } from "./helpers/rpc.ts";
import { sleep } from "./helpers/wait.ts";

const MODERN = "2026-07-28";
const MODERN_META = {
  "io.modelcontextprotocol/protocolVersion": MODERN,
  "io.modelcontextprotocol/clientCapabilities": {},
};

/** How a test talks to the server in one era: `call(method, params)` resolves the JSON-RPC message. */
type Caller = (method: string, params?: Record<string, unknown>) => Promise<ReturnType<typeof single>>;

async function legacyCaller(url: string): Promise<Caller> {
  const headers = { "mcp-session-id": await initializeByHand(url), "mcp-protocol-version": "2025-11-25" };
  return async (method, params = {}) => single(await post(url, { jsonrpc: "2.0", id: 2, method, params }, headers));
}

function modernCaller(url: string): Caller {
  return async (method, params = {}) => {
    const headers: Record<string, string> = { "mcp-protocol-version": MODERN, "mcp-method": method };
    if (method === "tools/call") headers["mcp-name"] = String(params.name);
    const message = { jsonrpc: "2.0", id: 7, method, params: { ...params, _meta: MODERN_META } };
    return single(await post(url, message, headers));
  };
}

/** The job's outcome, once it has one (polled every 10 ms, for at most 2 s). */
async function outcomeOf(call: Caller, jobId: string): Promise<Record<string, unknown> | undefined> {
  for (let i = 0; i < 200; i++) {
    const answer = (await call("example/jobs.get", { jobId })).result;
    if (answer?.status !== "working") return answer;
    await sleep(10);
  }
  return undefined;
}

describe.each(HOSTS)("the job queue extension on %s", (host) => {
  let server: RunningHost;
  let gate: Deferred<string>;
  const seen: { aborted: unknown[] } = { aborted: [] };

  beforeAll(async () => {
    const slow = defineTool({
      name: "slow",
      description: "Waits for the test, then answers",
      handler: async (event) => {
        const signal = event.context.mcp!.signal;
        signal.addEventListener("abort", () => seen.aborted.push(signal.reason));
        return await gate.promise;
      },
    });
    const quick = defineTool({ name: "quick", description: "Answers at once", handler: () => "quick" });
    const handler = defineMcpHandler({
      name: "jobs",
      version: "1.0.0",
      tools: [slow, quick],
      extensions: [jobQueue({ tools: ["slow"] })],
    });
    server = await startHost(host, handler);
  });
  afterAll(async () => {
    await server.close();
  });

  const eras: [string, (url: string) => Caller | Promise<Caller>][] = [
    ["legacy", legacyCaller],
    ["modern", modernCaller],
  ];

  describe.each(eras)("%s", (era, connect) => {
    it("answers a listed tool's call at once with a job id; the tool goes on and its caller reads the outcome once", async () => {
      gate = deferred<string>();
      const call = await connect(server.url);
      const started = await call("tools/call", { name: "slow", arguments: {} });
      const jobId = (started.result!.structuredContent as { jobId: string }).jobId;
      expect(jobId).toMatch(/^[0-9a-f-]{36}$/);
      // The request was answered; the tool still waits on the gate.
      expect((await call("example/jobs.get", { jobId })).result).toMatchObject({ status: "working" });

      gate.resolve(`done in the ${era} era`);
      expect(await outcomeOf(call, jobId)).toMatchObject({
        status: "done",
        result: { content: [{ type: "text", text: `done in the ${era} era` }] },
      });
      // Read once: forgotten now.
      const again = await call("example/jobs.get", { jobId });
      expect(again.error).toMatchObject({ code: -32602, message: `Unknown job: "${jobId}"` });
    });

    it("cancels a job: the tool's mcp.signal fires, and the job is gone", async () => {
      gate = deferred<string>();
      seen.aborted.length = 0;
      const call = await connect(server.url);
      const jobId = ((await call("tools/call", { name: "slow" })).result!.structuredContent as { jobId: string }).jobId;
      expect((await call("example/jobs.cancel", { jobId })).result).toMatchObject({});
      expect(seen.aborted).toHaveLength(1);
      expect(String(seen.aborted[0])).toContain("cancelled by its caller");
      expect((await call("example/jobs.get", { jobId })).error).toMatchObject({ code: -32602 });
      gate.resolve("late");
    });

    it("calls the tools it does not list as plain calls", async () => {
      const call = await connect(server.url);
      const plain = await call("tools/call", { name: "quick" });
      expect(plain.result).toMatchObject({ content: [{ type: "text", text: "quick" }] });
      expect(plain.result?.structuredContent).toBeUndefined();
    });
  });

  it("legacy: another session cannot read or cancel a job (answered as an unknown one)", async () => {
    gate = deferred<string>();
    const mine = await legacyCaller(server.url);
    const theirs = await legacyCaller(server.url);
    const jobId = ((await mine("tools/call", { name: "slow" })).result!.structuredContent as { jobId: string }).jobId;
    expect((await theirs("example/jobs.get", { jobId })).error).toMatchObject({ code: -32602 });
    expect((await theirs("example/jobs.cancel", { jobId })).error).toMatchObject({ code: -32602 });
    expect((await mine("example/jobs.get", { jobId })).result).toMatchObject({ status: "working" });
    gate.resolve("mine");
  });
});

describe("the job queue extension's source", () => {
  const source = readFileSync(new URL("./extensions/job-queue.ts", import.meta.url), "utf8");

  it("imports mcp-h3 and nothing else", () => {
    const specifiers = [...source.matchAll(/\bfrom\s*["']([^"']+)["']/g)].map((match) => match[1]);
    expect(specifiers).toEqual(["mcp-h3"]);
  });

  it("is shown as it is in docs/guide/writing-an-extension.md", () => {
    const guide = readFileSync(new URL("../docs/guide/writing-an-extension.md", import.meta.url), "utf8");
    // The file after its header comment: the code a reader copies.
    const code = source.slice(source.indexOf("*/\n") + 3).trim();
    expect(guide).toContain(code);
  });
});
