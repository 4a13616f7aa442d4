/**
 * Task methods need what calling the task's tool needs, judged on the request's own token: the
 * suites of test/tasks-scopes.test.ts (memory store) and test/tasks-scopes-redis.test.ts (Redis),
 * over real HTTP in both wires. Two tokens of one subject (carol): `strong-token` holds the tool's
 * scope `admin`, `weak-token` does not (its `tools/call` is a 403). Every task method of the weak
 * token answers carol's task exactly as an unknown one (list leaves it out, a listen's
 * acknowledgement too), and changes nothing; a tool `enabled` says no to for the request likewise.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { defineMcpHandler, defineTool, type AuthIdentity, type McpEventHandler } from "../../src/index.ts";
import { tasks, type TaskStore } from "../../src/_entries/tasks.ts";
import { staticAuth } from "./auth.ts";
import { deferred, type Deferred } from "./deferred.ts";
import { startHost, type HostName, type RunningHost } from "./hosts.ts";
import { legacyError, legacyResult, openTaskSession, type LegacyTaskSession } from "./legacy-task-rpc.ts";
import type { LiveSse } from "./live-sse.ts";
import type { Answer } from "./rpc.ts";
import { createTask, errorOf, isTerminal, listenForTasks, pollTask, resultOf, taskRequest } from "./task-rpc.ts";

/** Two tokens of one subject: the stronger holds the tool's scope. */
const TOKENS: Record<string, AuthIdentity> = {
  "strong-token": { subject: "carol", scopes: ["read", "admin"] },
  "weak-token": { subject: "carol", scopes: ["read"] },
};

/** `beta_job` is enabled while this is on (its `enabled` is asked on every request). */
export const beta = { on: true };

const gates = new Map<string, Deferred<void>>();
const aborted = new Map<string, Deferred<string>>();
const gate = (key: string): Deferred<void> => gates.get(key) ?? gates.set(key, deferred()).get(key)!;
const abortOf = (key: string): Deferred<string> => aborted.get(key) ?? aborted.set(key, deferred()).get(key)!;
const NAME = { type: "object", properties: { name: { type: "string" } }, required: ["name"] } as const;

/** A task tool: asks for a name (`ask`), or waits for its gate or its cancel. */
function job(name: string, access: { scopes?: string[]; enabled?: () => boolean }) {
  return defineTool({
    name,
    task: "optional",
    ...access,
    input: {
      type: "object",
      properties: { key: { type: "string" }, ask: { type: "boolean" } },
      required: ["key"],
    },
    handler: async (event, { key, ask }) => {
      const mcp = event.context.mcp!;
      const own = String(key);
      mcp.signal.addEventListener("abort", () => abortOf(own).resolve(String(mcp.signal.reason)), { once: true });
      // Modern: the task exists from the handler's first wait on a timer.
      await new Promise((resolve) => setTimeout(resolve, 1));
      if (ask === true) {
        const answer = await mcp.elicit("name", "Name?", NAME);
        return `hello ${String(answer.content?.name)}`;
      }
      await Promise.race([gate(own).promise, abortOf(own).promise]);
      return `done ${own}`;
    },
  });
}

function handlerOn(store: TaskStore): McpEventHandler {
  return defineMcpHandler({
    name: "tasks-scopes",
    version: "1.0.0",
    auth: staticAuth({ validate: (token) => TOKENS[token] }),
    tools: [job("admin_job", { scopes: ["admin"] }), job("beta_job", { enabled: () => beta.on })],
    extensions: [tasks({ store, pollIntervalMs: 20 })],
  });
}

/** A modern listen for `taskIds` with `token`: its acknowledgement's task ids, and the open stream. */
async function listen(url: string, token: string, taskIds: string[]): Promise<{ acked: unknown; stream: LiveSse }> {
  const { stream } = await listenForTasks(url, token, taskIds);
  expect(stream).toBeDefined();
  const ack = JSON.parse((await stream!.next(/acknowledged/)).data) as {
    params: { notifications: { taskIds: unknown } };
  };
  return { acked: ack.params.notifications.taskIds, stream: stream! };
}

