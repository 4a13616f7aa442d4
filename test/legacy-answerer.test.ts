/**
 * Who may answer a legacy server→client request, and who hears of a task on a GET stream, when two
 * tokens stand for one subject (carol): `strong-token` holds the tools' scope `admin`, `weak-token`
 * does not. Two instances share their stores and a bus (mcp-h3/shared), so both the local path and
 * the bus path are driven, over real HTTP on h3 v2 and h3 v1:
 * - a task's question (asked on the stronger token's `tasks/result` stream) and a call's own
 *   question get no answer from the weaker token, on either instance: it is answered as an unknown
 *   id here, and changes nothing; the stronger token's answer then goes through;
 * - the ids of those requests are random, not a counter;
 * - a GET stream read with the weaker token hears no status or progress of the task, one read with
 *   the stronger token does.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  MemoryBus,
  MemoryEventStore,
  MemorySessionStore,
  defineMcpHandler,
  defineTool,
  type AuthIdentity,
} from "../src/index.ts";
import type { McpEventHandler } from "../src/handler-types.ts";
import { sessionRouting } from "../src/_entries/shared.ts";
import { MemoryTaskStore, tasks } from "../src/_entries/tasks.ts";
import { staticAuth } from "./helpers/auth.ts";
import { deferred } from "./helpers/deferred.ts";
import { HOSTS, startHost, type HostName, type RunningHost } from "./helpers/hosts.ts";
import { openPostStream, openSessionGet, postInSession, type RawSession } from "./helpers/legacy-raw.ts";
import { legacyResult, openTaskSession } from "./helpers/legacy-task-rpc.ts";
import type { LiveSse } from "./helpers/live-sse.ts";
import { pollTask } from "./helpers/task-rpc.ts";

const TOKENS: Record<string, AuthIdentity> = {
  "strong-token": { subject: "carol", scopes: ["read", "admin"] },
  "weak-token": { subject: "carol", scopes: ["read"] },
};
const NAME = { type: "object", properties: { name: { type: "string" } }, required: ["name"] } as const;
const RANDOM_ID = /^srv-[0-9a-f]{8}-[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;
const gates = new Map<string, ReturnType<typeof deferred<void>>>();
const gate = (key: string) => gates.get(key) ?? gates.set(key, deferred<void>()).get(key)!;

const tools = [
  defineTool({
    name: "admin_job",
    scopes: ["admin"],
    task: "optional",
    input: { type: "object", properties: { key: { type: "string" }, ask: { type: "boolean" } }, required: ["key"] },
    handler: async (event, { key, ask }) => {
      const mcp = event.context.mcp!;
      await mcp.progress(1, 2, "started");
      if (ask === true) {
        const answer = await mcp.elicit("name", "Name?", NAME);
        return `hello ${String(answer.content?.name)}`;
      }
      await gate(String(key)).promise;
      return `done ${String(key)}`;
    },
  }),
  defineTool({
    name: "ask_name",
    scopes: ["admin"],
    handler: async (event) => {
      const answer = await event.context.mcp!.elicit("name", "Name?", NAME);
      return `hi ${String(answer.content?.name)}`;
    },
  }),
];

/** A session of `id` as `token` presents it. */
const as = (id: string, token: string): RawSession => ({
  id,
  headers: { "mcp-session-id": id, "mcp-protocol-version": "2025-11-25", authorization: `Bearer ${token}` },
});

/** The server→client request `stream` carries next: its id. */
async function questionOn(stream: LiveSse): Promise<string> {
  const request = JSON.parse((await stream.next(/"elicitation\/create"/)).data) as { id: string };
  expect(request.id).toMatch(RANDOM_ID);
  return request.id;
}

const accept = (id: string, name: string) => ({
  jsonrpc: "2.0",
  id,
  result: { action: "accept", content: { name } },
});

