/**
 * Hostile: streams that a client opens and then neglects. A client that stops reading is cut off
 * past `maxStreamBufferBytes` (`incidents.slow_reader_closed`), so memory stays bounded; a flood of
 * `subscriptions/listen` gets at most `maxListens` streams and every slot comes back, even for a
 * listen the client dropped before it started.
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

  it("a listen filter with 50,000 resource URIs is bounded: refused or served, never a 5xx, and released", async () => {
    const server = await startHostile(host);
    const uris = Array.from({ length: 50_000 }, (_, i) => `items://${i}`);
    const listen = modern("subscriptions/listen", { notifications: { resourceSubscriptions: uris } });
    const { response, request } = await neglect(server.url, "POST", modernHeaders(listen), JSON.stringify(listen));
    expect(response.statusCode).toBeLessThan(500);
    if (!String(response.headers["content-type"]).includes("text/event-stream")) {
      response.resume();
      const chunks: Buffer[] = [];
      response.on("data", (chunk: Buffer) => chunks.push(chunk));
      await new Promise((resolve) => response.on("end", resolve));
      expectRefused(
        {
          status: response.statusCode!,
          headers: new Headers({ "content-type": "application/json" }),
          text: Buffer.concat(chunks).toString(),
          json: JSON.parse(Buffer.concat(chunks).toString()),
          events: [],
        },
        200,
        -32602,
        /max/,
      );
    }
    request.destroy();
    expect(await waitFor(() => server.handler.engine.services.listens.streams.size === 0)).toBe(true);
    await expectStillServes(server.url, server);
    await server.close();
  });
});
