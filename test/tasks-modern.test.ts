/**
 * The tasks extension on the 2026-07-28 wire (SEP-2663), over real HTTP on h3 v2 and h3 v1: the
 * extension advertised and opted into per request, the flat CreateTaskResult stored before it is
 * sent, `tasks/get` inlining the result or error, `tasks/update` answering input requests,
 * `tasks/cancel` reaching the handler's signal, work going on after the creating connection
 * closed, MRTR rounds before a task exists, and every refusal (-32021, -32601, -32602, -32020).
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ErrorCode, McpError, defineMcpHandler, defineTool, type McpEventHandler } from "../src/index.ts";
import { tasks } from "../src/_entries/tasks.ts";
import { deferred, type Deferred } from "./helpers/deferred.ts";
import { HOSTS, startHost, type RunningHost } from "./helpers/hosts.ts";
import { nodeRequest, POST_HEADERS } from "./helpers/rpc.ts";
import { TASKS, createTask, errorOf, isTerminal, pollTask, resultOf, taskRequest } from "./helpers/task-rpc.ts";

/** What a test holds of one `wait_gate` call: the gate it opens, and what the handler saw. */
interface Gate {
  release: Deferred<string>;
  started: Deferred<string | undefined>;
  aborted: Deferred<string>;
}
const gates = new Map<string, Gate>();
function gate(name: string): Gate {
  const entry = { release: deferred<string>(), started: deferred<string | undefined>(), aborted: deferred<string>() };
  gates.set(name, entry);
  return entry;
}

const sleep = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));
const NAME = { type: "object", properties: { name: { type: "string" } }, required: ["name"] } as const;

function buildHandler(): McpEventHandler {
  return defineMcpHandler({
    name: "tasks-modern",
    version: "1.0.0",
    extensions: [tasks({ maxResultBytes: 2000, pollIntervalMs: 250 })],
    requestState: { secret: "the tasks-modern test: a secret of at least 32 bytes" },
    tools: [
      defineTool({ name: "plain", handler: () => "plain answer" }),
      defineTool({
        name: "wait_gate",
        task: "optional",
        input: { type: "object", properties: { gate: { type: "string" } }, required: ["gate"] },
        handler: async (event, { gate: name }) => {
          const mcp = event.context.mcp!;
          const entry = gates.get(String(name))!;
          mcp.signal.addEventListener("abort", () => entry.aborted.resolve(String(mcp.signal.reason)));
          await mcp.task?.setStatusMessage("waiting for the gate");
          entry.started.resolve(mcp.task?.id);
          return await entry.release.promise;
        },
      }),
      defineTool({
        name: "tool_error",
        task: "optional",
        handler: async () => {
          await sleep(5);
          throw new Error("the tool could not do it");
        },
      }),
      defineTool({
        name: "protocol_error",
        task: "optional",
        handler: async () => {
          await sleep(5);
          throw new McpError(-32050, "a protocol failure", { why: "test" });
        },
      }),
      defineTool({
        name: "too_big",
        task: "optional",
        handler: async () => {
          await sleep(5);
          return "x".repeat(5000);
        },
      }),
      defineTool({
        name: "too_big_error",
        task: "optional",
        handler: async () => {
          await sleep(5);
          throw new McpError(-32050, "a protocol failure with a large data", { blob: "x".repeat(5000) });
        },
      }),
      defineTool({
        name: "too_big_throw",
        task: "optional",
        handler: async () => {
          await sleep(5);
          throw new Error("y".repeat(5000));
        },
      }),
      defineTool({
        name: "ask_two",
        task: "optional",
        handler: async (event) => {
          const mcp = event.context.mcp!;
          await sleep(5);
          const [a, b] = await Promise.all([mcp.elicit("a", "A?", NAME), mcp.elicit("b", "B?", NAME)]);
          return `${String(a.content?.name)}+${String(b.content?.name)}`;
        },
      }),
      defineTool({
        name: "ask_then_work",
        task: "required",
        handler: async (event) => {
          const mcp = event.context.mcp!;
          const answer = await mcp.elicit("who", "Who?", NAME);
          await sleep(5);
          return `worked for ${String(answer.content?.name)}`;
        },
      }),
      defineTool({ name: "instant_required", task: "required", handler: () => "done at once" }),
      defineTool({ name: "instant_optional", task: "optional", handler: () => "answered at once" }),
    ],
  });
}