function suite(host: HostName): void {
  describe(`who answers and who hears, two tokens of one subject (${host})`, () => {
    const stores = {
      sessions: new MemorySessionStore(),
      events: new MemoryEventStore(),
      bus: new MemoryBus(),
      tasks: new MemoryTaskStore(),
    };
    let handlers: McpEventHandler[];
    let servers: RunningHost[];
    let a: string;
    let b: string;
    beforeAll(async () => {
      handlers = [0, 1].map(() =>
        defineMcpHandler({
          name: "answerer",
          version: "1.0.0",
          auth: staticAuth({ validate: (token) => TOKENS[token] }),
          sessions: { store: stores.sessions },
          events: stores.events,
          bus: stores.bus,
          tools,
          extensions: [sessionRouting, tasks({ store: stores.tasks, pollIntervalMs: 20 })],
        }),
      );
      servers = await Promise.all(handlers.map((handler) => startHost(host, handler)));
      [a, b] = servers.map((server) => server.url) as [string, string];
    });
    afterAll(async () => {
      await Promise.all(servers.map((server) => server.close()));
      await Promise.all(handlers.map((handler) => handler.close()));
    });

    it("a task's question: the weaker token's answer changes nothing, on either instance; the stronger one's goes through", async () => {
      const session = await openTaskSession(a, { token: "strong-token", capabilities: { elicitation: {} } });
      const created = legacyResult(
        await session.rpc("tools/call", { name: "admin_job", arguments: { key: "t", ask: true }, task: {} }),
      );
      const taskId = String(created.task.taskId);
      const waiting = await openPostStream(a, as(session.id, "strong-token"), {
        jsonrpc: "2.0",
        id: 7,
        method: "tasks/result",
        params: { taskId },
      });
      try {
        const id = await questionOn(waiting);
        const refused = await postInSession(a, as(session.id, "weak-token"), accept(id, "Weak"));
        expect(refused.status).toBe(400);
        expect(await refused.json()).toMatchObject({ error: { code: -32600 } });
        // On the other instance the answer goes over the bus: the instance that asked refuses it there.
        await (await postInSession(b, as(session.id, "weak-token"), accept(id, "Weak"))).body?.cancel();
        await new Promise((resolve) => setTimeout(resolve, 100));
        const still = legacyResult(await session.rpc("tasks/get", { taskId }));
        expect(still.status).toBe("input_required");

        const answered = await postInSession(b, as(session.id, "strong-token"), accept(id, "Ann"));
        expect(answered.status).toBe(202);
        const final = JSON.parse((await waiting.next(/"result"/)).data) as { result: { content: unknown } };
        expect(final.result.content).toEqual([{ type: "text", text: "hello Ann" }]);
      } finally {
        waiting.close();
      }
    });

    it("a call's own question: answered only by the token that may make the call", async () => {
      const session = await openTaskSession(a, { token: "strong-token", capabilities: { elicitation: {} } });
      const call = { jsonrpc: "2.0", id: 3, method: "tools/call", params: { name: "ask_name", arguments: {} } };
      const stream = await openPostStream(a, as(session.id, "strong-token"), call);
      try {
        const id = await questionOn(stream);
        const refused = await postInSession(a, as(session.id, "weak-token"), accept(id, "Weak"));
        expect(refused.status).toBe(400);
        await refused.body?.cancel();
        expect((await postInSession(a, as(session.id, "strong-token"), accept(id, "Bo"))).status).toBe(202);
        const final = JSON.parse((await stream.next(/"result"/)).data) as { result: { content: unknown } };
        expect(final.result.content).toEqual([{ type: "text", text: "hi Bo" }]);
      } finally {
        stream.close();
      }
    });

    it("a GET stream read with the weaker token hears nothing of the task; one read with the stronger does", async () => {
      // Each session's GET stream: on the instance running the task (a), and on the other one (b, over the bus).
      for (const [where, url] of [
        ["here", () => a],
        ["on another instance", () => b],
      ] as const) {
        const heard: Record<string, string[]> = {};
        for (const reader of ["weak-token", "strong-token"]) {
          const session = await openTaskSession(a, { token: "strong-token" });
          const get = await openSessionGet(url(), as(session.id, reader));
          expect(get.response.status).toBe(200);
          const key = `${where}-${reader}`;
          try {
            const created = legacyResult(
              await session.rpc("tools/call", {
                name: "admin_job",
                arguments: { key },
                task: {},
                _meta: { progressToken: key },
              }),
            );
            const taskId = String(created.task.taskId);
            gate(key).resolve();
            await pollTask(a, taskId, (task) => task.status === "completed", { token: "strong-token" });
            heard[reader] = [];
            for (;;) {
              const event = await get.sse.next(/notifications\//, 300).catch(() => undefined);
              if (!event) break;
              heard[reader].push(JSON.parse(event.data).method as string);
            }
          } finally {
            get.sse.close();
          }
        }
        expect(heard["weak-token"], where).toEqual([]);
        expect(heard["strong-token"], where).toEqual(
          expect.arrayContaining(["notifications/progress", "notifications/tasks/status"]),
        );
      }
    });
  });
}

for (const host of HOSTS) suite(host);
