/**
 * The task manager's interface for the wires (the legacy one calls it too), on the real memory
 * store: `list` is the owner's own tasks and fails those past their lease; `waitForTerminal` wakes
 * on a status change made through the manager (a status message), answers an unknown or foreign
 * task as undefined, and gives up when its caller goes; `cancel` and `deliverInput` of another
 * owner's task change nothing; a task whose tool the viewer's request may not call is answered as
 * an unknown one by every method, and listed by no one.
 */
import { afterEach, describe, expect, it } from "vitest";
import { MemoryTaskStore } from "../../src/_entries/tasks.ts";
import { TaskManager } from "../../src/tasks/manager.ts";
import { resolveTasksOptions } from "../../src/tasks/options.ts";
import type { TaskViewer } from "../../src/tasks/identity.ts";
import type { TaskState } from "../../src/types/tasks.ts";

const stores: MemoryTaskStore[] = [];
afterEach(async () => {
  for (const store of stores.splice(0)) await store.close();
});

function manager(): { manager: TaskManager; store: MemoryTaskStore; incidents: unknown[] } {
  const store = new MemoryTaskStore();
  stores.push(store);
  const incidents: unknown[] = [];
  const options = resolveTasksOptions({ store, pollIntervalMs: 60_000 }, () => store);
  const made = new TaskManager(options, { record: (kind, error) => incidents.push([kind, error]), own: () => {} });
  return { manager: made, store, incidents };
}

function task(taskId: string, owner: string, fields: Partial<TaskState> = {}): TaskState {
  const now = Date.now();
  return {
    taskId,
    owner,
    tool: "job",
    status: "working",
    createdAt: now,
    lastUpdatedAt: now,
    ttlMs: 60_000,
    ...fields,
  };
}

/** `owner`'s request, which may call the tools `tools` (default: `job`, every task's here). */
function as(owner: string, tools: readonly string[] = ["job"]): TaskViewer {
  return { owner, access: { mayCallTool: (name) => tools.includes(name), mayReadResource: () => false } };
}

