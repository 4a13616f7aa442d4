/**
 * `defineMcpWorker` options a developer got wrong, in real workerd (test/fixtures/durable-options):
 * a session TTL of `NaN` (`Number(env.X)` of a variable the Worker was not given) is refused with an
 * error naming the option before anything is served, instead of every request doing its work and
 * then failing on `setAlarm(NaN)`; a session store, event log and bus the object replaces with its
 * own are named in one warning. The Durable stores' rows of test/numeric-options.test.ts run here, on
 * a real object's SQLite storage.
 */
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { LEGACY_VERSION } from "./helpers/legacy-raw.ts";
import { VALUES, accepts, refusal, type NumericOption } from "./helpers/numeric-option-cases.ts";
import { POST_HEADERS } from "./helpers/rpc.ts";
import { startDurableWorker, type DurableWorker } from "./helpers/workerd-durable.ts";

let worker: DurableWorker;
beforeAll(async () => {
  worker = await startDurableWorker({
    entry: new URL("./fixtures/durable-options/worker.ts", import.meta.url).pathname,
    classes: [
      { className: "NanObject", binding: "NAN_OBJECT", enableSql: true },
      { className: "ReplacedObject", binding: "REPLACED_OBJECT", enableSql: true },
      { className: "BoundsObject", binding: "BOUNDS_OBJECT", enableSql: true },
    ],
  });
}, 60_000);
afterAll(() => worker?.close());

const initialize = (id: number) => ({
  jsonrpc: "2.0",
  id,
  method: "initialize",
  params: { protocolVersion: LEGACY_VERSION, capabilities: {}, clientInfo: { name: "options-test", version: "1" } },
});

const TTL_ERROR = "mcp-h3: defineMcpWorker: sessions.ttlMs must be a positive whole number, not NaN";

const count = (text: string, part: string): number => text.split(part).length - 1;

describe("defineMcpWorker's options", () => {
  it("a NaN session TTL is refused by name before any request is served, not failed after each one's work", async () => {
    for (const id of [1, 2]) {
      const response = await fetch(`${worker.url}/nan/mcp`, {
        method: "POST",
        headers: POST_HEADERS,
        body: JSON.stringify(initialize(id)),
      });
      expect(response.status).toBe(500);
      // No session was opened: the request was refused before the handler ran.
      expect(response.headers.get("mcp-session-id")).toBeNull();
      await response.body?.cancel();
    }
    await vi.waitFor(() => expect(count(worker.output(), TTL_ERROR)).toBeGreaterThanOrEqual(2), { timeout: 5000 });
    expect(worker.output()).not.toContain("not a valid Date");
  }, 30_000);

  it("a session store, event log and bus of the options are named in one warning, and the object's own serve", async () => {
    for (let i = 0; i < 2; i++) {
      const client = new Client({ name: "options-test", version: "1.0.0" });
      const transport = new StreamableHTTPClientTransport(new URL(`${worker.url}/replaced/mcp`));
      await client.connect(transport);
      expect(transport.sessionId).toBeTruthy();
      const result = await client.callTool({ name: "ping", arguments: {} });
      expect((result as { content: { text: string }[] }).content[0]!.text).toBe("pong");
      await client.close();
    }
    const warning =
      "mcp-h3: defineMcpWorker: the handler's sessions.store, events, bus are not used: the Durable Object keeps";
    await vi.waitFor(() => expect(worker.output()).toContain(warning), { timeout: 5000 });
    expect(count(worker.output(), warning)).toBe(1);
  }, 30_000);
});

const DURABLE: { store: "sessions" | "events" | "tasks"; owner: string; options: NumericOption[] }[] = [
  {
    store: "sessions",
    owner: "DurableSessionStore",
    options: [
      { path: "ttlMs" },
      { path: "maxSessions" },
      { path: "maxPendingSessions" },
      { path: "handshakeGraceMs", zero: true },
    ],
  },
  { store: "events", owner: "DurableEventStore", options: [{ path: "maxEventsPerStream" }] },
  {
    store: "tasks",
    owner: "DurableTaskStore",
    options: [
      { path: "maxTasks" },
      { path: "maxTasksPerOwner" },
      { path: "maxTtlMs" },
      { path: "maxListenersPerTask" },
      { path: "maxListeners" },
    ],
  },
];

describe.each(DURABLE)("$owner, made on a Durable Object's storage", ({ store, owner, options }) => {
  const rows = options.flatMap((option) => [
    ...VALUES.map(({ label, value }) => ({ option, label, value })),
    { option, label: "a valid value", value: 1000 },
  ]);
  it.each(rows)("$option.path given $label", async ({ option, value }) => {
    const sent = typeof value === "number" && !Number.isFinite(value) ? { number: String(value) } : { json: value };
    const response = await fetch(`${worker.url}/bounds`, {
      method: "POST",
      body: JSON.stringify({ store, option: option.path, value: sent }),
    });
    const { error } = (await response.json()) as { error?: string };
    if (accepts(option, value)) expect(error).toBeUndefined();
    else {
      expect(error).toMatch(/^RangeError: /);
      expect(error!.slice("RangeError: ".length)).toMatch(refusal(`mcp-h3: ${owner} ${option.path}`, value));
    }
  });
});