describe.each(HOSTS)("tasks on the 2026-07-28 wire on %s", (host) => {
  let server: RunningHost;
  let handler: McpEventHandler;
  beforeAll(async () => {
    handler = buildHandler();
    server = await startHost(host, handler);
  });
  afterAll(async () => {
    await server.close();
    await handler.close();
  });

  it("advertises the extension in server/discover, under capabilities.extensions only", async () => {
    const discovered = resultOf(await taskRequest(server.url, "server/discover", {}));
    const capabilities = discovered.capabilities as Record<string, Record<string, unknown>>;
    expect(capabilities.extensions?.[TASKS]).toEqual({});
    expect(capabilities.tasks).toBeUndefined();
  });

  it("answers a flat CreateTaskResult, stored before it is sent; tasks/get inlines the result", async () => {
    const entry = gate("flat");
    const created = await createTask(server.url, "wait_gate", { gate: "flat" });
    expect(Object.keys(created).sort()).toEqual(
      [
        "_meta",
        "createdAt",
        "lastUpdatedAt",
        "pollIntervalMs",
        "resultType",
        "status",
        "statusMessage",
        "taskId",
        "ttlMs",
      ].sort(),
    );
    expect(created).toMatchObject({ status: "working", ttlMs: 3_600_000, pollIntervalMs: 250 });
    expect(created.statusMessage).toBe("waiting for the gate");
    expect(String(created.taskId)).toMatch(/^[A-Za-z0-9_-]{24}$/);
    expect(new Date(String(created.createdAt)).toISOString()).toBe(created.createdAt);
    expect(await entry.started.promise).toBe(created.taskId);
    const working = resultOf(await taskRequest(server.url, "tasks/get", { taskId: created.taskId }));
    expect(working).toMatchObject({ resultType: "complete", taskId: created.taskId, status: "working" });
    expect(working).not.toHaveProperty("result");
    expect(working).not.toHaveProperty("requestState");
    entry.release.resolve("opened");
    const done = await pollTask(server.url, String(created.taskId), isTerminal);
    expect(done.status).toBe("completed");
    expect(done.result).toEqual({ resultType: "complete", content: [{ type: "text", text: "opened" }] });
    expect(done).not.toHaveProperty("error");
  });

  it("a tool error is completed with isError; a protocol error is failed with the error inline", async () => {
    const toolError = await createTask(server.url, "tool_error");
    const completed = await pollTask(server.url, String(toolError.taskId), isTerminal);
    expect(completed).toMatchObject({ status: "completed", result: { isError: true } });
    const protocolError = await createTask(server.url, "protocol_error");
    const failed = await pollTask(server.url, String(protocolError.taskId), isTerminal);
    expect(failed.status).toBe("failed");
    expect(failed.error).toEqual({ code: -32050, message: "a protocol failure", data: { why: "test" } });
    expect(failed).not.toHaveProperty("result");
  });

  it("fails a task whose result is larger than maxResultBytes", async () => {
    const created = await createTask(server.url, "too_big");
    const failed = await pollTask(server.url, String(created.taskId), isTerminal);
    expect(failed.status).toBe("failed");
    expect(failed.error).toMatchObject({ code: -32603, data: { limit: "maxResultBytes", max: 2000 } });
  });

  it("stores a thrown McpError larger than maxResultBytes as a short error saying so", async () => {
    // Another error is the tool's (an isError result): bounded as a result is.
    for (const [tool, what] of [
      ["too_big_error", "error"],
      ["too_big_throw", "result"],
    ]) {
      const created = await createTask(server.url, tool!);
      const failed = await pollTask(server.url, String(created.taskId), isTerminal);
      expect(failed.status, tool).toBe("failed");
      expect(failed.error, tool).toEqual({
        code: -32603,
        message: `The task's ${what} is larger than maxResultBytes (2000 bytes)`,
        data: { limit: "maxResultBytes", max: 2000 },
      });
    }
  });

  it("tasks/cancel aborts the running handler's signal; the task is cancelled; a second cancel acks the same", async () => {
    const entry = gate("cancel");
    const created = await createTask(server.url, "wait_gate", { gate: "cancel" });
    await entry.started.promise;
    const ack = resultOf(await taskRequest(server.url, "tasks/cancel", { taskId: created.taskId }));
    expect(Object.keys(ack).sort()).toEqual(["_meta", "resultType"]);
    expect(ack.resultType).toBe("complete");
    expect(await entry.aborted.promise).toMatch(/cancelled/);
    const task = resultOf(await taskRequest(server.url, "tasks/get", { taskId: created.taskId }));
    expect(task.status).toBe("cancelled");
    entry.release.resolve("too late");
    const again = resultOf(await taskRequest(server.url, "tasks/cancel", { taskId: created.taskId }));
    expect(again.resultType).toBe("complete");
    expect(resultOf(await taskRequest(server.url, "tasks/get", { taskId: created.taskId })).status).toBe("cancelled");
  });

  it("the work goes on after the creating connection closed", async () => {
    const entry = gate("closed");
    const headers = {
      ...POST_HEADERS,
      connection: "close",
      "mcp-protocol-version": "2026-07-28",
      "mcp-method": "tools/call",
      "mcp-name": "wait_gate",
    };
    const meta = {
      "io.modelcontextprotocol/protocolVersion": "2026-07-28",
      "io.modelcontextprotocol/clientCapabilities": { extensions: { [TASKS]: {} } },
    };
    const body = {
      jsonrpc: "2.0",
      id: 7,
      method: "tools/call",
      params: { name: "wait_gate", arguments: { gate: "closed" }, _meta: meta },
    };
    const answer = await nodeRequest(server.url, "POST", headers, JSON.stringify(body));
    const created = resultOf(answer);
    await entry.started.promise;
    // The connection is closed (Connection: close, the answer read to its end); the handler still runs.
    entry.release.resolve("finished without its connection");
    const done = await pollTask(server.url, String(created.taskId), isTerminal);
    expect(done.result).toEqual({
      resultType: "complete",
      content: [{ type: "text", text: "finished without its connection" }],
    });
    const aborted = await Promise.race([entry.aborted.promise, sleep(50).then(() => "not aborted")]);
    expect(aborted).toBe("not aborted");
  });

  it("input requests make the task input_required; tasks/update answers them one at a time", async () => {
    const created = await createTask(server.url, "ask_two");
    const taskId = String(created.taskId);
    const asking = await pollTask(server.url, taskId, (task) => Object.keys(task.inputRequests ?? {}).length === 2);
    expect(asking.status).toBe("input_required");
    expect(asking.inputRequests).toMatchObject({
      a: { method: "elicitation/create" },
      b: { method: "elicitation/create" },
    });
    const ack = resultOf(
      await taskRequest(server.url, "tasks/update", {
        taskId,
        inputResponses: { a: { action: "accept", content: { name: "Ann" } }, unknown: { action: "accept" } },
      }),
    );
    expect(Object.keys(ack).sort()).toEqual(["_meta", "resultType"]);
    const partial = resultOf(await taskRequest(server.url, "tasks/get", { taskId }));
    expect(partial.status).toBe("input_required");
    expect(Object.keys(partial.inputRequests as object)).toEqual(["b"]);
    await taskRequest(server.url, "tasks/update", {
      taskId,
      inputResponses: { b: { action: "accept", content: { name: "Bo" } } },
    });
    const done = await pollTask(server.url, taskId, isTerminal);
    expect(done).toMatchObject({ status: "completed", result: { content: [{ type: "text", text: "Ann+Bo" }] } });
  });

  it("input asked before the handler first waits is an MRTR round; the retry with the answer creates the task", async () => {
    const round = resultOf(await taskRequest(server.url, "tools/call", { name: "ask_then_work", arguments: {} }));
    expect(round.resultType).toBe("input_required");
    expect(round).not.toHaveProperty("taskId");
    expect(Object.keys(round.inputRequests as object)).toEqual(["who"]);
    const retry = resultOf(
      await taskRequest(server.url, "tools/call", {
        name: "ask_then_work",
        arguments: {},
        inputResponses: { who: { action: "accept", content: { name: "Alice" } } },
        requestState: round.requestState,
      }),
    );
    expect(retry.resultType).toBe("task");
    expect(retry).not.toHaveProperty("requestState");
    const done = await pollTask(server.url, String(retry.taskId), isTerminal);
    expect(done.result).toEqual({ resultType: "complete", content: [{ type: "text", text: "worked for Alice" }] });
  });

  it("a required tool done at once is a finished task; an optional one is answered directly", async () => {
    const created = await createTask(server.url, "instant_required");
    expect(created.status).toBe("completed");
    expect(created).not.toHaveProperty("result");
    const task = resultOf(await taskRequest(server.url, "tasks/get", { taskId: created.taskId }));
    expect(task.result).toEqual({ resultType: "complete", content: [{ type: "text", text: "done at once" }] });
    const direct = resultOf(await taskRequest(server.url, "tools/call", { name: "instant_optional", arguments: {} }));
    expect(direct).toMatchObject({ resultType: "complete", content: [{ type: "text", text: "answered at once" }] });
  });

  it("without the extension: tasks/* are -32021, a required tool -32021 with requiredCapabilities, an optional one runs plainly", async () => {
    for (const method of ["tasks/get", "tasks/update", "tasks/cancel"]) {
      const answer = await taskRequest(server.url, method, { taskId: "x", inputResponses: {} }, { extension: false });
      expect(answer.status).toBe(400);
      expect(errorOf(answer).code).toBe(ErrorCode.MissingRequiredClientCapability);
    }
    const required = await taskRequest(
      server.url,
      "tools/call",
      { name: "instant_required", arguments: {} },
      { extension: false },
    );
    expect(errorOf(required)).toMatchObject({
      code: -32021,
      data: { requiredCapabilities: { extensions: { [TASKS]: {} } } },
    });
    const entry = gate("sync");
    entry.release.resolve("synchronously");
    const plain = resultOf(
      await taskRequest(
        server.url,
        "tools/call",
        { name: "wait_gate", arguments: { gate: "sync" } },
        { extension: false },
      ),
    );
    expect(plain).toMatchObject({ resultType: "complete", content: [{ type: "text", text: "synchronously" }] });
    expect(await entry.started.promise).toBeUndefined();
  });

  it("tasks/result and tasks/list are not methods of this wire; unknown ids and a wrong Mcp-Name are refused", async () => {
    for (const method of ["tasks/result", "tasks/list"]) {
      expect(errorOf(await taskRequest(server.url, method, { taskId: "x" })).code).toBe(-32601);
    }
    for (const method of ["tasks/get", "tasks/update", "tasks/cancel"]) {
      const answer = await taskRequest(server.url, method, { taskId: "no-such-task", inputResponses: {} });
      expect(errorOf(answer)).toMatchObject({ code: -32602, message: 'Unknown task: "no-such-task"' });
    }
    const mismatch = await taskRequest(
      server.url,
      "tasks/get",
      { taskId: "abc" },
      { headers: { "mcp-name": "other" } },
    );
    expect(mismatch.status).toBe(400);
    expect(errorOf(mismatch).code).toBe(-32020);
    // A plain tool ignores a legacy `task` param.
    const plain = resultOf(
      await taskRequest(server.url, "tools/call", { name: "plain", arguments: {}, task: { ttl: 1 } }),
    );
    expect(plain.resultType).toBe("complete");
  });
});

