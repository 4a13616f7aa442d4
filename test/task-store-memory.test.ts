/**
 * The memory task store (mcp-h3/tasks' default) against the TaskStore contract, and what only it
 * shows: its sweep timer frees expired tasks without a call, its listeners are counted and
 * released, and `close` stops everything.
 */
import { describe, expect, it } from "vitest";
import { MemoryTaskStore } from "../src/stores/memory/tasks.ts";
import { SHORT_TTL_MS, describeTaskStoreContract, newTask, until } from "./helpers/task-store-contract.ts";

describeTaskStoreContract("MemoryTaskStore", (bounds) => new MemoryTaskStore(bounds));

describe("MemoryTaskStore", () => {
  it("has documented defaults", () => {
    const store = new MemoryTaskStore();
    expect([store.maxTasks, store.maxTasksPerOwner, store.maxTtlMs]).toEqual([10_000, 1_000, 3_600_000]);
  });

  it("sweeps expired tasks by its timer, with no call in between", async () => {
    const store = new MemoryTaskStore();
    for (let i = 0; i < 5; i++) await store.create(newTask(`owner-${i}`, { ttlMs: SHORT_TTL_MS }));
    await store.create(newTask("keeper"));
    expect(store.size).toBe(6);
    await until(() => store.size === 1);
    await store.close();
  });

  it("counts its listeners and releases them on unsubscribe and on close", async () => {
    const store = new MemoryTaskStore();
    const offs = await Promise.all([
      store.subscribe("a", () => {}),
      store.subscribe("a", () => {}),
      store.subscribe("b", () => {}),
    ]);
    expect(store.listenerCount).toBe(3);
    offs[0]!();
    offs[0]!();
    expect(store.listenerCount).toBe(2);
    await store.close();
    expect(store.listenerCount).toBe(0);
    offs[1]!();
    expect(store.listenerCount).toBe(0);
  });

  it("refuses calls once closed, and holds nothing then", async () => {
    const store = new MemoryTaskStore();
    const task = newTask("alice");
    await store.create(task);
    await store.close();
    expect(store.size).toBe(0);
    await expect(store.get(task.taskId)).rejects.toThrow(/closed/);
    await expect(store.create(newTask("alice"))).rejects.toThrow(/closed/);
  });

  it("refuses a record it could not index", async () => {
    const store = new MemoryTaskStore();
    await expect(store.create({ ...newTask("alice"), createdAt: 1.5 })).rejects.toThrow(TypeError);
    await expect(store.create({ ...newTask("alice"), taskId: "" })).rejects.toThrow(TypeError);
    await expect(store.create({ ...newTask("alice"), status: "done" as never })).rejects.toThrow(TypeError);
    const task = newTask("alice");
    await store.create(task);
    await expect(store.update(task.taskId, { status: "done" as never }, Date.now())).rejects.toThrow(TypeError);
    expect((await store.get(task.taskId))?.status).toBe("working");
    await store.close();
  });
});
