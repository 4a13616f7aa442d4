/**
 * Tasks on the 2025-11-25 wire, driven by the real 1.x SDK client's `client.experimental.tasks`
 * over real HTTP on h3 v2 and h3 v1: the capability and `execution.taskSupport`, `callToolStream`
 * with `{ task: { ttl } }`, `getTask`, the blocking `getTaskResult`, `listTasks` (paged, one's own
 * only), `cancelTask` reaching the handler's signal, the handler's progress and log lines and the
 * status notifications reaching the session with the related task, and an elicitation inside a
 * task answered by the client.
 */
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import {
  CallToolResultSchema,
  CreateTaskResultSchema,
  ElicitRequestSchema,
  LoggingMessageNotificationSchema,
  RELATED_TASK_META_KEY,
  TaskStatusNotificationSchema,
} from "@modelcontextprotocol/sdk/types.js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { defineMcpHandler, defineTool, type McpEventHandler } from "../src/index.ts";
import { tasks } from "../src/_entries/tasks.ts";
import { deferred, type Deferred } from "./helpers/deferred.ts";
import { HOSTS, startHost, type RunningHost } from "./helpers/hosts.ts";

/** What the tests release or wait on, by key. */
const gates = new Map<string, Deferred<void>>();
const reasons = new Map<string, Deferred<string>>();
const gate = (key: string): Deferred<void> => gates.get(key) ?? gates.set(key, deferred()).get(key)!;
const reason = (key: string): Deferred<string> => reasons.get(key) ?? reasons.set(key, deferred()).get(key)!;

const KEY = { type: "object", properties: { key: { type: "string" } }, required: ["key"] } as const;
const CONFIRM = { type: "object", properties: { confirm: { type: "boolean" } }, required: ["confirm"] } as const;

const tools = [
  defineTool({
    name: "gated",
    description: "Reports progress and a log line, then waits for the test to open its gate",
    task: "optional",
    input: KEY,
    handler: async (event, { key }) => {
      const mcp = event.context.mcp!;
      await mcp.task?.setStatusMessage("waiting for the gate");
      await mcp.progress(1, 2, "started");
      await mcp.info({ started: String(key) });
      await gate(String(key)).promise;
      return `opened ${String(key)} (task ${mcp.task?.id ?? "none"})`;
    },
  }),
  defineTool({
    name: "until_cancelled",
    task: "required",
    input: KEY,
    handler: async (event, { key }) => {
      const signal = event.context.mcp!.signal;
      gate(`${String(key)}-started`).resolve();
      await new Promise<void>((resolve) =>
        signal.addEventListener("abort", () => {
          reason(String(key)).resolve(String(signal.reason));
          resolve();
        }),
      );
      return "stopped";
    },
  }),
  defineTool({
    name: "confirm",
    task: "optional",
    handler: async (event) => {
      const mcp = event.context.mcp!;
      const answer = await mcp.elicit("confirm", "Go on?", CONFIRM);
      return answer.action === "accept" && answer.content?.confirm === true ? "confirmed" : "declined";
    },
  }),
  defineTool({ name: "quick", task: "optional", handler: () => "done" }),
  defineTool({ name: "plain", handler: () => "plain" }),
];

interface Connected {
  client: Client;
  logs: Record<string, unknown>[];
  statuses: { taskId: string; status: string }[];
  close(): Promise<void>;
}

async function connect(url: string, answerElicit = false): Promise<Connected> {
  const client = new Client(
    { name: "tasks-legacy-sdk", version: "1.0.0" },
    { capabilities: answerElicit ? { elicitation: {} } : {} },
  );
  const logs: Record<string, unknown>[] = [];
  const statuses: { taskId: string; status: string }[] = [];
  client.setNotificationHandler(LoggingMessageNotificationSchema, (n) => void logs.push(n.params));
  client.setNotificationHandler(TaskStatusNotificationSchema, (n) => void statuses.push(n.params));
  if (answerElicit) {
    client.setRequestHandler(ElicitRequestSchema, (request) => {
      expect(request.params._meta?.[RELATED_TASK_META_KEY]).toMatchObject({ taskId: expect.any(String) });
      return { action: "accept", content: { confirm: true } };
    });
  }
  const transport = new StreamableHTTPClientTransport(new URL(url));
  await client.connect(transport);
  return { client, logs, statuses, close: () => client.close() };
}