/** An error with the task id in its message replaced, to compare the answers for two ids. */
function masked(error: { code: number; message: string; data?: unknown }, taskId: string) {
  return { ...error, message: error.message.replace(taskId, "<id>") };
}

/** Another id of the same shape, that names no task. */
const unknownIdLike = (taskId: string): string => `${taskId.slice(0, -1)}${taskId.endsWith("A") ? "B" : "A"}`;

/** The modern answer of `method` for `taskId` with `token`, against the answer for an unknown id. */
async function expectModernUnknown(url: string, method: string, taskId: string, token: string): Promise<void> {
  const extra =
    method === "tasks/update" ? { inputResponses: { name: { action: "accept", content: { name: "M" } } } } : {};
  const other = unknownIdLike(taskId);
  const seen = errorOf(await taskRequest(url, method, { taskId, ...extra }, { token }));
  const unknown = errorOf(await taskRequest(url, method, { taskId: other, ...extra }, { token }));
  expect(masked(seen, taskId), `${method} with ${token}`).toEqual(masked(unknown, other));
  expect(seen.code).toBe(-32602);
}

/** The legacy answer of `method` for `taskId` on `session`, against the answer for an unknown id. */
async function expectLegacyUnknown(session: LegacyTaskSession, method: string, taskId: string): Promise<void> {
  const other = unknownIdLike(taskId);
  const seen = legacyError(await session.rpc(method, { taskId }));
  const unknown = legacyError(await session.rpc(method, { taskId: other }));
  expect(masked(seen, taskId), method).toEqual(masked(unknown, other));
  expect(seen.code).toBe(-32602);
}

/** The task ids of every page of a legacy session's `tasks/list`. */
async function listedIds(session: LegacyTaskSession): Promise<string[]> {
  const ids: string[] = [];
  let cursor: string | undefined;
  do {
    const page = legacyResult(await session.rpc("tasks/list", cursor === undefined ? {} : { cursor }));
    ids.push(...(page.tasks as { taskId: string }[]).map((task) => task.taskId));
    cursor = page.nextCursor as string | undefined;
  } while (cursor !== undefined);
  return ids;
}

/** A legacy task-augmented call of `name`: its task id. */
async function legacyTaskCall(session: LegacyTaskSession, name: string, key: string): Promise<string> {
  const created = legacyResult(await session.rpc("tools/call", { name, arguments: { key }, task: { ttl: 60_000 } }));
  return String(created.task.taskId);
}

