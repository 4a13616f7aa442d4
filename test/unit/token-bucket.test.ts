/**
 * `createTokenBucket`: bursts, refill, Retry-After, the bound on keys, and a clock that goes back; all on a fake
 * clock passed as `now`, so nothing here depends on how fast the machine is.
 */
import { describe, expect, it } from "vitest";
import { createTokenBucket, type TokenBucketOptions } from "../../src/index.ts";

/** A bucket on a fake clock that starts at `start` ms and moves only when told. */
function onFakeClock(options: Omit<TokenBucketOptions, "now">, start = 1_000_000) {
  let time = start;
  let reads = 0;
  const limiter = createTokenBucket({
    ...options,
    now: () => {
      reads++;
      return time;
    },
  });
  return {
    limiter,
    advance: (ms: number) => void (time += ms),
    reads: () => reads,
  };
}

/** How many `take`s in a row succeed for `key` (stops at `limit`). */
function takesUntilRefused(take: (key: string) => { ok: boolean }, key: string, limit = 1000): number {
  let taken = 0;
  while (taken < limit && take(key).ok) taken++;
  return taken;
}

describe("createTokenBucket", () => {
  it("lets a new key burst up to capacity, then refuses with the time until one token is back", () => {
    const { limiter } = onFakeClock({ capacity: 3, refillPerSecond: 0.5, maxKeys: 10 });
    expect(takesUntilRefused(limiter.take, "alice")).toBe(3);
    expect(limiter.take("alice")).toEqual({ ok: false, retryAfterSeconds: 2 });
  });

  it("refills at the configured rate, and a refused take costs nothing", () => {
    const { limiter, advance } = onFakeClock({ capacity: 2, refillPerSecond: 5, maxKeys: 10 });
    expect(takesUntilRefused(limiter.take, "alice")).toBe(2);
    advance(199);
    expect(limiter.take("alice").ok).toBe(false);
    advance(1); // 200 ms at 5 per second: exactly one token, not eaten by the refusal before
    expect(limiter.take("alice")).toEqual({ ok: true });
    expect(limiter.take("alice").ok).toBe(false);
  });

  it("never holds more than capacity, however long a key waits", () => {
    const { limiter, advance } = onFakeClock({ capacity: 4, refillPerSecond: 10, maxKeys: 10 });
    limiter.take("alice");
    advance(3_600_000);
    expect(takesUntilRefused(limiter.take, "alice")).toBe(4);
  });

  it("rounds Retry-After up to whole seconds, at least 1", () => {
    const { limiter, advance } = onFakeClock({ capacity: 1, refillPerSecond: 0.25, maxKeys: 10 });
    limiter.take("alice");
    expect(limiter.take("alice")).toEqual({ ok: false, retryAfterSeconds: 4 });
    advance(3_500);
    expect(limiter.take("alice")).toEqual({ ok: false, retryAfterSeconds: 1 });
    const fast = onFakeClock({ capacity: 1, refillPerSecond: 1000, maxKeys: 10 }).limiter;
    fast.take("bob");
    expect(fast.take("bob")).toEqual({ ok: false, retryAfterSeconds: 1 });
  });

  it("keeps each key's bucket apart", () => {
    const { limiter } = onFakeClock({ capacity: 1, refillPerSecond: 1, maxKeys: 10 });
    expect(limiter.take("alice").ok).toBe(true);
    expect(limiter.take("alice").ok).toBe(false);
    expect(limiter.take("bob").ok).toBe(true);
  });

  it("takes a larger cost at once, and refuses one it cannot cover without taking any", () => {
    const { limiter } = onFakeClock({ capacity: 5, refillPerSecond: 1, maxKeys: 10 });
    expect(limiter.take("alice", 3).ok).toBe(true);
    expect(limiter.take("alice", 3)).toEqual({ ok: false, retryAfterSeconds: 1 });
    expect(limiter.take("alice", 2).ok).toBe(true);
  });

  it("refuses a cost it could never cover, or not a number, as a programming error", () => {
    const { limiter } = onFakeClock({ capacity: 5, refillPerSecond: 1, maxKeys: 10 });
    expect(() => limiter.take("alice", 6)).toThrow(RangeError);
    expect(() => limiter.take("alice", Number.NaN)).toThrow(RangeError);
    expect(() => limiter.take("alice", -1)).toThrow(RangeError);
    expect(limiter.size).toBe(0);
  });

  it("drops the least recently used key past maxKeys; that key returns with a full bucket", () => {
    const { limiter } = onFakeClock({ capacity: 1, refillPerSecond: 0.001, maxKeys: 2 });
    limiter.take("a");
    limiter.take("b");
    limiter.take("a"); // a is used again (refused): b is now the least recently used
    limiter.take("c");
    expect(limiter.size).toBe(2);
    expect(limiter.take("a").ok).toBe(false); // kept, still empty
    expect(limiter.take("b").ok).toBe(true); // dropped, so full again (and c is dropped now)
    expect(limiter.take("c").ok).toBe(true);
  });

  it("stays at maxKeys under a flood of new keys", () => {
    const { limiter } = onFakeClock({ capacity: 1, refillPerSecond: 1, maxKeys: 100 });
    for (let i = 0; i < 10_000; i++) limiter.take(`client-${i}`);
    expect(limiter.size).toBe(100);
    expect(limiter.take("client-9999").ok).toBe(false);
    expect(limiter.take("client-0").ok).toBe(true);
  });

  it("neither refills nor drains when the clock goes back, and refills from the latest time after", () => {
    const { limiter, advance } = onFakeClock({ capacity: 2, refillPerSecond: 1, maxKeys: 10 });
    limiter.take("alice");
    limiter.take("alice");
    advance(-60_000);
    expect(limiter.take("alice").ok).toBe(false);
    advance(60_000 + 999);
    expect(limiter.take("alice").ok).toBe(false);
    advance(1);
    expect(limiter.take("alice").ok).toBe(true);
  });

  it("forgets a key on reset", () => {
    const { limiter } = onFakeClock({ capacity: 1, refillPerSecond: 1, maxKeys: 10 });
    limiter.take("alice");
    limiter.reset("alice");
    expect(limiter.size).toBe(0);
    expect(limiter.take("alice").ok).toBe(true);
  });

  it("reads no clock when created (Workers refuse timers and time in global scope)", () => {
    const { reads, limiter } = onFakeClock({ capacity: 1, refillPerSecond: 1, maxKeys: 10 });
    expect(reads()).toBe(0);
    limiter.take("alice");
    expect(reads()).toBe(1);
  });

  it.each<[string, Partial<TokenBucketOptions>]>([
    ["a zero capacity", { capacity: 0 }],
    ["an infinite capacity", { capacity: Number.POSITIVE_INFINITY }],
    ["a negative refill", { refillPerSecond: -1 }],
    ["a refill that is not a number", { refillPerSecond: Number.NaN }],
    ["no room for a key", { maxKeys: 0 }],
    ["a fractional maxKeys", { maxKeys: 2.5 }],
  ])("refuses %s when created", (_name, override) => {
    expect(() => createTokenBucket({ capacity: 1, refillPerSecond: 1, maxKeys: 1, ...override })).toThrow(RangeError);
  });
});
