/**
 * The response channel and the SSE sink on their own: every path settles the reply and runs
 * `onDone` once, no operation rejects, and a sink holds at most its bound for a client that does
 * not read. The HTTP-level behaviour is covered by lifecycle-settle / lifecycle-bounds.
 */
import { describe, expect, it } from "vitest";
import { Incidents } from "../../src/http/incidents.ts";
import type { IncidentKind } from "../../src/types/incidents.ts";
import { Reply } from "../../src/http/reply.ts";
import { ResponseChannel } from "../../src/stream/channel.ts";
import type { ChannelOptions, StreamLog } from "../../src/stream/channel-options.ts";
import { SseSink } from "../../src/stream/sse.ts";

function channelWith(overrides: Partial<ChannelOptions> = {}): {
  channel: ResponseChannel;
  disconnect: AbortController;
  done: () => number;
  incidents: Incidents;
  reported: IncidentKind[];
} {
  const disconnect = new AbortController();
  let done = 0;
  const reported: IncidentKind[] = [];
  const incidents = new Incidents((kind) => void reported.push(kind));
  const channel = new ResponseChannel({
    inbound: { disconnect: disconnect.signal },
    keepAliveMs: 0,
    canStream: true,
    headers: {},
    onDone: () => void done++,
    incidents,
    ...overrides,
  });
  return { channel, disconnect, done: () => done, incidents, reported };
}

async function bodyText(reply: Reply): Promise<string> {
  if (reply.body === null || typeof reply.body === "string") return reply.body ?? "";
  return new Response(reply.body).text();
}

const failingLog: StreamLog = {
  append: () => Promise.reject(new Error("store down")),
  priming: true,
  retryMs: 1000,
};

describe("ResponseChannel", () => {
  it("goes waiting → finished with a JSON answer", async () => {
    const { channel, done } = channelWith();
    expect(channel.state).toBe("waiting");
    await channel.finish({ jsonrpc: "2.0", id: 1, result: {} });
    expect(channel.state).toBe("finished");
    const reply = (await channel.reply) as Reply;
    expect(reply.headers["content-type"]).toBe("application/json");
    expect(done()).toBe(1);
  });

  it("goes waiting → streaming → finished, the final message last", async () => {
    const { channel, done } = channelWith();
    await channel.send({ jsonrpc: "2.0", method: "notifications/progress", params: { progress: 1 } });
    expect(channel.state).toBe("streaming");
    await channel.finish({ jsonrpc: "2.0", id: 1, result: { ok: true } });
    expect(channel.state).toBe("finished");
    const text = await bodyText((await channel.reply) as Reply);
    expect(text.indexOf("notifications/progress")).toBeLessThan(text.indexOf('"ok":true'));
    expect(done()).toBe(1);
  });

  it("settles the reply of a non-resumable channel whose client left before it answered", async () => {
    const { channel, disconnect, done } = channelWith({ keepAliveMs: 0 });
    const watcher = {
      reason: undefined as unknown,
      abort(reason?: unknown) {
        this.reason = reason;
      },
    };
    channel.onClose(watcher);
    const reply = channel.reply;
    disconnect.abort();
    const settled = await Promise.race([
      Promise.resolve(reply).then(() => "settled"),
      new Promise((resolve) => setTimeout(() => resolve("pending"), 100)),
    ]);
    expect(settled).toBe("settled");
    expect(channel.state).toBe("finished");
    expect(watcher.reason).toBeInstanceOf(Error);
    await channel.finish({ jsonrpc: "2.0", id: 1, result: {} });
    expect(done()).toBe(1);
  });

  it("aborts its owner when the stream closes before the final message, not after", async () => {
    const owner = {
      aborted: 0,
      abort() {
        this.aborted++;
      },
    };
    const early = channelWith({ owner });
    await early.channel.send({ jsonrpc: "2.0", method: "notifications/message", params: {} });
    const reply = (await early.channel.reply) as Reply;
    await (reply.body as ReadableStream).cancel();
    expect(owner.aborted).toBe(1);
    expect(early.channel.state).toBe("finished");

    const late = {
      aborted: 0,
      abort() {
        this.aborted++;
      },
    };
    const normal = channelWith({ owner: late });
    await normal.channel.send({ jsonrpc: "2.0", method: "notifications/message", params: {} });
    await normal.channel.finish({ jsonrpc: "2.0", id: 1, result: {} });
    expect(late.aborted).toBe(0);
  });

  it("never rejects when its event log fails, and still delivers the final message", async () => {
    const { channel, done, reported } = channelWith({ log: failingLog });
    await expect(channel.send({ jsonrpc: "2.0", method: "notifications/message", params: {} })).resolves.toBe(
      undefined,
    );
    await expect(channel.finish({ jsonrpc: "2.0", id: 7, result: { ok: true } })).resolves.toBe(undefined);
    const text = await bodyText((await channel.reply) as Reply);
    expect(text).toContain('"id":7');
    expect(done()).toBe(1);
    expect(reported.every((kind) => kind === "background_failure")).toBe(true);
    expect(reported.length).toBeGreaterThan(0);
  });

  it("closes a resumed connection whose replay cannot be read, without rejecting", async () => {
    const { channel } = channelWith({ log: { ...failingLog, append: async () => "1" } });
    await channel.open();
    const sink = new SseSink(undefined, 0);
    await expect(channel.resume(sink, () => Promise.reject(new Error("store down")))).resolves.toBe(undefined);
    expect(sink.isClosed).toBe(true);
  });
});

