/**
 * A task's outcome is stored even when its store fails for a moment, and a task whose outcome the
 * store keeps refusing fails saying so (issue 32, item 9), over real HTTP (the 2026-07-28 wire) on
 * the memory store wrapped to refuse chosen writes: the final write is tried again with backoff,
 * the lease renewed meanwhile, its failures counted as one incident; after a lease of refusals the task is
 * failed with the reason, not left for a reader to fail as if its instance had gone away.
 */
import { afterEach, describe, expect, it } from "vitest";
import { defineMcpHandler, defineTool } from "../src/index.ts";
import { MemoryTaskStore, tasks } from "../src/_entries/tasks.ts";
import type { TaskChange, TaskState } from "../src/types/tasks.ts";
import { startHost } from "./helpers/hosts.ts";
import { guardProcess } from "./helpers/process-guard.ts";
import { createTask, isTerminal, pollTask } from "./helpers/task-rpc.ts";

guardProcess();

/** The memory store, whose `update` rejects while `refuse` says so (a store away, or refusing one write). */
class RefusingStore extends MemoryTaskStore {
  refuse: (change: TaskChange) => boolean = () => false;
  refused = 0;
  override async update(taskId: string, change: TaskChange, now: number): Promise<TaskState | undefined> {
    if (this.refuse(change)) {
      this.refused++;
      throw new Error("The client is offline");
    }
    return super.update(taskId, change, now);
  }
}

const LEASE_MS = 600;

const closing: (() => Promise<unknown>)[] = [];
afterEach(async () => {
  for (const close of closing.splice(0).reverse()) await close();
});

async function serve(store: RefusingStore) {
  const handler = defineMcpHandler({
    name: "outcome-retry",
    version: "1.0.0",
    tools: [
      defineTool({
        name: "answers",
        task: "required",
        handler: async () => {
          await new Promise((resolve) => setTimeout(resolve, 20));
          return "the answer";
        },
      }),
    ],
    extensions: [tasks({ store, leaseMs: LEASE_MS, pollIntervalMs: 20 })],
  });
  const server = await startHost("h3-v2", handler);
  closing.push(
    () => store.close(),
    () => handler.close(),
    () => server.close(),
  );
  return { url: server.url, handler };
}

const isOutcome = (change: TaskChange): boolean => change.status === "completed";

describe("a task's outcome against a failing store", () => {
  it("is written once the store takes it again, within its lease; one incident counted", async () => {
    const store = new RefusingStore();
    const { url, handler } = await serve(store);
    // Every write fails for 400 ms (the outcome's, and the lease renewals'), then the store is back.
    const back = Date.now() + 400;
    store.refuse = () => Date.now() < back;
    const { taskId } = await createTask(url, "answers");
    const task = await pollTask(url, String(taskId), isTerminal);
    expect(task.status, JSON.stringify(task)).toBe("completed");
    expect(task.result).toMatchObject({ content: [{ type: "text", text: "the answer" }] });
    // Tried again several times, counted once (a lease renewal refused meanwhile counts once more).
    expect(store.refused).toBeGreaterThan(2);
    expect(handler.incidents.background_failure).toBeLessThanOrEqual(2);
    expect(handler.incidents.background_failure).toBeLessThan(store.refused);
  });

  it("fails with a reason that says so when the store refuses the outcome for a whole lease", async () => {
    const store = new RefusingStore();
    const { url } = await serve(store);
    store.refuse = isOutcome;
    const { taskId } = await createTask(url, "answers");
    const task = await pollTask(url, String(taskId), isTerminal);
    expect(task.status).toBe("failed");
    expect((task.error as { message: string }).message).toBe(
      "The task finished, but its outcome could not be stored within its lease (The client is offline)",
    );
  });
});
