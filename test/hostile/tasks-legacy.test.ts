/**
 * Hostile: every task method of the 2025-11-25 wire (`tools/call` with `params.task`, `tasks/get`,
 * `tasks/result`, `tasks/list`, `tasks/cancel`) given what a hostile client sends: a task id or a
 * cursor of the wrong type, empty, huge or with control characters; a `params.task` or `ttl` of the
 * wrong shape; params that are not an object; an answer to the task's input request that is no
 * response, or one of the wrong shape. Each gets a short, clear JSON-RPC error, the task it names
 * is left as it was (or, for the wrong-shaped answer, fails once), and the server still serves.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { defineTool } from "../../src/index.ts";
import { tasks } from "../../src/_entries/tasks.ts";
import { HOSTS } from "../helpers/hosts.ts";
import { expectStillServes, startHostile, type HostileServer } from "../helpers/hostile.ts";
import {
  finalOf,
  legacyError,
  legacyResult,
  openTaskSession,
  type LegacyTaskSession,
} from "../helpers/legacy-task-rpc.ts";
import { liveSse } from "../helpers/live-sse.ts";
import { guardProcess } from "../helpers/process-guard.ts";
import { POST_HEADERS } from "../helpers/rpc.ts";

guardProcess();

const INVALID_PARAMS = -32602;
const NAME = { type: "object", properties: { name: { type: "string" } }, required: ["name"] } as const;

const legacyTaskTools = () => [
  defineTool({
    name: "legacy_asks",
    task: "optional",
    handler: async (event) => {
      const answer = await event.context.mcp!.elicit("name", "Name?", NAME);
      return String(answer.content?.name);
    },
  }),
];

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

describe.each(HOSTS)("hostile legacy task methods on %s", (host) => {
  let server: HostileServer;
  let session: LegacyTaskSession;
  let taskId: string;
  beforeAll(async () => {
    server = await startHostile(host, { extensions: [tasks()] }, legacyTaskTools);
    session = await openTaskSession(server.url, { capabilities: { elicitation: {} } });
    const created = legacyResult(await session.rpc("tools/call", { name: "legacy_asks", arguments: {}, task: {} }));
    taskId = String(created.task.taskId);
  });
  afterAll(() => server.close());

  const stillWaiting = async (): Promise<void> => {
    const task = legacyResult(await session.rpc("tasks/get", { taskId }));
    expect(task.status).toBe("input_required");
  };

  for (const method of ["tasks/get", "tasks/result", "tasks/cancel"]) {
    it(`${method}: a task id that is not one is -32602, said shortly`, async () => {
      for (const [label, bad] of BAD_IDS) {
        const answer = await session.rpc(method, bad === undefined ? {} : { taskId: bad });
        expect(legacyError(answer).code, label).toBe(INVALID_PARAMS);
        expect(answer.text.length, label).toBeLessThan(1000);
      }
      await stillWaiting();
    });
  }

  it("tasks/list: a cursor that is not one the server gave is -32602, said shortly", async () => {
    for (const cursor of [42, null, { c: 1 }, ["c"], "", "c".repeat(10_000), "a\u0000b", "eyJvd25lciI6ImJvYiJ9"]) {
      const answer = await session.rpc("tasks/list", { cursor });
      expect(legacyError(answer).code, JSON.stringify(cursor).slice(0, 40)).toBe(INVALID_PARAMS);
      expect(answer.text.length).toBeLessThan(1000);
    }
  });

  it("tools/call: a params.task of the wrong shape is -32602 and creates nothing", async () => {
    const before = legacyResult(await session.rpc("tasks/list")).tasks.length;
    const BAD_TASKS: unknown[] = [
      "task",
      true,
      [],
      [{ ttl: 1 }],
      { ttl: -5 },
      { ttl: "1e9" },
      { ttl: [1] },
      { ttl: { value: 1 } },
      { ttl: "x".repeat(10_000) },
    ];
    for (const task of BAD_TASKS) {
      const answer = await session.rpc("tools/call", { name: "legacy_asks", arguments: {}, task });
      expect(legacyError(answer).code, JSON.stringify(task).slice(0, 40)).toBe(INVALID_PARAMS);
      expect(answer.text.length).toBeLessThan(1000);
    }
    expect(legacyResult(await session.rpc("tasks/list")).tasks.length).toBe(before);
  });

  it("params that are not an object are refused before any task is looked up", async () => {
    for (const method of ["tasks/get", "tasks/result", "tasks/list", "tasks/cancel"]) {
      for (const params of [[], "x", 7]) {
        const answer = await session.send({ jsonrpc: "2.0", id: 5, method, params });
        expect(finalOf(answer).error?.code, `${method} ${JSON.stringify(params)}`).toBeLessThan(0);
      }
    }
    await stillWaiting();
    await expectStillServes(server.url, server);
  });

  it("a malformed answer to the task's input request is refused; a wrong-shaped one fails the task once", async () => {
    const abort = new AbortController();
    const response = await fetch(server.url, {
      method: "POST",
      headers: { ...POST_HEADERS, "mcp-session-id": session.id, "mcp-protocol-version": "2025-11-25" },
      body: JSON.stringify({ jsonrpc: "2.0", id: "r-1", method: "tasks/result", params: { taskId } }),
      signal: abort.signal,
    });
    const stream = liveSse(response, abort);
    const asked = JSON.parse((await stream.next(/elicitation\/create/, 5000)).data);
    // Not a response at all (its result is no object): refused, and the task still waits.
    const refused = await session.send({ jsonrpc: "2.0", id: asked.id, result: "yes" });
    expect(refused.status).toBeGreaterThanOrEqual(400);
    expect(refused.status).toBeLessThan(500);
    await stillWaiting();
    // A response whose content does not match the requested schema: the handler's elicit rejects.
    const wrong = { action: "accept", content: { name: 5 } };
    expect((await session.send({ jsonrpc: "2.0", id: asked.id, result: wrong })).status).toBe(202);
    const final = JSON.parse((await stream.next(/"id":"r-1"/, 5000)).data);
    expect(final.error?.code).toBe(INVALID_PARAMS);
    stream.close();
    const task = legacyResult(await session.rpc("tasks/get", { taskId }));
    expect(task).toMatchObject({ status: "failed", statusMessage: expect.stringContaining("The task failed") });
    await expectStillServes(server.url, server);
  });
});