describe("tasks on a Worker (the fetch entry)", () => {
  it("hands the task's work to the platform's waitUntil, which settles once the task is stored as done", async () => {
    const { defineMcpFetchHandler } = await import("../src/index.ts");
    const release = deferred<string>();
    const worker = defineMcpFetchHandler({
      name: "worker",
      version: "1.0.0",
      extensions: [tasks()],
      tools: [defineTool({ name: "later", task: "optional", handler: () => release.promise })],
    });
    const kept: Promise<unknown>[] = [];
    const ctx = { waitUntil: (work: Promise<unknown>) => void kept.push(work) };
    const call = (method: string, params: Record<string, unknown>, name: string) =>
      worker.fetch(
        new Request("http://worker.example/mcp", {
          method: "POST",
          headers: { ...POST_HEADERS, "mcp-protocol-version": "2026-07-28", "mcp-method": method, "mcp-name": name },
          body: JSON.stringify({
            jsonrpc: "2.0",
            id: 1,
            method,
            params: {
              ...params,
              _meta: {
                "io.modelcontextprotocol/protocolVersion": "2026-07-28",
                "io.modelcontextprotocol/clientCapabilities": { extensions: { [TASKS]: {} } },
              },
            },
          }),
        }),
        {},
        ctx,
      );
    const response = await call("tools/call", { name: "later", arguments: {} }, "later");
    const text = await response.text();
    const created = JSON.parse(text.includes("data:") ? text.slice(text.indexOf("{")) : text) as {
      result: { taskId: string };
    };
    expect(kept).toHaveLength(1);
    release.resolve("done on the Worker");
    await kept[0];
    const got = await call("tasks/get", { taskId: created.result.taskId }, created.result.taskId);
    expect(((await got.json()) as { result: Record<string, unknown> }).result).toMatchObject({
      status: "completed",
      result: { content: [{ type: "text", text: "done on the Worker" }] },
    });
    await worker.close();
  });
});

