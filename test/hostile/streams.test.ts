/**
 * Hostile: streams that a client opens and then neglects. A client that stops reading is cut off
 * past `maxStreamBufferBytes` (`incidents.slow_reader_closed`), so memory stays bounded; a flood of
 * `subscriptions/listen` gets at most `maxListens` streams and every slot comes back, even for a
 * listen the client dropped before it started; a listen's `resourceSubscriptions` hold at most
 * `maxSubscriptions` distinct URIs of at most `maxUriLength` characters, each one a resource serves.
 */
import { collectGarbage } from "../helpers/gc.ts";
import { request as httpRequest, type ClientRequest, type IncomingMessage } from "node:http";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { MemoryBus, defineTool, type Bus } from "../../src/index.ts";
import { HOSTS } from "../helpers/hosts.ts";
import {
  LEGACY,
  expectPing,
  expectRefused,
  expectStillServes,
  modern,
  modernHeaders,
  openSession,
  postModern,
  startHostile,
  type HostileServer,
} from "../helpers/hostile.ts";
import { guardProcess } from "../helpers/process-guard.ts";
import { sleep } from "../helpers/wait.ts";

guardProcess();

const BUFFER = 64 * 1024;

/** A tool that announces `count` tool-list changes: each reaches every GET and listen stream. */
const broadcast = () => [
  defineTool({
    name: "broadcast",
    input: { type: "object", properties: { count: { type: "integer" } } },
    handler: async (event, args) => {
      const notify = event.context.mcp!.notify;
      for (let i = 0; i < Number(args.count); i++) await notify.toolsChanged();
      return "sent";
    },
  }),
];

/** Opens a stream and never reads it: the response is paused as soon as its head arrives. */
function neglect(
  url: string,
  method: string,
  headers: Record<string, string>,
  body?: string,
): Promise<{ response: IncomingMessage; request: ClientRequest }> {
  return new Promise((resolve, reject) => {
    const request = httpRequest(url, { method, headers }, (response) => {
      response.pause();
      resolve({ response, request });
    });
    request.on("error", reject);
    request.end(body);
  });
}

async function waitFor(check: () => boolean, ms = 5000): Promise<boolean> {
  const deadline = Date.now() + ms;
  while (Date.now() < deadline && !check()) await sleep(10);
  return check();
}

async function callBroadcast(server: HostileServer, count: number): Promise<void> {
  const answer = await postModern(server.url, modern("tools/call", { name: "broadcast", arguments: { count } }));
  expect(answer.status, answer.text).toBe(200);
}

/** A bus whose subscribe takes a while (a remote bus), so a listen can be dropped before it starts. */
class SlowBus implements Bus {
  #inner = new MemoryBus();
  publish(channel: string, message: unknown): Promise<void> {
    return this.#inner.publish(channel, message);
  }
  async subscribe(channel: string, listener: (message: unknown) => void): Promise<() => void> {
    await sleep(200);
    return this.#inner.subscribe(channel, listener);
  }
}