/** Waits until `check` holds, reading it after each turn of a few ms (a hang guard, not a timing). */
async function until(check: () => boolean): Promise<void> {
  while (!check()) await new Promise((resolve) => setTimeout(resolve, 5));
}

describe.each(HOSTS)("legacy tasks with the 1.x SDK client on %s", (host) => {
  let handler: McpEventHandler;
  let server: RunningHost;
  beforeAll(async () => {
    handler = defineMcpHandler({
      name: "tasks-legacy",
      version: "1.0.0",
      tools,
      logging: true,
      extensions: [tasks({ pollIntervalMs: 20 })],
    });
    server = await startHost(host, handler);
  });
  afterAll(async () => {
    await server.close();
    await handler.close();
  });

  it("advertises the tasks capability and each tool's execution.taskSupport", async () => {
    const { client, close } = await connect(server.url);
    expect(client.getServerCapabilities()?.tasks).toEqual({
      list: {},
      cancel: {},
      requests: { tools: { call: {} } },
    });
    const { tools: listed } = await client.listTools();
    const support = Object.fromEntries(listed.map((tool) => [tool.name, tool.execution?.taskSupport]));
    expect(support).toEqual({
      gated: "optional",
      until_cancelled: "required",
      confirm: "optional",
      quick: "optional",
      plain: "forbidden",
    });
    await close();
  });

  it("callToolStream with a task: created with its ttl, polled, then the result with the related task", async () => {
    const { client, logs, statuses, close } = await connect(server.url);
    const progress: number[] = [];
    const key = `stream-${host}`;
    const seen: string[] = [];
    let taskId = "";
    let result: Record<string, unknown> | undefined;
    const stream = client.experimental.tasks.callToolStream(
      { name: "gated", arguments: { key } },
      CallToolResultSchema,
      { task: { ttl: 120_000 }, onprogress: (p) => void progress.push(p.progress) },
    );
    for await (const message of stream) {
      seen.push(message.type);
      if (message.type === "taskCreated") {
        taskId = message.task.taskId;
        expect(message.task).toMatchObject({ status: "working", ttl: 120_000, pollInterval: 20 });
        expect(Date.parse(message.task.createdAt)).not.toBeNaN();
      }
      if (message.type === "taskStatus" && message.task.status === "working") gate(key).resolve();
      if (message.type === "result") result = message.result;
      if (message.type === "error") throw message.error;
    }
    expect(seen[0]).toBe("taskCreated");
    expect(seen.at(-1)).toBe("result");
    expect(result?.content).toEqual([{ type: "text", text: `opened ${key} (task ${taskId})` }]);
    expect((result?._meta as Record<string, unknown> | undefined)?.[RELATED_TASK_META_KEY]).toEqual({ taskId });
    // The handler's progress and log line reached the session, the log line marked with the task.
    await until(() => progress.length > 0 && logs.length > 0 && statuses.some((s) => s.status === "completed"));
    expect(progress).toEqual([1]);
    expect(logs[0]).toMatchObject({ level: "info", data: { started: key } });
    expect((logs[0]!._meta as Record<string, unknown>)[RELATED_TASK_META_KEY]).toEqual({ taskId });
    expect(statuses).toContainEqual(expect.objectContaining({ taskId, status: "completed" }));
    await close();
  });

  it("getTask shows the status message; getTaskResult blocks until the task ends", async () => {
    const { client, close } = await connect(server.url);
    const key = `blocking-${host}`;
    const created = await client.request(
      { method: "tools/call", params: { name: "gated", arguments: { key }, task: { ttl: 60_000 } } },
      CreateTaskResultSchema,
    );
    const taskId = created.task.taskId;
    const task = await client.experimental.tasks.getTask(taskId);
    expect(task).toMatchObject({ taskId, status: "working", ttl: 60_000 });
    let settled = false;
    const pending = client.experimental.tasks.getTaskResult(taskId, CallToolResultSchema).then((value) => {
      settled = true;
      return value;
    });
    // Still blocked after the task was read again: only the gate ends it.
    const again = await client.experimental.tasks.getTask(taskId);
    expect(again.statusMessage).toBe("waiting for the gate");
    expect(settled).toBe(false);
    gate(key).resolve();
    const result = await pending;
    expect(result.content).toEqual([{ type: "text", text: `opened ${key} (task ${taskId})` }]);
    expect((await client.experimental.tasks.getTask(taskId)).status).toBe("completed");
    await close();
  });

  it("listTasks pages through one's own tasks only", async () => {
    const mine = await connect(server.url);
    const other = await connect(server.url);
    const ids: string[] = [];
    for (let index = 0; index < 25; index++) {
      const stream = mine.client.experimental.tasks.callToolStream(
        { name: "quick", arguments: {} },
        CallToolResultSchema,
        {
          task: { ttl: 60_000 },
        },
      );
      for await (const message of stream) if (message.type === "taskCreated") ids.push(message.task.taskId);
    }
    const first = await mine.client.experimental.tasks.listTasks();
    expect(first.tasks).toHaveLength(20);
    expect(first.nextCursor).toEqual(expect.any(String));
    const second = await mine.client.experimental.tasks.listTasks(first.nextCursor);
    expect(second.nextCursor).toBeUndefined();
    const listed = [...first.tasks, ...second.tasks].map((task) => task.taskId);
    expect(listed).toEqual(ids);
    expect((await other.client.experimental.tasks.listTasks()).tasks).toEqual([]);
    await Promise.all([mine.close(), other.close()]);
  });

  it("cancelTask reaches the handler's signal; a second cancel gets -32602", async () => {
    const { client, statuses, close } = await connect(server.url);
    const key = `cancel-${host}`;
    const stream = client.experimental.tasks.callToolStream(
      { name: "until_cancelled", arguments: { key } },
      CallToolResultSchema,
      { task: { ttl: 60_000 } },
    );
    const first = await stream.next();
    expect(first.value?.type).toBe("taskCreated");
    const taskId = first.value?.type === "taskCreated" ? first.value.task.taskId : "";
    await gate(`${key}-started`).promise;
    const cancelled = await client.experimental.tasks.cancelTask(taskId);
    expect(cancelled).toMatchObject({ taskId, status: "cancelled" });
    expect(await reason(key).promise).toMatch(/cancelled/);
    await expect(client.experimental.tasks.cancelTask(taskId)).rejects.toMatchObject({
      code: -32602,
      message: expect.stringContaining("already in terminal status 'cancelled'"),
    });
    const rest: string[] = [];
    for await (const message of stream) rest.push(message.type);
    expect(rest.at(-1)).toBe("error");
    await until(() => statuses.some((s) => s.taskId === taskId && s.status === "cancelled"));
    await close();
  });

  it("an elicitation inside a task goes through tasks/result and is answered by the client", async () => {
    const { client, statuses, close } = await connect(server.url, true);
    const stream = client.experimental.tasks.callToolStream({ name: "confirm", arguments: {} }, CallToolResultSchema, {
      task: { ttl: 60_000 },
    });
    let result: Record<string, unknown> | undefined;
    for await (const message of stream) {
      if (message.type === "result") result = message.result;
      if (message.type === "error") throw message.error;
    }
    expect(result?.content).toEqual([{ type: "text", text: "confirmed" }]);
    await until(() => statuses.some((s) => s.status === "completed"));
    expect(statuses.map((s) => s.status)).toContain("input_required");
    await close();
  });
});