describe("TaskManager", () => {
  it("list: the owner's own tasks, oldest first, a task past its lease failed; a cursor the store never gave is undefined", async () => {
    const { manager: tasks, store } = manager();
    await store.create(task("a1", "alice"));
    await store.create(task("b1", "bob"));
    await store.create(task("a2", "alice", { leaseUntil: Date.now() - 1 }));
    const page = await tasks.list(as("alice"), undefined, 10);
    expect(page?.tasks.map((entry) => [entry.taskId, entry.status])).toEqual([
      ["a1", "working"],
      ["a2", "failed"],
    ]);
    expect(await tasks.list(as("alice"), "not-a-cursor", 10)).toBeUndefined();
  });

  it("waitForTerminal: wakes on a status change made through the manager, with the task as it ended", async () => {
    const { manager: tasks, store } = manager();
    await store.create(task("t", "alice"));
    const waiting = tasks.waitForTerminal("t", as("alice"));
    // A poll interval of a minute: only the status message can wake the waiter in time.
    await tasks.update("t", { status: "completed", result: { content: [] } });
    expect(await waiting).toMatchObject({ taskId: "t", status: "completed", result: { content: [] } });
  });

  it("waitForTerminal: undefined for an unknown or foreign task; rejects when its signal aborts", async () => {
    const { manager: tasks, store } = manager();
    await store.create(task("t", "alice"));
    expect(await tasks.waitForTerminal("none", as("alice"))).toBeUndefined();
    expect(await tasks.waitForTerminal("t", as("bob"))).toBeUndefined();
    const controller = new AbortController();
    const waiting = tasks.waitForTerminal("t", as("alice"), controller.signal);
    controller.abort(new Error("the client went away"));
    await expect(waiting).rejects.toThrow("the client went away");
  });

  it("cancel and deliverInput of another owner's task change nothing", async () => {
    const { manager: tasks, store } = manager();
    await store.create(
      task("t", "alice", { status: "input_required", inputRequests: { k: { method: "roots/list" } } }),
    );
    expect(await tasks.cancel("t", as("bob"))).toBeUndefined();
    expect(await tasks.deliverInput("t", as("bob"), { k: {} })).toBeUndefined();
    expect(await store.get("t")).toMatchObject({
      status: "input_required",
      inputRequests: { k: { method: "roots/list" } },
    });
    const cancelled = await tasks.cancel("t", as("alice"));
    expect(cancelled?.status).toBe("cancelled");
    expect((await tasks.cancel("t", as("alice")))?.status).toBe("cancelled");
  });

  it("a task whose tool the request may not call is unknown to get, cancel, deliverInput and waitForTerminal, and unlisted", async () => {
    const { manager: tasks, store } = manager();
    const asking = { status: "input_required", inputRequests: { k: { method: "roots/list" } } } as const;
    await store.create(task("t", "alice", { tool: "admin", ...asking }));
    await store.create(task("u", "alice"));
    const { tool: _none, ...toolless } = task("v", "alice");
    await store.create(toolless as TaskState);
    const weak = as("alice", ["job"]);
    expect(await tasks.get("t", weak)).toBeUndefined();
    expect(await tasks.waitForTerminal("t", weak)).toBeUndefined();
    expect(await tasks.cancel("t", weak)).toBeUndefined();
    expect(await tasks.deliverInput("t", weak, { k: {} })).toBeUndefined();
    expect((await tasks.list(weak, undefined, 10))?.tasks.map((entry) => entry.taskId)).toEqual(["u"]);
    // Nothing changed; the request that may call the tool sees it all, but never a task without a tool.
    expect(await store.get("t")).toMatchObject({ status: "input_required", inputRequests: { k: {} } });
    const strong = as("alice", ["job", "admin"]);
    expect((await tasks.get("t", strong))?.status).toBe("input_required");
    expect(await tasks.get("v", strong)).toBeUndefined();
    expect((await tasks.list(strong, undefined, 10))?.tasks.map((entry) => entry.taskId)).toEqual(["t", "u"]);
  });

  it("ttlFor: the default without a request, the request raised to minTtlMs and cut to maxTtlMs", () => {
    const { manager: tasks } = manager();
    expect(tasks.ttlFor(undefined)).toBe(3_600_000);
    expect(tasks.ttlFor(5_000)).toBe(5_000);
    expect(tasks.ttlFor(1)).toBe(5_000);
    expect(tasks.ttlFor(4_999)).toBe(5_000);
    expect(tasks.ttlFor(10 * 3_600_000)).toBe(3_600_000);
    expect(tasks.ttlFor(-1)).toBe(3_600_000);
  });

  it("ttlFor: never longer than the store keeps a task; the floor follows a shorter maxTtlMs", () => {
    const store = new MemoryTaskStore({ maxTtlMs: 60_000 });
    stores.push(store);
    const incidents = { record: () => {}, own: () => {} };
    const kept = new TaskManager(
      resolveTasksOptions({ store, defaultTtlMs: 120_000, maxTtlMs: 120_000 }, () => store),
      incidents,
    );
    expect([kept.ttlFor(undefined), kept.ttlFor(90_000), kept.ttlFor(1)]).toEqual([60_000, 60_000, 5_000]);
    const short = new TaskManager(
      resolveTasksOptions({ store, defaultTtlMs: 2_000, maxTtlMs: 2_000 }, () => store),
      incidents,
    );
    expect([short.ttlFor(1), short.ttlFor(5_000)]).toEqual([2_000, 2_000]);
    expect(() =>
      resolveTasksOptions({ store, minTtlMs: 10_000, maxTtlMs: 5_000, defaultTtlMs: 5_000 }, () => store),
    ).toThrow(/minTtlMs must not be longer than maxTtlMs/);
  });

  it("the bounds of running handlers default to the store's caps, and are checked", () => {
    const store = new MemoryTaskStore({ maxTasks: 10, maxTasksPerOwner: 5 });
    stores.push(store);
    const resolved = resolveTasksOptions({ store }, () => store);
    expect([resolved.maxRunningTasks, resolved.maxRunningTasksPerOwner]).toEqual([10, 5]);
    const own = resolveTasksOptions({ store, maxRunningTasks: 3, maxRunningTasksPerOwner: 2 }, () => store);
    expect([own.maxRunningTasks, own.maxRunningTasksPerOwner]).toEqual([3, 2]);
    expect(() => resolveTasksOptions({ store, maxRunningTasks: 0 }, () => store)).toThrow(/maxRunningTasks/);
  });
});
