/**
 * Task ids drawn from the random pool (src/tasks/identity.ts) and each owner's sorted task index of
 * the memory store (src/stores/memory/task-owners.ts), whose removals mark tasks and drop the marked
 * ones together: both checked against what they must give, across pool refills and compactions.
 */
import { describe, expect, it } from "vitest";
import { OwnerIndex } from "../../src/stores/memory/task-owners.ts";
import { compareTaskPositions, type TaskPosition } from "../../src/stores/task-cursor.ts";
import { newTaskId } from "../../src/tasks/identity.ts";

/** The 18 bytes a base64url id of 24 characters encodes. */
function bytesOf(id: string): Uint8Array {
  const binary = atob(id.replaceAll("-", "+").replaceAll("_", "/"));
  return Uint8Array.from(binary, (char) => char.charCodeAt(0));
}

describe("task ids", () => {
  it("are 24 base64url characters for 18 bytes, never repeated across many pool refills", () => {
    const ids = Array.from({ length: 5_000 }, () => newTaskId());
    for (const id of ids) {
      expect(id).toMatch(/^[A-Za-z0-9_-]{24}$/);
      expect(bytesOf(id)).toHaveLength(18);
    }
    expect(new Set(ids).size).toBe(ids.length);
    // No byte of the pool is used twice: no id shares a 6-byte run with the next one.
    for (let index = 1; index < ids.length; index++) {
      const previous = bytesOf(ids[index - 1]!).slice(12);
      expect(bytesOf(ids[index]!).slice(0, 6)).not.toEqual(previous);
    }
  });

  it("use every base64url character about as often (the encoding keeps all the bits)", () => {
    const counts = new Map<string, number>();
    for (let index = 0; index < 4_000; index++) {
      for (const char of newTaskId()) counts.set(char, (counts.get(char) ?? 0) + 1);
    }
    expect(counts.size).toBe(64);
    // 96,000 characters over 64: 1,500 each expected; a lost or doubled bit would skew it by half.
    for (const count of counts.values()) expect(count).toBeGreaterThan(1_100);
  });
});

describe("OwnerIndex", () => {
  const task = (createdAt: number, taskId: string): TaskPosition => ({ createdAt, taskId });
  const all = (index: OwnerIndex<TaskPosition>, owner: string): TaskPosition[] => {
    const found: TaskPosition[] = [];
    let from: TaskPosition | undefined;
    for (;;) {
      const { tasks, more } = index.page(owner, from, 7);
      found.push(...tasks);
      if (!more) return found;
      from = tasks[tasks.length - 1];
    }
  };

  it("keeps order and counts while the oldest go first, others go from the middle and late ones come in", () => {
    const index = new OwnerIndex<TaskPosition>();
    const expected: TaskPosition[] = [];
    const add = (entry: TaskPosition): void => {
      index.add("a", entry);
      expected.push(entry);
      expected.sort(compareTaskPositions);
    };
    const remove = (entry: TaskPosition): void => {
      index.remove("a", entry);
      expected.splice(expected.indexOf(entry), 1);
    };
    for (let time = 0; time < 300; time++) add(task(time, `t${time}`));
    for (let round = 0; round < 100; round++) {
      remove(expected[0]!);
      if (round % 10 === 0) remove(expected[Math.floor(expected.length / 2)]!);
      if (round % 15 === 0) add(task(expected[0]!.createdAt + 1, `late${round}`));
      expect(index.countOf("a")).toBe(expected.length);
    }
    expect(all(index, "a")).toEqual(expected);
    // A removal of a task the index does not hold changes nothing.
    index.remove("a", task(5, "t5"));
    expect(all(index, "a")).toEqual(expected);
    // Paging from a cursor before every task held starts at the first one held.
    expect(index.page("a", task(0, "t0"), 2).tasks).toEqual(expected.slice(0, 2));
    for (const entry of expected.slice()) remove(entry); // a copy: remove() changes `expected`
    expect(index.countOf("a")).toBe(0);
    expect(index.ownerCount).toBe(0);
  });
  it("pages right past removed tasks, removed in any order, with many in one millisecond", () => {
    const index = new OwnerIndex<TaskPosition>();
    const held = new Set<TaskPosition>();
    // 40 tasks per millisecond, their ids in no order: expiry does not remove them in page order.
    for (let time = 0; time < 50; time++) {
      for (let n = 0; n < 40; n++) {
        const entry = task(time, Math.random().toString(36).slice(2));
        index.add("b", entry);
        held.add(entry);
      }
    }
    let removals = 0;
    for (const entry of [...held].sort(() => Math.random() - 0.5)) {
      if (removals++ % 3 === 2) continue;
      index.remove("b", entry);
      index.remove("b", entry); // twice: the second changes nothing
      held.delete(entry);
      if (removals % 97 === 0) {
        expect(index.countOf("b")).toBe(held.size);
        expect(all(index, "b")).toEqual([...held].sort(compareTaskPositions));
      }
    }
    expect(all(index, "b")).toEqual([...held].sort(compareTaskPositions));
    expect(index.countOf("b")).toBe(held.size);
  });
});
