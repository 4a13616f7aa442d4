/**
 * The retention of legacy stream logs on its own: the replay window (one lazy, unref'd timer),
 * the per-session cap that never drops an open stream, and the release of everything of a session.
 */
import { afterEach, describe, expect, it, vi } from "vitest";
import { StreamRetention } from "../../src/legacy/resume/stream-retention.ts";

function retention(maxStreamsPerSession = 10) {
  const dropped: string[] = [];
  const kept = new StreamRetention({
    replayWindowMs: 1000,
    maxStreamsPerSession,
    drop: (sessionId, streamId) => void dropped.push(`${sessionId}:${streamId}`),
  });
  return { kept, dropped };
}

describe("StreamRetention", () => {
  afterEach(() => vi.useRealTimers());

  it("makes no timer until a stream finishes, drops its log after the window, then keeps no timer", () => {
    vi.useFakeTimers();
    const { kept, dropped } = retention();
    kept.opened("s", kept.logsOf("s"), "a");
    expect(kept.timerPending).toBe(false);
    kept.finished("s", "a");
    expect(kept.timerPending).toBe(true);
    vi.advanceTimersByTime(999);
    expect(dropped).toEqual([]);
    vi.advanceTimersByTime(1);
    expect(dropped).toEqual(["s:a"]);
    expect(kept.timerPending).toBe(false);
    expect(kept.sessionCount).toBe(0);
  });

  it("past the cap drops the oldest finished stream, never an open one", () => {
    const { kept, dropped } = retention(2);
    const logs = kept.logsOf("s");
    kept.opened("s", logs, "a");
    kept.opened("s", logs, "b");
    kept.opened("s", logs, "c"); // three open: nothing may go
    expect(dropped).toEqual([]);
    kept.finished("s", "b");
    expect(dropped).toEqual(["s:b"]);
    kept.finished("s", "a");
    kept.opened("s", logs, "d");
    expect(dropped).toEqual(["s:b", "s:a"]);
    kept.close();
  });

  it("forgets a session: its logs are marked ended and nothing of it waits for the timer", () => {
    vi.useFakeTimers();
    const { kept, dropped } = retention();
    const logs = kept.logsOf("s");
    kept.opened("s", logs, "a");
    kept.finished("s", "a");
    kept.forget("s");
    expect(logs.ended).toBe(true);
    expect(kept.sessionCount).toBe(0);
    vi.advanceTimersByTime(2000);
    expect(dropped).toEqual([]);
  });

  it("once closed, keeps no timer and leaves the logs in the store for other instances, tracking nothing", () => {
    vi.useFakeTimers();
    const { kept, dropped } = retention();
    kept.opened("s", kept.logsOf("s"), "a");
    kept.opened("s", kept.logsOf("s"), "b");
    kept.finished("s", "a");
    kept.close();
    expect(kept.timerPending).toBe(false);
    kept.finished("s", "b");
    expect(dropped).toEqual([]);
    expect(vi.getTimerCount()).toBe(0);
    // What still waited is dropped with its session (the engine drops the session's events).
    kept.forget("s");
    expect(kept.sessionCount).toBe(0);
  });
});