describe.each(HOSTS)("hostile streams on %s", (host) => {
  let server: HostileServer;

  beforeAll(async () => {
    server = await startHostile(host, { maxStreamBufferBytes: BUFFER, maxListens: 3 }, broadcast);
  });

  afterAll(async () => {
    await server.close();
  });

  it("a legacy GET stream whose client stops reading is closed past maxStreamBufferBytes; memory stays bounded", async () => {
    const session = await openSession(server.url);
    const before = server.handler.incidents.slow_reader_closed;
    const { response, request } = await neglect(server.url, "GET", {
      "mcp-session-id": session.id,
      "mcp-protocol-version": LEGACY,
      accept: "text/event-stream",
    });
    expect(response.statusCode).toBe(200);
    collectGarbage();
    const heapBefore = process.memoryUsage().heapUsed;
    // About 90 bytes per notification: 60,000 of them are ~80x the buffer, and more than loopback sockets hold.
    await callBroadcast(server, 60_000);
    expect(await waitFor(() => server.handler.incidents.slow_reader_closed > before)).toBe(true);
    collectGarbage();
    expect(process.memoryUsage().heapUsed - heapBefore).toBeLessThan(16 * 1024 * 1024);
    request.destroy();
    // The session itself lives on, and gets a new GET stream.
    await expectPing(server.url, session);
    await expectStillServes(server.url, server);
  });

  it("a listen stream whose client stops reading is closed too, and its slot comes back", async () => {
    const listen = modern("subscriptions/listen", { notifications: { toolsListChanged: true } });
    const before = server.handler.incidents.slow_reader_closed;
    const { response, request } = await neglect(server.url, "POST", modernHeaders(listen), JSON.stringify(listen));
    expect(response.statusCode).toBe(200);
    await callBroadcast(server, 10_000);
    expect(await waitFor(() => server.handler.incidents.slow_reader_closed > before)).toBe(true);
    expect(await waitFor(() => server.handler.engine.services.listens.streams.size === 0)).toBe(true);
    request.destroy();
  });

  it("a flood of 20 listens gets maxListens streams and -32603 for the rest; all slots come back", async () => {
    const server = await startHostile(host, { maxListens: 3 });
    const opened: { request: ClientRequest }[] = [];
    const refused: string[] = [];
    await Promise.all(
      Array.from({ length: 20 }, async () => {
        const listen = modern("subscriptions/listen", { notifications: { toolsListChanged: true } });
        const { response, request } = await neglect(server.url, "POST", modernHeaders(listen), JSON.stringify(listen));
        if (String(response.headers["content-type"]).includes("text/event-stream")) opened.push({ request });
        else {
          response.resume();
          const chunks: Buffer[] = [];
          response.on("data", (chunk: Buffer) => chunks.push(chunk));
          await new Promise((resolve) => response.on("end", resolve));
          refused.push(Buffer.concat(chunks).toString());
        }
      }),
    );
    expect(opened).toHaveLength(3);
    expect(refused).toHaveLength(17);
    for (const text of refused) expect(JSON.parse(text).error.code).toBe(-32603);
    for (const { request } of opened) request.destroy();
    expect(await waitFor(() => server.handler.engine.services.listens.streams.size === 0)).toBe(true);
    await expectStillServes(server.url, server);
    await server.close();
  });

  it("a listen dropped before it started does not keep its slot (maxListens 1)", async () => {
    const slow = await startHostile(host, { maxListens: 1, bus: new SlowBus() });
    try {
      const listen = modern("subscriptions/listen", { notifications: { toolsListChanged: true } });
      const controller = new AbortController();
      const dropped = fetch(slow.url, {
        method: "POST",
        headers: modernHeaders(listen),
        body: JSON.stringify(listen),
        signal: controller.signal,
      }).catch(() => undefined);
      await sleep(60);
      controller.abort();
      await dropped;
      await sleep(400);
      expect(slow.handler.engine.services.listens.streams.size).toBe(0);
      // The one slot is free: a new listen is acknowledged.
      const again = modern("subscriptions/listen", { notifications: { toolsListChanged: true } });
      const { response, request } = await neglect(slow.url, "POST", modernHeaders(again), JSON.stringify(again));
      expect(String(response.headers["content-type"])).toContain("text/event-stream");
      request.destroy();
    } finally {
      await slow.close();
    }
  });

  it("a listen filter with 50,000 resource URIs gets -32602 naming maxSubscriptions; no stream, others served", async () => {
    const server = await startHostile(host);
    const uris = Array.from({ length: 50_000 }, (_, i) => `items://${i}`);
    const listen = modern("subscriptions/listen", { notifications: { resourceSubscriptions: uris } });
    const error = expectRefused(await postModern(server.url, listen), 200, -32602, /maxSubscriptions \(1000\)/);
    expect(error.data).toEqual({ limit: "maxSubscriptions", max: 1000 });
    expect(server.handler.engine.services.listens.streams.size).toBe(0);
    await expectStillServes(server.url, server);
    await server.close();
  });

  it("a listen naming one URI 300,000 times holds it once", async () => {
    const server = await startHostile(host);
    const uris = Array.from({ length: 300_000 }, () => "items://1");
    const listen = modern("subscriptions/listen", { notifications: { resourceSubscriptions: uris } });
    const response = await fetch(server.url, {
      method: "POST",
      headers: modernHeaders(listen),
      body: JSON.stringify(listen),
    });
    expect(response.headers.get("content-type")).toContain("text/event-stream");
    const reader = response.body!.getReader();
    const decoder = new TextDecoder();
    let text = "";
    while (!text.includes("\n\n")) {
      const { done, value } = await reader.read();
      if (done) break;
      text += decoder.decode(value, { stream: true });
    }
    expect(text).toContain('"resourceSubscriptions":["items://1"]}');
    await reader.cancel();
    expect(await waitFor(() => server.handler.engine.services.listens.streams.size === 0)).toBe(true);
    await server.close();
  });

  it("a listen with a 1 MB URI, or URIs no resource serves, is refused before any stream opens", async () => {
    const server = await startHostile(host);
    const huge = `items://${"x".repeat(1024 * 1024)}`;
    const long = modern("subscriptions/listen", { notifications: { resourceSubscriptions: ["items://1", huge] } });
    const error = expectRefused(await postModern(server.url, long), 200, -32602, /maxUriLength/);
    expect(error.data).toEqual({ limit: "maxUriLength", max: 16_384 });
    const strangers = Array.from({ length: 1000 }, (_, i) => `nothing://${i}`);
    const unknown = modern("subscriptions/listen", { notifications: { resourceSubscriptions: strangers } });
    const notFound = expectRefused(await postModern(server.url, unknown), 200, -32602, /Resource not found/);
    expect(notFound.data).toEqual({ uri: "nothing://0" });
    expect(server.handler.engine.services.listens.streams.size).toBe(0);
    await expectStillServes(server.url, server);
    await server.close();
  });
});
