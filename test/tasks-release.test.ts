/**
 * A task cancelled or expired releases at once everything the library holds for it, whatever its
 * handler does (issue 32, item 5): its store subscription, its lease timer (no more store writes),
 * its place among the handlers running here, and its handler's eventual return writes nothing.
 * Before, a handler that ignores `mcp.signal` kept its lease timer writing and its store listener
 * until it returned: once hung tasks held the store's `maxListeners`, every new task failed while
 * none was stored. Over real HTTP with legacy sessions (a `params.task.ttl` under the floor gets
 * `minTtlMs`), on a memory store wrapped to count its writes, through its public surface.
 */
import { afterEach, describe, expect, it } from "vitest";
import { defineMcpHandler, defineTool } from "../src/index.ts";
import { MemoryTaskStore, tasks } from "../src/_entries/tasks.ts";
import type { TaskChange, TaskState } from "../src/types/tasks.ts";
import { deferred } from "./helpers/deferred.ts";
import { startHost } from "./helpers/hosts.ts";
import { finalOf, legacyError, legacyResult, openTaskSession } from "./helpers/legacy-task-rpc.ts";
import { guardProcess } from "./helpers/process-guard.ts";

guardProcess();

/** The memory store, its writes counted by task (the lease renewals among them). */
class CountingStore extends MemoryTaskStore {
  readonly updates = new Map<string, number>();
  override update(taskId: string, change: TaskChange, now: number): Promise<TaskState | undefined> {
    this.updates.set(taskId, (this.updates.get(taskId) ?? 0) + 1);
    return super.update(taskId, change, now);
  }
}

/** Renewed every second: an expiring task's release must come from its expiry, not from a renewal. */
const LEASE_MS = 3_000;
const MIN_TTL_MS = 400;
const MAX_LISTENERS = 4;

const closing: (() => Promise<unknown>)[] = [];
afterEach(async () => {
  for (const close of closing.splice(0).reverse()) await close();
});

async function until(condition: () => boolean, what: string, timeoutMs = 3000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}

describe("a hung task handler is released when its task is cancelled or expires", () => {
  it("frees its listener, lease timer and running place at once; its late return writes nothing", async () => {
    const reasons = new Map<string, string>();
    const started = new Set<string>();
    const release = deferred();
    closing.push(async () => release.resolve());
    const hangs = defineTool({
      name: "hangs",
      task: "optional",
      input: { type: "object", properties: { key: { type: "string" } }, required: ["key"] },
      handler: async (event, { key }) => {
        const name = String(key);
        const signal = event.context.mcp!.signal;
        signal.addEventListener("abort", () => reasons.set(name, String((signal.reason as Error).message)));
        started.add(name);
        // Ignores its signal: only the test ends it.
        await release.promise;
        return `done ${name}`;
      },
    });
    const store = new CountingStore({ maxListeners: MAX_LISTENERS });
    const handler = defineMcpHandler({
      name: "release",
      version: "1.0.0",
      tools: [hangs],
      extensions: [
        tasks({ store, leaseMs: LEASE_MS, minTtlMs: MIN_TTL_MS, pollIntervalMs: 20, maxRunningTasks: MAX_LISTENERS }),
      ],
    });
    const server = await startHost("h3-v2", handler);
    closing.push(
      () => store.close(),
      () => handler.close(),
      () => server.close(),
    );
    const session = await openTaskSession(server.url);
    const call = (key: string, ttl: number) =>
      session.rpc("tools/call", { name: "hangs", arguments: { key }, task: { ttl } });
    const idOf = async (key: string, ttl: number): Promise<string> =>
      String(legacyResult(await call(key, ttl)).task.taskId);

    // Four hung tasks hold every listener the store has: two to cancel, two that expire at the floor.
    const [cancelA, cancelB] = [await idOf("cancel-a", 60_000), await idOf("cancel-b", 60_000)];
    const expiring = Date.now();
    const [expireA, expireB] = [await idOf("expire-a", 1), await idOf("expire-b", 1)];
    const hung = [cancelA, cancelB, expireA, expireB];
    await until(() => started.size === 4, "the four handlers to start");
    expect(store.listenerCount).toBe(MAX_LISTENERS);
    expect(finalOf(await call("one-too-many", 60_000)).error?.code).toBe(-32603);

    // A cancel releases the task's listener by the time tasks/cancel answers.
    for (const taskId of [cancelA, cancelB]) {
      expect(legacyResult(await session.rpc("tasks/cancel", { taskId })).status).toBe("cancelled");
    }
    expect(store.listenerCount).toBe(2);
    expect(reasons.get("cancel-a")).toBe("The task was cancelled (tasks/cancel)");

    // Its TTL running out releases an expiring task when it runs out, not at its next renewal or its return.
    const left = expiring + MIN_TTL_MS + 300 - Date.now();
    await until(() => store.listenerCount === 0, "the expired tasks' listeners to go", left);
    expect(reasons.get("expire-a")).toMatch(/^The task expired/);

    // No lease timer writes for any of them any more.
    const writes = hung.map((taskId) => store.updates.get(taskId) ?? 0);
    await new Promise((resolve) => setTimeout(resolve, LEASE_MS / 2));
    expect(hung.map((taskId) => store.updates.get(taskId) ?? 0)).toEqual(writes);

    // As many new tasks as the store's listeners (and the running bound) allow succeed.
    const fresh = await Promise.all(["new-a", "new-b", "new-c", "new-d"].map((key) => call(key, 60_000)));
    for (const answer of fresh) expect(legacyResult(answer).task.status).toBe("working");
    expect(store.listenerCount).toBe(MAX_LISTENERS);

    // The hung handlers return at last: nothing of theirs is written.
    release.resolve();
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(hung.map((taskId) => store.updates.get(taskId) ?? 0)).toEqual(writes);
    expect(legacyResult(await session.rpc("tasks/get", { taskId: cancelA })).status).toBe("cancelled");
    expect(legacyError(await session.rpc("tasks/get", { taskId: expireA })).code).toBe(-32602);
  });
});