/** The suites of both wires on `host`, with the task store `open()` gives (closed by the suite). */
export function taskScopeSuites(label: string, host: HostName, open: () => Promise<TaskStore>): void {
  describe(`task methods need the tool's access (${label}, ${host})`, () => {
    const tag = `${label}-${host}`;
    let store: TaskStore;
    let handler: McpEventHandler;
    let server: RunningHost;
    beforeAll(async () => {
      store = await open();
      handler = handlerOn(store);
      server = await startHost(host, handler);
    });
    afterAll(async () => {
      beta.on = true;
      await server.close();
      await handler.close();
      await store.close?.();
    });

    it("modern: the weaker token gets get, update and cancel answered as for an unknown task, and no listen of it", async () => {
      const url = server.url;
      const forbidden: Answer = await taskRequest(
        url,
        "tools/call",
        { name: "admin_job", arguments: { key: `m-${tag}` } },
        { token: "weak-token" },
      );
      expect(forbidden.status).toBe(403);
      const created = await createTask(url, "admin_job", { key: `m-${tag}`, ask: true }, { token: "strong-token" });
      const taskId = String(created.taskId);
      await pollTask(url, taskId, (task) => task.status === "input_required", { token: "strong-token" });

      for (const method of ["tasks/get", "tasks/update", "tasks/cancel"]) {
        await expectModernUnknown(url, method, taskId, "weak-token");
      }
      const weak = await listen(url, "weak-token", [taskId]);
      const strong = await listen(url, "strong-token", [taskId]);
      try {
        expect(weak.acked).toEqual([]);
        expect(strong.acked).toEqual([taskId]);
        // The weaker token's answer and cancel changed nothing: the stronger one answers it.
        const still = resultOf(await taskRequest(url, "tasks/get", { taskId }, { token: "strong-token" }));
        expect(still).toMatchObject({ status: "input_required", inputRequests: { name: {} } });
        const answer = { name: { action: "accept", content: { name: "Ann" } } };
        resultOf(await taskRequest(url, "tasks/update", { taskId, inputResponses: answer }, { token: "strong-token" }));
        const done = await pollTask(url, taskId, isTerminal, { token: "strong-token" });
        expect(done).toMatchObject({ status: "completed", result: { content: [{ type: "text", text: "hello Ann" }] } });
        expect(JSON.parse((await strong.stream.next(/"completed"/)).data).params).toMatchObject({ taskId });
        await expect(weak.stream.next(/notifications\/tasks"/, 100)).rejects.toThrow(/no an event/);
      } finally {
        weak.stream.close();
        strong.stream.close();
      }
    });

    it("modern: a task whose tool enabled says no to for the request is answered as an unknown one", async () => {
      const url = server.url;
      const key = `mb-${tag}`;
      const created = await createTask(url, "beta_job", { key }, { token: "strong-token" });
      const taskId = String(created.taskId);
      beta.on = false;
      try {
        for (const method of ["tasks/get", "tasks/update", "tasks/cancel"]) {
          await expectModernUnknown(url, method, taskId, "strong-token");
        }
        const hidden = await listen(url, "strong-token", [taskId]);
        hidden.stream.close();
        expect(hidden.acked).toEqual([]);
      } finally {
        beta.on = true;
      }
      expect(resultOf(await taskRequest(url, "tasks/get", { taskId }, { token: "strong-token" })).status).toBe(
        "working",
      );
      resultOf(await taskRequest(url, "tasks/cancel", { taskId }, { token: "strong-token" }));
      expect(await abortOf(key).promise).toMatch(/cancelled/);
    });

    it("legacy: the weaker token's session lists none of it, and gets get, result and cancel answered as unknown", async () => {
      const url = server.url;
      const key = `l-${tag}`;
      const strong = await openTaskSession(url, { token: "strong-token" });
      const other = await openTaskSession(url, { token: "strong-token" });
      const weak = await openTaskSession(url, { token: "weak-token" });
      expect((await weak.rpc("tools/call", { name: "admin_job", arguments: { key } })).status).toBe(403);
      const taskId = await legacyTaskCall(strong, "admin_job", key);

      expect(await listedIds(weak)).not.toContain(taskId);
      expect(await listedIds(other)).toContain(taskId);
      for (const method of ["tasks/get", "tasks/cancel"]) await expectLegacyUnknown(weak, method, taskId);
      expect(legacyResult(await strong.rpc("tasks/get", { taskId })).status).toBe("working");

      gate(key).resolve();
      await pollTask(url, taskId, isTerminal, { token: "strong-token" });
      // Once it is done, its result is still the stronger token's only.
      await expectLegacyUnknown(weak, "tasks/result", taskId);
      const result = legacyResult(await other.rpc("tasks/result", { taskId }));
      expect(result.content).toEqual([{ type: "text", text: `done ${key}` }]);
    });

    it("legacy: a task whose tool enabled says no to is left out of tasks/list and answered as unknown", async () => {
      const url = server.url;
      const key = `lb-${tag}`;
      const session = await openTaskSession(url, { token: "strong-token" });
      const taskId = await legacyTaskCall(session, "beta_job", key);
      beta.on = false;
      try {
        expect(await listedIds(session)).not.toContain(taskId);
        for (const method of ["tasks/get", "tasks/result", "tasks/cancel"]) {
          await expectLegacyUnknown(session, method, taskId);
        }
      } finally {
        beta.on = true;
      }
      expect(await listedIds(session)).toContain(taskId);
      expect(legacyResult(await session.rpc("tasks/cancel", { taskId })).status).toBe("cancelled");
      expect(await abortOf(key).promise).toMatch(/cancelled/);
    });
  });
}
