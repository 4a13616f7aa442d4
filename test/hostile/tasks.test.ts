/**
 * Hostile: every task method of the 2026-07-28 wire (`tasks/get`, `tasks/update`, `tasks/cancel`)
 * given what a hostile client sends: a task id of the wrong type, empty or huge; answers that are
 * not an object of objects, or too many; a capabilities claim of the wrong shape. Each gets a clear,
 * short JSON-RPC error, the task it names is left as it was, and the server still serves.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { defineTool } from "../../src/index.ts";
import { tasks } from "../../src/_entries/tasks.ts";
import { HOSTS } from "../helpers/hosts.ts";
import { expectStillServes, sentinel, startHostile, type HostileServer } from "../helpers/hostile.ts";
import { guardProcess } from "../helpers/process-guard.ts";
import { POST_HEADERS, toAnswer } from "../helpers/rpc.ts";
import { TASKS, createTask, errorOf, pollTask, resultOf, taskRequest } from "../helpers/task-rpc.ts";

guardProcess();

const INVALID_PARAMS = -32602;
const NAME = { type: "object", properties: { name: { type: "string" } }, required: ["name"] } as const;

const askingTool = () => [
  defineTool({
    name: "asks",
    task: "optional",
    handler: async (event) => {
      const mcp = event.context.mcp!;
      // Waits on a timer first (even the shortest): the ask then goes to the task, not to an MRTR round.
      await new Promise((resolve) => setTimeout(resolve, 1));
      const answer = await mcp.elicit("name", "Name?", NAME);
      return String(answer.content?.name);
    },
  }),
];

/** A task request whose `params` and `_meta` are sent exactly as given (no envelope added to params but the version). */
async function rawTaskRequest(
  url: string,
  method: string,
  params: unknown,
  capabilities: unknown = { extensions: { [TASKS]: {} } },
) {
  const meta = {
    "io.modelcontextprotocol/protocolVersion": "2026-07-28",
    "io.modelcontextprotocol/clientCapabilities": capabilities,
  };
  const withMeta =
    params !== null && typeof params === "object" && !Array.isArray(params) ? { ...params, _meta: meta } : params;
  const taskId = (params as { taskId?: unknown } | null)?.taskId;
  const headers: Record<string, string> = {
    ...POST_HEADERS,
    "mcp-protocol-version": "2026-07-28",
    "mcp-method": method,
    ...(typeof taskId === "string" && taskId !== ""
      ? { "mcp-name": /^[\x21-\x7E]+$/.test(taskId) ? taskId : sentinel(taskId) }
      : {}),
  };
  const body = JSON.stringify({ jsonrpc: "2.0", id: 1, method, params: withMeta });
  return toAnswer(await fetch(url, { method: "POST", headers, body, signal: AbortSignal.timeout(5000) }));
}

describe.each(HOSTS)("hostile task methods on %s", (host) => {
  let server: HostileServer;
  let taskId: string;
  beforeAll(async () => {
    server = await startHostile(host, { extensions: [tasks()] }, askingTool);
    taskId = String((await createTask(server.url, "asks")).taskId);
    await pollTask(server.url, taskId, (task) => task.status === "input_required");
  });
  afterAll(() => server.close());

  const BAD_IDS: [string, unknown][] = [
    ["missing", undefined],
    ["a number", 42],
    ["null", null],
    ["an object", { id: "x" }],
    ["an array", ["x"]],
    ["empty", ""],
    ["10,000 characters", "t".repeat(10_000)],
    ["control characters", "a\u0000b\nc"],
  ];

  for (const method of ["tasks/get", "tasks/update", "tasks/cancel"]) {
    it(`${method}: a task id that is not one is -32602, said shortly`, async () => {
      for (const [label, bad] of BAD_IDS) {
        const params = bad === undefined ? { inputResponses: {} } : { taskId: bad, inputResponses: {} };
        const answer = await rawTaskRequest(server.url, method, params);
        const error = errorOf(answer);
        // An empty id cannot be mirrored in Mcp-Name (an empty header is no header): the header check refuses it first.
        const expected = label === "empty" ? -32020 : INVALID_PARAMS;
        expect(error.code, `${label}: ${answer.text.slice(0, 300)}`).toBe(expected);
        expect(answer.text.length, label).toBeLessThan(1000);
      }
    });

    it(`${method}: a capabilities claim of the wrong shape is no claim (-32021)`, async () => {
      for (const capabilities of [
        { extensions: "all" },
        { extensions: [TASKS] },
        { extensions: { [TASKS]: true } },
        "x",
      ]) {
        const answer = await rawTaskRequest(server.url, method, { taskId, inputResponses: {} }, capabilities);
        const code = errorOf(answer).code;
        // A claim that is not an object at all is refused by the envelope (-32602), before any method.
        expect([-32021, INVALID_PARAMS], answer.text.slice(0, 300)).toContain(code);
      }
    });
  }

  it("tasks/update: answers that are not an object of objects, or too many, are -32602 and change nothing", async () => {
    const BAD_RESPONSES: unknown[] = [
      undefined,
      null,
      "accept",
      42,
      [{ action: "accept" }],
      { name: "accept" },
      { name: null },
      { name: [1, 2] },
      Object.fromEntries(Array.from({ length: 65 }, (_, index) => [`k${index}`, {}])),
    ];
    for (const inputResponses of BAD_RESPONSES) {
      const params = inputResponses === undefined ? { taskId } : { taskId, inputResponses };
      const answer = await rawTaskRequest(server.url, "tasks/update", params);
      expect(errorOf(answer).code, answer.text.slice(0, 300)).toBe(INVALID_PARAMS);
    }
    const task = resultOf(await taskRequest(server.url, "tasks/get", { taskId }));
    expect(task.status).toBe("input_required");
    expect(Object.keys(task.inputRequests as object)).toEqual(["name"]);
    // An answer that does not match the requested schema fails the task with a clear error, once.
    resultOf(await taskRequest(server.url, "tasks/update", { taskId, inputResponses: { name: { action: "maybe" } } }));
    const failed = await pollTask(
      server.url,
      taskId,
      (state) => state.status !== "input_required" && state.status !== "working",
    );
    expect(failed).toMatchObject({ status: "failed", error: { code: INVALID_PARAMS } });
    await expectStillServes(server.url, server);
  });

  it("params that are not an object are refused before any task is looked up", async () => {
    for (const params of [[], "x", 7]) {
      const answer = await rawTaskRequest(server.url, "tasks/get", params);
      expect(answer.status, answer.text).toBeGreaterThanOrEqual(200);
      expect(errorOf(answer).code).toBeLessThan(0);
    }
    await expectStillServes(server.url, server);
  });
});
