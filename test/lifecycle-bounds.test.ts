/**
 * Issue 10, "streams are bounded, errors reach the client": an SSE stream whose client stops
 * reading holds at most `maxStreamBufferBytes` (then the connection is closed: a modern call is
 * cancelled, a legacy call goes on and its client resumes from the event log); an oversize body
 * is answered 413 and the client reads that answer (no reset), without the server buffering the
 * body; a client that goes away mid-body is counted, not logged, and never rejects the host.
 *
 * Over real HTTP (raw `node:http` and `node:net` clients, which can stop reading or stop sending
 * at will) on h3 v2 and h3 v1, and through `handler.fetch`.
 */
import { execFile } from "node:child_process";
import { request as httpRequest, type IncomingMessage } from "node:http";
import { connect } from "node:net";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { z } from "zod";
import { MemoryEventStore, defineMcpHandler, defineTool, type McpEventHandler } from "../src/index.ts";
import { deferred, type Deferred } from "./helpers/deferred.ts";
import { HOSTS, startHost, type RunningHost } from "./helpers/hosts.ts";
import { POST_HEADERS, initializeByHand, post, toAnswer, type RpcMessage } from "./helpers/rpc.ts";
import { parseSse } from "./helpers/sse.ts";
import { sleep } from "./helpers/wait.ts";
import { watchProcess } from "./helpers/watch-process.ts";

const MODERN = "2026-07-28";
const LEGACY = "2025-11-25";
const MAX_STREAM_BUFFER = 64 * 1024;
const MAX_BODY = 1024 * 1024;
const MIB = 1024 * 1024;
const DEFAULT_MAX_BODY = 4 * MIB;
/** A progress message of about 1 KB: 100,000 of them are about 100 MB when nothing bounds the stream. */
const PAD = "x".repeat(1000);

let nextId = 1;

function modernCall(name: string, args: Record<string, unknown>, progressToken?: string): string {
  const meta: Record<string, unknown> = {
    "io.modelcontextprotocol/protocolVersion": MODERN,
    "io.modelcontextprotocol/clientCapabilities": {},
    "io.modelcontextprotocol/clientInfo": { name: "bounds-test", version: "1.0.0" },
  };
  if (progressToken !== undefined) meta.progressToken = progressToken;
  return JSON.stringify({
    jsonrpc: "2.0",
    id: nextId++,
    method: "tools/call",
    params: { name, arguments: args, _meta: meta },
  });
}

function modernHeaders(name: string): Record<string, string> {
  return { ...POST_HEADERS, "mcp-protocol-version": MODERN, "mcp-method": "tools/call", "mcp-name": name };
}

/** Polls `check` until it is true or `ms` passed. */
async function until(check: () => boolean, ms = 5000): Promise<boolean> {
  const end = Date.now() + ms;
  while (!check()) {
    if (Date.now() > end) return false;
    await sleep(10);
  }
  return true;
}

/**
 * POSTs `body` with `node:http` and resolves with the response head once it arrives, leaving the
 * body unread (paused) until the caller reads it.
 */
function openPaused(url: string, headers: Record<string, string>, body: string): Promise<IncomingMessage> {
  return new Promise((resolve, reject) => {
    const request = httpRequest(url, { method: "POST", headers }, (response) => {
      response.pause();
      resolve(response);
    });
    request.on("error", reject);
    request.end(body);
  });
}

/** Reads a Node response to its end. */
function readAll(response: IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    response.on("data", (chunk: Buffer) => chunks.push(chunk));
    response.on("end", () => resolve(Buffer.concat(chunks).toString("utf8")));
    response.on("error", reject);
    response.resume();
  });
}

interface Flood {
  /** Resolves with the number of progress events the tool sent (it stops when its call is cancelled). */
  done: Deferred<number>;
}

function boundedHandler(flood: { current: Flood }, options: { sessions: boolean }): McpEventHandler {
  return defineMcpHandler({
    name: "bounds",
    version: "1.0.0",
    maxStreamBufferBytes: MAX_STREAM_BUFFER,
    maxBodyBytes: MAX_BODY,
    keepAliveMs: 0,
    events: new MemoryEventStore({ maxEventsPerStream: 100_000 }),
    sessions: options.sessions ? {} : false,
    tools: [
      defineTool({
        name: "flood",
        input: z.object({ count: z.number() }),
        handler: async (event, { count }) => {
          const mcp = event.context.mcp!;
          let sent = 0;
          try {
            for (; sent < count && !mcp.signal.aborted; sent++) await mcp.progress(sent + 1, count, PAD);
          } finally {
            flood.current.done.resolve(sent);
          }
          return `sent ${sent}`;
        },
      }),
      defineTool({ name: "echo", input: z.object({ text: z.string() }), handler: (_event, { text }) => text }),
    ],
  });
}

const watch = watchProcess();