describe.each(HOSTS)("the 2.x SDK client, which does not declare the tasks extension, on %s", (host) => {
  let server: RunningHost;
  let handler: McpEventHandler;
  beforeAll(async () => {
    handler = buildHandler();
    server = await startHost(host, handler);
  });
  afterAll(async () => {
    await server.close();
    await handler.close();
  });

  it("gets a plain result from an optional task tool and -32021 naming the extension from a required one", async () => {
    const { connectModern, MODERN_MODES } = await import("./helpers/modern-clients.ts");
    const connection = await connectModern(server.url, MODERN_MODES[0]!);
    try {
      const entry = gate("sdk");
      entry.release.resolve("plain for the SDK");
      const plain = await connection.client.callTool({ name: "wait_gate", arguments: { gate: "sdk" } });
      expect(plain.content).toEqual([{ type: "text", text: "plain for the SDK" }]);
      expect(await entry.started.promise).toBeUndefined();
      const refused = await connection.client.callTool({ name: "instant_required", arguments: {} }).then(
        () => undefined,
        (error: { code?: number; data?: unknown }) => error,
      );
      expect(refused).toMatchObject({ code: -32021, data: { requiredCapabilities: { extensions: { [TASKS]: {} } } } });
    } finally {
      await connection.close();
    }
  });
});
