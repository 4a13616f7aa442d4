import { describe, expect, it } from "vitest";
import { INDEX_TOUCH_MS, IndexTouches } from "../../src/stores/redis/index-touches.ts";

describe("IndexTouches", () => {
  it("a session is due for an index write first, then not again until INDEX_TOUCH_MS has passed", () => {
    const touches = new IndexTouches();
    expect(touches.due("a", 10_000)).toBe(true);
    touches.written("a", 10_000);
    expect(touches.due("a", 10_000 + INDEX_TOUCH_MS - 1)).toBe(false);
    expect(touches.due("a", 10_000 + INDEX_TOUCH_MS)).toBe(true);
    // A clock that went back does not hold the write off.
    expect(touches.due("a", 9_000)).toBe(true);
  });

  it("a forgotten session is due again", () => {
    const touches = new IndexTouches();
    touches.written("a", 1);
    touches.forget("a");
    expect(touches.due("a", 2)).toBe(true);
  });

  it("remembers at most 10,000 sessions, forgetting the longest remembered first", () => {
    const touches = new IndexTouches();
    for (let i = 0; i <= 10_000; i++) touches.written(`s${i}`, 5);
    expect(touches.due("s0", 6)).toBe(true);
    expect(touches.due("s1", 6)).toBe(false);
    expect(touches.due("s10000", 6)).toBe(false);
    // Written again, a session counts as the newest.
    touches.written("s1", 6);
    touches.written("new", 6);
    expect(touches.due("s1", 7)).toBe(false);
    expect(touches.due("s2", 7)).toBe(true);
  });
});
