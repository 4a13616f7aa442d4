/**
 * A task's lease on the real memory store, two managers sharing it as two instances do (issue 46,
 * defect 5). The owner's renewal refused while the store is away is tried again with backoff, so
 * the lease holds once the store is back (before: one try per third of the lease, the next one at
 * the lease's end, and a reader in between failed the live task). A reader that finds a live task's
 * lease lapsed probes its owner, which renews at once, and the task is not failed; readers of one
 * lapsed task share one probe. A task whose owner is gone fails, after the grace.
 */
import { afterEach, describe, expect, it } from "vitest";
import { MemoryTaskStore } from "../../src/_entries/tasks.ts";
import { TaskManager } from "../../src/tasks/manager.ts";
import { resolveTasksOptions } from "../../src/tasks/options.ts";
import { RunningTask } from "../../src/tasks/running.ts";
import type { TaskViewer } from "../../src/tasks/identity.ts";
import type { TaskChange, TaskMessage, TaskState } from "../../src/types/tasks.ts";

/** The memory store, with its writes refused while `away` (a networked store that is down). */
class FlakyStore extends MemoryTaskStore {
  away = false;
  override update(taskId: string, change: TaskChange, now: number): Promise<TaskState | undefined> {
    if (this.away) return Promise.reject(new Error("task store: update failed: the store is away"));
    return super.update(taskId, change, now);
  }
}

const stores: MemoryTaskStore[] = [];
const running: RunningTask[] = [];
afterEach(async () => {
  for (const task of running.splice(0)) task.close();
  for (const store of stores.splice(0)) await store.close();
});

function instance(store: MemoryTaskStore, leaseMs: number): { manager: TaskManager; incidents: unknown[] } {
  const incidents: unknown[] = [];
  const options = resolveTasksOptions({ store, pollIntervalMs: 60_000, leaseMs }, () => store);
  const manager = new TaskManager(options, { record: (kind, error) => incidents.push([kind, error]), own: () => {} });
  return { manager, incidents };
}

const ALICE: TaskViewer = { owner: "alice", access: { mayCallTool: () => true, mayReadResource: () => false } };

function task(taskId: string, leaseUntil: number): TaskState {
  const now = Date.now();
  return {
    taskId,
    owner: "alice",
    tool: "job",
    status: "working",
    createdAt: now,
    lastUpdatedAt: now,
    ttlMs: 60_000,
    leaseUntil,
  };
}

/** Runs `taskId` on `manager` as start.ts does: listening, stored, its lease kept. */
async function runOn(manager: TaskManager, taskId: string): Promise<RunningTask> {
  const run = new RunningTask(manager, taskId, "alice");
  running.push(run);
  manager.admit(run);
  await run.listen();
  await manager.options.store.create(task(taskId, Date.now() + manager.options.leaseMs));
  run.startLease(Date.now() + 60_000);
  return run;
}

const sleep = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));

describe("task leases", () => {
  it("a renewal refused while the store is away is tried again: the lease holds once the store is back", async () => {
    const store = new FlakyStore();
    stores.push(store);
    const owner = instance(store, 3_000);
    const startedAt = Date.now();
    const run = await runOn(owner.manager, "flaky");
    // Away over the renewals due at 1 s and 2 s, back at 2.1 s: the lease stored at the start runs out at 3 s.
    store.away = true;
    await sleep(2_100 - (Date.now() - startedAt));
    store.away = false;
    // Renewed before the stored lease runs out (old: the next try was due at 3 s, the lease's end).
    let stored = await store.get("flaky");
    while (stored!.leaseUntil! - startedAt <= 4_000 && Date.now() - startedAt < 2_950) {
      await sleep(20);
      stored = await store.get("flaky");
    }
    expect(stored?.status).toBe("working");
    expect(stored!.leaseUntil! - startedAt, "renewed after the store came back").toBeGreaterThan(4_000);
    expect(run.controller.signal.aborted).toBe(false);
    // Refused several times, recorded once.
    expect(owner.incidents).toHaveLength(1);
  });

  it("a reader finding a live task's lease lapsed probes its owner, which renews at once; readers share one probe", async () => {
    const store = new MemoryTaskStore();
    stores.push(store);
    // A lease no timer renews during the test: only the probe can.
    const owner = instance(store, 60_000);
    const reader = instance(store, 60_000);
    const run = await runOn(owner.manager, "live");
    await store.update("live", { leaseUntil: Date.now() - 1 }, Date.now());
    const probes: TaskMessage[] = [];
    const unsubscribe = await store.subscribe("live", (message) => {
      if (message.type === "lease") probes.push(message);
    });
    const reads = await Promise.all(Array.from({ length: 5 }, () => reader.manager.get("live", ALICE)));
    unsubscribe();
    for (const read of reads) {
      expect(read?.status).toBe("working");
      expect(read!.leaseUntil!).toBeGreaterThan(Date.now() + 50_000);
    }
    expect(probes).toHaveLength(1);
    expect(run.controller.signal.aborted).toBe(false);
    expect((await store.get("live"))?.status).toBe("working");
  });

  it("a task whose owner is gone fails for its lease once the grace passed with no renewal", async () => {
    const store = new MemoryTaskStore();
    stores.push(store);
    const reader = instance(store, 1_000);
    await store.create(task("orphan", Date.now() - 1));
    const since = Date.now();
    const [listed, read] = await Promise.all([
      reader.manager.list(ALICE, undefined, 10),
      reader.manager.get("orphan", ALICE),
    ]);
    // The grace is the lease when that is shorter than 2 s.
    expect(Date.now() - since).toBeGreaterThanOrEqual(990);
    expect(read).toMatchObject({ status: "failed", error: { message: expect.stringMatching(/lease ran out/) } });
    expect(listed?.tasks.map((one) => one.status)).toEqual(["failed"]);
  });
});
