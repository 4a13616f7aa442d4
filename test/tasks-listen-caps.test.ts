/**
 * A `subscriptions/listen` refused by a cap costs no task-store read, over real HTTP: with alice
 * already holding her one listen (`maxListensPerPrincipal: 1`), or the handler its one
 * (`maxListens: 1`), a listen naming 100 task ids is refused with "Subscription limit reached" and
 * the store's `get` was not called once. The store is the real `MemoryTaskStore` with a counter on
 * `get`; an allowed listen of the same 100 ids reads each (the counter counts).
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { defineMcpHandler, defineTool, type McpEventHandler } from "../src/index.ts";
import { MemoryTaskStore, tasks } from "../src/_entries/tasks.ts";
import type { TaskState } from "../src/types/tasks.ts";
import { staticAuth } from "./helpers/auth.ts";
import { startHost, type RunningHost } from "./helpers/hosts.ts";
import type { LiveSse } from "./helpers/live-sse.ts";
import type { Answer } from "./helpers/rpc.ts";
import { listenForTasks } from "./helpers/task-rpc.ts";

/** The memory store, counting the reads of single tasks. */
class CountingStore extends MemoryTaskStore {
  gets = 0;
  override get(taskId: string): Promise<TaskState | undefined> {
    this.gets++;
    return super.get(taskId);
  }
}

const IDS = Array.from({ length: 100 }, (_, index) => `task-id-${index}`);

/** One listen with `token` for `taskIds`: the open stream (past its acknowledgement), or the JSON answer. */
async function listen(url: string, token: string, taskIds: string[]): Promise<{ answer?: Answer; stream?: LiveSse }> {
  const opened = await listenForTasks(url, token, taskIds);
  await opened.stream?.next(/acknowledged/);
  return opened;
}

/** Alice holds the one listen each cap allows; `second` is the token of the listen refused next. */
const CAPS = [
  { cap: "maxListensPerPrincipal", options: { maxListensPerPrincipal: 1 }, second: "alice-token" },
  { cap: "maxListens", options: { maxListens: 1 }, second: "bob-token" },
] as const;

describe.each(CAPS)("a listen refused for $cap reads no task store", ({ options, second: token }) => {
  const store = new CountingStore();
  let handler: McpEventHandler;
  let server: RunningHost;
  beforeAll(async () => {
    handler = defineMcpHandler({
      name: "listen-caps",
      version: "1.0.0",
      auth: staticAuth(),
      tools: [defineTool({ name: "job", task: "optional", handler: () => "done" })],
      extensions: [tasks({ store })],
      ...options,
    });
    server = await startHost("h3-v2", handler);
  });
  afterAll(async () => {
    await server.close();
    await handler.close();
    await store.close();
  });

  it("refused with 'Subscription limit reached' after 0 reads; the allowed listen read its 100 ids", async () => {
    const first = await listen(server.url, "alice-token", IDS);
    try {
      expect(first.stream, first.answer?.text).toBeDefined();
      expect(store.gets).toBe(IDS.length);
      store.gets = 0;
      const second = await listen(server.url, token, IDS);
      second.stream?.close();
      expect(second.answer?.json).toMatchObject({ error: { code: -32603, message: /Subscription limit reached/ } });
      expect(store.gets).toBe(0);
    } finally {
      first.stream?.close();
    }
  });
});
