/**
 * Tasks on Durable Objects (mcp-h3/cloudflare) in real workerd, offline, in both wires: the Worker
 * builds its handler anew for every request, and workerd is restarted (SIGKILL) where a case says.
 * A task's work runs in the object, handed to its `waitUntil`, and runs on past its request with
 * no client connected (compatibility date 2026-11-17); a task whose work died with a restart is
 * failed by its lease, by the object's alarm, with no request to read it and while work of the new
 * life runs, and a listen stream hears it; the alarm runs once for it (the fixture counts its runs).
 */
import { describe, expect, it } from "vitest";
import { finalOf, openTaskSession } from "./helpers/legacy-task-rpc.ts";
import { createTask, isTerminal, listenForTasks, pollTask, resultOf, taskRequest } from "./helpers/task-rpc.ts";
import { durableMcpForFile } from "./helpers/durable-mcp.ts";

/** The fixture's `leaseMs`: long enough for a restart of workerd under load to fit in it. */
const LEASE_MS = 8_000;

const fixture = durableMcpForFile();
const mcpUrl = fixture.mcpUrl;

const textOf = (result: unknown): string | undefined =>
  (result as { content?: { text?: string }[] }).content?.[0]?.text;

describe("modern tasks on a Durable Object", () => {
  it("a task created in one request is read, and completes, through others", async () => {
    const created = await createTask(mcpUrl(), "slow", { ms: 500 });
    const taskId = created.taskId as string;
    const done = await pollTask(mcpUrl(), taskId, isTerminal);
    expect(done.status).toBe("completed");
    expect(textOf(done.result)).toBe("slept 500");
  }, 30_000);

  it("work longer than the object's idle time runs to its end with no request or client meanwhile", async () => {
    // workerd evicts an object idle for 10 s; no request reaches this one for 12 s.
    const created = await createTask(mcpUrl(), "slow", { ms: 12_000 });
    await new Promise((resolve) => setTimeout(resolve, 13_000));
    const task = resultOf(await taskRequest(mcpUrl(), "tasks/get", { taskId: created.taskId }));
    expect(task.status).toBe("completed");
    expect(textOf(task.result)).toBe("slept 12000");
  }, 40_000);

  it("cancel from another request stops the work", async () => {
    const created = await createTask(mcpUrl(), "forever");
    resultOf(await taskRequest(mcpUrl(), "tasks/cancel", { taskId: created.taskId }));
    const task = await pollTask(mcpUrl(), created.taskId as string, isTerminal);
    expect(task.status).toBe("cancelled");
  }, 30_000);

  it("a task whose work died with a restart is failed at its lease, unread, while a task of the new life runs, by one alarm", async () => {
    const createdAt = Date.now();
    const orphan = (await createTask(mcpUrl(), "forever")).taskId as string;

    await fixture.worker().restart();

    const { stream } = await listenForTasks(mcpUrl(), "anonymous", [orphan]);
    expect(stream, "listen answered with a stream").toBeDefined();
    // The object's alarm fails the orphan once its lease ran out, with no read of it. Opened while
    // the lease still ran: the listen's own read of the task did not fail it.
    // Work of the new life, running (its lease renewed) all along the orphan's lease and after it.
    const running = (await createTask(mcpUrl(), "forever")).taskId as string;
    expect(Date.now() - createdAt, "workerd restarted within the orphan's lease").toBeLessThan(LEASE_MS);
    const failed = await stream!.next(/"failed"/, LEASE_MS + 10_000);
    expect(JSON.parse(failed.data).params).toMatchObject({ taskId: orphan, status: "failed" });
    stream!.close();

    const read = await taskRequest(mcpUrl(), "tasks/get", { taskId: running });
    expect(resultOf(read).status, "the new life's task still runs").toBe("working");
    // The orphan's lease is the only thing due in this life: one alarm fails it (a second, should the
    // first wake a millisecond early). An alarm that woke for the running task's lease fired back to back.
    expect(Number(read.headers.get("x-alarm-runs")), "alarms run in this life").toBeLessThanOrEqual(2);
    resultOf(await taskRequest(mcpUrl(), "tasks/cancel", { taskId: running }));
    const task = resultOf(await taskRequest(mcpUrl(), "tasks/get", { taskId: orphan }));
    expect(task.status).toBe("failed");
  }, 60_000);
});

describe("legacy tasks on a Durable Object", () => {
  it("a task created in a session is read after a restart, and tasks/result waits for its end", async () => {
    const session = await openTaskSession(mcpUrl());
    const created = finalOf(
      await session.rpc("tools/call", { name: "slow", arguments: { ms: 1_500 }, task: { ttl: 60_000 } }),
    );
    const taskId = (created.result as { task: { taskId: string } }).task.taskId;

    const read = finalOf(await session.rpc("tasks/get", { taskId }));
    expect((read.result as { status: string }).status).toBe("working");
    const result = finalOf(await session.rpc("tasks/result", { taskId }));
    expect(textOf(result.result)).toBe("slept 1500");

    await fixture.worker().restart();

    const after = finalOf(await session.rpc("tasks/get", { taskId }));
    expect((after.result as { status: string }).status).toBe("completed");
    const listed = finalOf(await session.rpc("tasks/list", {}));
    expect((listed.result as { tasks: { taskId: string }[] }).tasks.map((task) => task.taskId)).toContain(taskId);
  }, 30_000);
});
