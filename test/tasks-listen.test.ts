/**
 * `notifications/tasks` on `subscriptions/listen` streams (SEP-2663), over real HTTP on h3 v2 and
 * h3 v1, with auth on: a stream that names its owner's task ids in `notifications.taskIds` gets
 * each status change of those tasks (input_required with its requests, then completed with the
 * result inline), stamped with its subscription id, even when the change happens on another
 * instance sharing the store; another principal's task id is left out of the acknowledgement like an
 * unknown one, and gets nothing; a `taskIds` that is not a list of ids is refused (-32602).
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { defineMcpHandler, defineTool, type McpEventHandler } from "../src/index.ts";
import { MemoryTaskStore, tasks } from "../src/_entries/tasks.ts";
import { staticAuth } from "./helpers/auth.ts";
import { deferred } from "./helpers/deferred.ts";
import { HOSTS, startHost, type RunningHost } from "./helpers/hosts.ts";
import { createTask, errorOf, listenForTasks, pollTask, resultOf, taskRequest } from "./helpers/task-rpc.ts";

/** Opened by the test once its streams listen: the tool asks only then. */
let gate = deferred();
const NAME = { type: "object", properties: { name: { type: "string" } }, required: ["name"] } as const;

function instance(store: MemoryTaskStore): McpEventHandler {
  return defineMcpHandler({
    name: "tasks-listen",
    version: "1.0.0",
    auth: staticAuth(),
    extensions: [tasks({ store })],
    tools: [
      defineTool({
        name: "asks",
        task: "optional",
        handler: async (event) => {
          const mcp = event.context.mcp!;
          await gate.promise;
          const answer = await mcp.elicit("name", "Name?", NAME);
          return `hello ${String(answer.content?.name)}`;
        },
      }),
    ],
  });
}

const listen = listenForTasks;

describe.each(HOSTS)("notifications/tasks on listen streams on %s", (host) => {
  const store = new MemoryTaskStore();
  const handlers = [instance(store), instance(store)];
  let a: RunningHost;
  let b: RunningHost;
  beforeAll(async () => {
    [a, b] = await Promise.all(handlers.map((handler) => startHost(host, handler)));
  });
  afterAll(async () => {
    await Promise.all([a.close(), b.close()]);
    await Promise.all(handlers.map((handler) => handler.close()));
    await store.close();
  });

  it("a stream on B gets the status changes of alice's task running on A; bob's stream gets none of it", async () => {
    gate = deferred();
    const created = await createTask(a.url, "asks", {}, { token: "alice-token" });
    const taskId = String(created.taskId);
    const alice = (await listen(b.url, "alice-token", [taskId, "no-such-task"])).stream!;
    const bob = (await listen(b.url, "bob-token", [taskId])).stream!;
    try {
      const ack = JSON.parse((await alice.next(/acknowledged/)).data) as { params: { notifications: unknown } };
      expect(ack.params.notifications).toEqual({ taskIds: [taskId] });
      const bobAck = JSON.parse((await bob.next(/acknowledged/)).data) as { params: { notifications: unknown } };
      expect(bobAck.params.notifications).toEqual({ taskIds: [] });
      gate.resolve();

      const asking = JSON.parse((await alice.next(/input_required/)).data) as {
        method: string;
        params: Record<string, unknown>;
      };
      expect(asking.method).toBe("notifications/tasks");
      expect(asking.params).toMatchObject({ taskId, status: "input_required", inputRequests: { name: {} } });
      expect(asking.params._meta).toEqual({ "io.modelcontextprotocol/subscriptionId": expect.any(Number) });

      await pollTask(a.url, taskId, (task) => task.status === "input_required", { token: "alice-token" });
      resultOf(
        await taskRequest(
          a.url,
          "tasks/update",
          { taskId, inputResponses: { name: { action: "accept", content: { name: "Ann" } } } },
          { token: "alice-token" },
        ),
      );
      const done = JSON.parse((await alice.next(/"completed"/)).data) as { params: Record<string, unknown> };
      expect(done.params).toMatchObject({
        taskId,
        status: "completed",
        result: { content: [{ type: "text", text: "hello Ann" }] },
      });
      // Bob's stream saw nothing of alice's task (his first event after the acknowledgement would be it).
      await expect(bob.next(/notifications\/tasks/, 100)).rejects.toThrow(/no an event/);
    } finally {
      alice.close();
      bob.close();
    }
  });

  it("20 streams on one instance following one task all get its notifications (one store subscription)", async () => {
    gate = deferred();
    const created = await createTask(a.url, "asks", {}, { token: "alice-token" });
    const taskId = String(created.taskId);
    // More than the store's 16 listeners per task, all on B (the task runs on A).
    const opened = await Promise.all(Array.from({ length: 20 }, () => listen(b.url, "alice-token", [taskId])));
    const streams = opened.map((each) => each.stream);
    try {
      expect(opened.map((each) => each.answer?.text)).toEqual(Array(20).fill(undefined));
      for (const stream of streams) {
        const ack = JSON.parse((await stream!.next(/acknowledged/)).data) as { params: { notifications: unknown } };
        expect(ack.params.notifications).toEqual({ taskIds: [taskId] });
      }
      gate.resolve();
      for (const stream of streams) {
        const asking = JSON.parse((await stream!.next(/input_required/)).data) as { params: Record<string, unknown> };
        expect(asking.params).toMatchObject({ taskId, status: "input_required" });
      }
      await pollTask(a.url, taskId, (task) => task.status === "input_required", { token: "alice-token" });
      await taskRequest(
        a.url,
        "tasks/update",
        { taskId, inputResponses: { name: { action: "accept", content: { name: "Ann" } } } },
        { token: "alice-token" },
      );
      for (const stream of streams) {
        const done = JSON.parse((await stream!.next(/"completed"/)).data) as { params: Record<string, unknown> };
        expect(done.params).toMatchObject({ taskId, status: "completed" });
      }
    } finally {
      for (const stream of streams) stream?.close();
    }
  });

  it("a taskIds that is not a list of at most 100 task ids is -32602", async () => {
    for (const bad of ["x", [1], [""], ["t".repeat(129)], Array.from({ length: 101 }, (_, i) => `t${i}`)]) {
      const { answer, stream } = await listen(a.url, "alice-token", bad);
      stream?.close();
      expect(answer, JSON.stringify(bad).slice(0, 50)).toBeDefined();
      expect(errorOf(answer!).code).toBe(-32602);
    }
  });
});