describe.each(HOSTS)("bounded streams on %s", (host) => {
  const flood = { current: { done: deferred<number>() } };
  let handler: McpEventHandler;
  let server: RunningHost;

  beforeAll(async () => {
    handler = boundedHandler(flood, { sessions: true });
    server = await startHost(host, handler);
  });
  afterAll(() => server.close());

  it("closes a modern stream whose client does not read, cancels its call, and keeps memory bounded", async () => {
    flood.current = { done: deferred<number>() };
    const count = 100_000;
    const before = handler.incidents.slow_reader_closed;
    const rssBefore = process.memoryUsage().rss;
    const response = await openPaused(server.url, modernHeaders("flood"), modernCall("flood", { count }, "p1"));
    expect(response.headers["content-type"]).toContain("text/event-stream");
    const sent = await Promise.race([flood.current.done.promise, sleep(20_000).then(() => -1)]);
    const grown = process.memoryUsage().rss - rssBefore;
    response.destroy();
    expect(sent, "the tool was cancelled").toBeGreaterThan(0);
    expect(sent).toBeLessThan(count);
    expect(handler.incidents.slow_reader_closed).toBe(before + 1);
    // Unbounded, the stream would hold about 100 MB; bounded, it holds 64 KiB (plus socket buffers).
    expect(grown).toBeLessThan(40 * MIB);
    // The server goes on serving.
    const answer = await toAnswer(
      await fetch(server.url, {
        method: "POST",
        headers: modernHeaders("echo"),
        body: modernCall("echo", { text: "hi" }),
      }),
    );
    expect((answer.json as RpcMessage).result?.content).toEqual([{ type: "text", text: "hi" }]);
  });

  it("does not close the stream of a client that reads, however fast the tool emits", async () => {
    flood.current = { done: deferred<number>() };
    const count = 5000;
    const before = handler.incidents.slow_reader_closed;
    const answer = await toAnswer(
      await fetch(server.url, {
        method: "POST",
        headers: modernHeaders("flood"),
        body: modernCall("flood", { count }, "p3"),
      }),
    );
    const messages = answer.events.map((event) => JSON.parse(event.data) as RpcMessage);
    expect(messages.filter((message) => message.method === "notifications/progress")).toHaveLength(count);
    expect(messages.at(-1)?.result?.content).toEqual([{ type: "text", text: `sent ${count}` }]);
    expect(handler.incidents.slow_reader_closed).toBe(before);
  });

  it("closes a legacy stream whose client does not read; the call goes on and the client resumes", async () => {
    flood.current = { done: deferred<number>() };
    const count = 20_000;
    const before = handler.incidents.slow_reader_closed;
    const sessionId = await initializeByHand(server.url, LEGACY);
    await post(server.url, { jsonrpc: "2.0", method: "notifications/initialized" }, { "mcp-session-id": sessionId });
    const id = nextId++;
    const response = await openPaused(
      server.url,
      { ...POST_HEADERS, "mcp-session-id": sessionId, "mcp-protocol-version": LEGACY },
      JSON.stringify({
        jsonrpc: "2.0",
        id,
        method: "tools/call",
        params: { name: "flood", arguments: { count }, _meta: { progressToken: "p2" } },
      }),
    );
    // Read up to the priming event's id, then stop reading.
    const primingId = await new Promise<string>((resolve) => {
      let text = "";
      const onData = (chunk: Buffer): void => {
        text += chunk.toString("utf8");
        const match = /^id: (.+)$/m.exec(text);
        if (!match) return;
        response.off("data", onData);
        response.pause();
        resolve(match[1]!);
      };
      response.on("data", onData);
      response.resume();
    });
    const sent = await Promise.race([flood.current.done.promise, sleep(20_000).then(() => -1)]);
    expect(sent, "a legacy call is not cancelled by a slow reader").toBe(count);
    expect(await until(() => handler.incidents.slow_reader_closed === before + 1)).toBe(true);
    response.destroy();
    const resumed = await toAnswer(
      await fetch(server.url, {
        headers: {
          accept: "text/event-stream",
          "mcp-session-id": sessionId,
          "mcp-protocol-version": LEGACY,
          "last-event-id": primingId,
        },
      }),
    );
    expect(resumed.status).toBe(200);
    const messages = parseSse(resumed.text).map((event) => JSON.parse(event.data) as RpcMessage);
    expect(messages.filter((message) => message.method === "notifications/progress")).toHaveLength(count);
    expect(messages.at(-1)?.id).toBe(id);
    expect(messages.at(-1)?.result?.content).toEqual([{ type: "text", text: `sent ${count}` }]);
  });
});

/** One POST with `node:http`: a body of `size` bytes sent in 64 KiB pieces, with or without Content-Length. */
function postBig(
  url: string,
  size: number,
  withLength: boolean,
): Promise<{ status: number; text: string; error?: Error }> {
  return new Promise((resolve, reject) => {
    const headers: Record<string, string> = { ...POST_HEADERS };
    if (withLength) headers["content-length"] = String(size);
    const piece = Buffer.alloc(64 * 1024, 0x20);
    let written = 0;
    let answered = false;
    const request = httpRequest(url, { method: "POST", headers }, (response) => {
      answered = true;
      readAll(response).then(
        (text) => resolve({ status: response.statusCode ?? 0, text }),
        (error: Error) => reject(error),
      );
    });
    request.on("error", (error) => {
      if (!answered) reject(error);
    });
    const pump = (): void => {
      while (!answered && written < size) {
        const next = piece.subarray(0, Math.min(piece.length, size - written));
        written += next.length;
        if (!request.write(next)) {
          request.once("drain", pump);
          return;
        }
      }
      if (written >= size) request.end();
    };
    pump();
  });
}

