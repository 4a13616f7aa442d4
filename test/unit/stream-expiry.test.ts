/**
 * A connection's expiry timer on its own (the HTTP behaviour is in auth-token-expiry.test.ts): one
 * timer per SSE sink at most, gone on every way the sink closes, none without an expiry, and an
 * expiry past setTimeout's signed 32-bit range reached in steps instead of at once. Timers are
 * counted with vitest's clock, the only way to see a pending (unref'ed) timer.
 */
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { SseSink } from "../../src/stream/sse.ts";
import { MAX_TIMER_MS } from "../../src/stream/expiry.ts";

describe("SseSink.closeAt", () => {
  beforeEach(() => {
    // setImmediate stays real: the sink batches its writes with it, and only the expiry is counted.
    vi.useFakeTimers({ toFake: ["setTimeout", "clearTimeout", "Date"] });
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  it("sets no timer without an expiry, and one however often it is armed", () => {
    const sink = new SseSink(undefined, 0);
    sink.closeAt(undefined);
    expect(vi.getTimerCount()).toBe(0);
    sink.closeAt(Date.now() + 60_000);
    sink.closeAt(Date.now() + 30_000);
    expect(vi.getTimerCount()).toBe(1);
    vi.advanceTimersByTime(30_000);
    expect(sink.isClosed).toBe(true);
    expect(vi.getTimerCount()).toBe(0);
  });

  const CLOSE_PATHS: [string, (sink: SseSink, disconnect: AbortController) => void | Promise<void>][] = [
    ["close()", (sink) => sink.close()],
    ["the request's disconnect", (_, disconnect) => disconnect.abort()],
    ["the reader cancelling the body", (sink) => sink.stream.cancel()],
    ["a client that does not read (the buffer bound)", (sink) => sink.write("x".repeat(2048))],
  ];

  it.each(CLOSE_PATHS)("clears the timer when the sink closes by %s", async (_, closeIt) => {
    const disconnect = new AbortController();
    const sink = new SseSink(disconnect.signal, 0, { maxBufferBytes: 1024 });
    sink.closeAt(Date.now() + 60_000);
    expect(vi.getTimerCount()).toBe(1);
    await closeIt(sink, disconnect);
    expect(sink.isClosed).toBe(true);
    expect(vi.getTimerCount()).toBe(0);
  });

  it("reaches an expiry beyond setTimeout's range in steps, and closes only then", () => {
    const sink = new SseSink(undefined, 0);
    const at = Date.now() + 2 ** 32;
    sink.closeAt(at);
    vi.advanceTimersByTime(1);
    expect(sink.isClosed).toBe(false);
    vi.advanceTimersByTime(MAX_TIMER_MS);
    expect(sink.isClosed).toBe(false);
    expect(vi.getTimerCount()).toBe(1);
    vi.advanceTimersByTime(at - Date.now() - 1);
    expect(sink.isClosed).toBe(false);
    vi.advanceTimersByTime(1);
    expect(sink.isClosed).toBe(true);
    expect(vi.getTimerCount()).toBe(0);
  });

  it("closes at the next turn when the expiry has passed already", () => {
    const sink = new SseSink(undefined, 0);
    sink.closeAt(Date.now() - 1000);
    expect(sink.isClosed).toBe(false);
    vi.advanceTimersByTime(0);
    expect(sink.isClosed).toBe(true);
  });
});
