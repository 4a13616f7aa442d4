/**
 * UseOrder keeps entries in exact order of last use while skipping the move of the entry already
 * at the back: checked against a plain reference list over many seeded random operations.
 */
import { describe, expect, it } from "vitest";
import { UseOrder } from "../../src/stores/use-order.ts";

interface Item {
  lastUsed: number;
}

/** A small deterministic generator (mulberry32), so a failure replays. */
function random(seed: number): () => number {
  let state = seed;
  return () => {
    state = (state + 0x6d2b79f5) | 0;
    let t = Math.imul(state ^ (state >>> 15), 1 | state);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

describe("UseOrder", () => {
  it("orders entries by last use, the back one included", () => {
    const order = new UseOrder<Item>();
    const a = { lastUsed: 0 };
    const b = { lastUsed: 0 };
    order.add("a", a);
    order.add("b", b);
    order.touch("b", b, 5); // already at the back: stays
    expect([...order.entries.keys()]).toEqual(["a", "b"]);
    expect(b.lastUsed).toBe(5);
    order.touch("a", a, 6);
    expect([...order.entries.keys()]).toEqual(["b", "a"]);
    order.delete("a"); // the back goes: the next touch must move whatever it touches
    order.add("c", { lastUsed: 7 });
    order.delete("c");
    order.touch("b", b, 8);
    expect([...order.entries.keys()]).toEqual(["b"]);
  });

  it("matches a reference list over 20,000 random operations", () => {
    const next = random(20261201);
    const order = new UseOrder<Item>();
    let reference: string[] = [];
    for (let step = 0; step < 20_000; step++) {
      const id = `s${Math.floor(next() * 12)}`;
      const roll = next();
      if (roll < 0.25) {
        order.add(id, { lastUsed: step });
        reference = [...reference.filter((other) => other !== id), id];
      } else if (roll < 0.4) {
        expect(order.delete(id)).toBe(reference.includes(id));
        reference = reference.filter((other) => other !== id);
      } else {
        const entry = order.get(id);
        if (!entry) continue;
        order.touch(id, entry, step);
        reference = [...reference.filter((other) => other !== id), id];
      }
      expect([...order.entries.keys()]).toEqual(reference);
    }
  });
});