describe.each(HOSTS)("oversize bodies on %s", (host) => {
  let handler: McpEventHandler;
  let server: RunningHost;

  beforeAll(async () => {
    handler = boundedHandler({ current: { done: deferred<number>() } }, { sessions: false });
    server = await startHost(host, handler);
  });
  afterAll(() => server.close());

  function expect413(answer: { status: number; text: string }): void {
    expect(answer.status).toBe(413);
    const body = JSON.parse(answer.text) as RpcMessage;
    expect(body.error?.code).toBe(-32000);
    expect(body.error?.message).toContain("maxBodyBytes");
  }

  it("delivers the 413 of a body one byte over maxBodyBytes (default) to a client in another process", async () => {
    const defaults = await startHost(host, defineMcpHandler({ name: "defaults", version: "1.0.0", tools: [] }));
    try {
      const client = fileURLToPath(new URL("./helpers/post-body-client.mjs", import.meta.url));
      const { stdout } = await promisify(execFile)(process.execPath, [
        client,
        defaults.url,
        String(DEFAULT_MAX_BODY + 1),
        "20",
      ]);
      expect(JSON.parse(stdout)).toEqual({ "413": 20 });
    } finally {
      await defaults.close();
    }
  });

  it.each([true, false])("answers a 100 MB body 413 without buffering it (Content-Length: %s)", async (withLength) => {
    const rssBefore = process.memoryUsage().rss;
    expect413(await postBig(server.url, 100 * MIB, withLength));
    expect(process.memoryUsage().rss - rssBefore).toBeLessThan(40 * MIB);
    // The server goes on serving.
    const answer = await toAnswer(
      await fetch(server.url, {
        method: "POST",
        headers: modernHeaders("echo"),
        body: modernCall("echo", { text: "ok" }),
      }),
    );
    expect((answer.json as RpcMessage).result?.content).toEqual([{ type: "text", text: "ok" }]);
  });

  it("counts a client that disconnects mid-body, logs nothing, and goes on serving", async () => {
    const before = handler.incidents.client_aborted;
    const { port, pathname } = new URL(server.url);
    const socket = connect(Number(port), "127.0.0.1");
    await new Promise<void>((resolve) => socket.once("connect", () => resolve()));
    socket.write(
      `POST ${pathname} HTTP/1.1\r\nHost: localhost:${port}\r\nContent-Type: application/json\r\n` +
        `Accept: application/json, text/event-stream\r\nContent-Length: 1000\r\n\r\n{"jsonrpc":"2.0",`,
    );
    await sleep(50);
    socket.destroy();
    expect(await until(() => handler.incidents.client_aborted === before + 1)).toBe(true);
    await sleep(50);
    expect(watch.lines).toEqual([]);
    expect(watch.rejections).toEqual([]);
    const answer = await toAnswer(
      await fetch(server.url, {
        method: "POST",
        headers: modernHeaders("echo"),
        body: modernCall("echo", { text: "on" }),
      }),
    );
    expect((answer.json as RpcMessage).result?.content).toEqual([{ type: "text", text: "on" }]);
  });
});

describe("handler.fetch", () => {
  it("answers a 100 MB streamed body 413 after reading only past maxBodyBytes", async () => {
    const handler = boundedHandler({ current: { done: deferred<number>() } }, { sessions: false });
    let pulled = 0;
    const piece = new Uint8Array(64 * 1024).fill(0x20);
    const body = new ReadableStream<Uint8Array>({
      pull(controller) {
        pulled += piece.length;
        if (pulled > 100 * MIB) controller.close();
        else controller.enqueue(piece);
      },
    });
    const response = await handler.fetch(
      new Request("http://localhost/mcp", {
        method: "POST",
        headers: POST_HEADERS,
        body,
        duplex: "half",
      } as RequestInit),
    );
    expect(response.status).toBe(413);
    expect(((await response.json()) as RpcMessage).error?.message).toContain("maxBodyBytes");
    expect(pulled).toBeLessThan(MAX_BODY + 4 * 64 * 1024);
  });

  it("answers, and never rejects, when the body fails mid-way", async () => {
    const handler = boundedHandler({ current: { done: deferred<number>() } }, { sessions: false });
    let sent = false;
    const body = new ReadableStream<Uint8Array>({
      pull(controller) {
        if (!sent) {
          sent = true;
          controller.enqueue(new TextEncoder().encode('{"jsonrpc":'));
        } else controller.error(new Error("the client went away"));
      },
    });
    const response = await handler.fetch(
      new Request("http://localhost/mcp", {
        method: "POST",
        headers: POST_HEADERS,
        body,
        duplex: "half",
      } as RequestInit),
    );
    expect(response.status).toBe(400);
    expect(handler.incidents.client_aborted).toBe(1);
    expect(watch.lines).toEqual([]);
  });
});