describe("SseSink", () => {
  it("closes a stream nobody reads once more than its bound waits, and counts it", () => {
    const reported: IncidentKind[] = [];
    const incidents = new Incidents((kind) => void reported.push(kind));
    const sink = new SseSink(undefined, 0, { maxBufferBytes: 1000, incidents });
    let writes = 0;
    while (!sink.isClosed && writes < 10_000) {
      sink.write("x".repeat(100));
      writes++;
    }
    expect(sink.isClosed).toBe(true);
    expect(writes).toBeLessThanOrEqual(11);
    expect(reported).toEqual(["slow_reader_closed"]);
  });

  it("does not count what a replay writes against the bound", () => {
    const sink = new SseSink(undefined, 0, { maxBufferBytes: 1000 });
    const events = Array.from({ length: 50 }, (_, i) => ({ id: String(i), message: { jsonrpc: "2.0", id: i } }));
    sink.replay(events as never);
    expect(sink.isClosed).toBe(false);
    sink.write("x".repeat(500));
    expect(sink.isClosed).toBe(false);
  });

  it("sends the first write of a turn at once and the rest of the turn as one chunk after it", async () => {
    const sink = new SseSink(undefined, 0);
    const reader = sink.stream.getReader();
    const decoder = new TextDecoder();
    const next = async (): Promise<string> => decoder.decode((await reader.read()).value);
    // The constructor's ": open" comment was this turn's first write: it is queued already.
    expect(sink.queuedBytes).toBe(": open\n\n".length);
    sink.write("a\n\n");
    sink.write("b\n\n");
    expect(sink.queuedBytes).toBe(": open\n\n".length + 6);
    expect(await next()).toBe(": open\n\n");
    // The later writes of the turn arrive together once it ends.
    expect(await next()).toBe("a\n\nb\n\n");
    // A new turn: its first write goes out without waiting.
    sink.write("c\n\n");
    expect(sink.queuedBytes).toBe(3);
    expect(await next()).toBe("c\n\n");
    sink.close();
    expect((await reader.read()).done).toBe(true);
  });

  it("hands over what waits for the end of the turn when it closes", async () => {
    const sink = new SseSink(undefined, 0);
    sink.write("first\n\n");
    sink.write("last\n\n");
    sink.close();
    expect(await new Response(sink.stream).text()).toBe(": open\n\nfirst\n\nlast\n\n");
  });

  it("keeps a stream whose reader keeps up", async () => {
    const sink = new SseSink(undefined, 0, { maxBufferBytes: 1000 });
    const reader = sink.stream.getReader();
    for (let i = 0; i < 1000; i++) {
      sink.write("x".repeat(100));
      await reader.read();
    }
    expect(sink.isClosed).toBe(false);
  });
});
