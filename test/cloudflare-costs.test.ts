/**
 * What a request costs the Durable Object of mcp-h3/cloudflare in SQLite rows, as Cloudflare bills
 * a SQLite-backed object (rows read, rows written; an alarm set counts as a write): measured in real
 * workerd by the fixture's counted object (test/fixtures/durable-mcp/counted.ts), each request on
 * its own. The bounds are the figures of docs/guide/scale-out.md with a little room: a change that
 * makes a call read or write more rows fails here. A session's calls must not cost more with more
 * sessions kept.
 */
import { describe, expect, it } from "vitest";
import { durableMcpForFile } from "./helpers/durable-mcp.ts";
import { LEGACY_VERSION } from "./helpers/legacy-raw.ts";
import { POST_HEADERS } from "./helpers/rpc.ts";

const fixture = durableMcpForFile();
const mcpUrl = fixture.mcpUrl;

interface Cost {
  status: number;
  read: number;
  written: number;
  body: string;
  session: string | null;
}

const MODERN_META = {
  "io.modelcontextprotocol/protocolVersion": "2026-07-28",
  "io.modelcontextprotocol/clientCapabilities": { extensions: { "io.modelcontextprotocol/tasks": {} } },
};

let nextId = 1;

async function cost(message: Record<string, unknown>, headers: Record<string, string> = {}): Promise<Cost> {
  const response = await fetch(mcpUrl(), {
    method: "POST",
    headers: { ...POST_HEADERS, ...headers },
    body: JSON.stringify({ jsonrpc: "2.0", ...message }),
  });
  return {
    status: response.status,
    read: Number(response.headers.get("x-sql-rows-read")),
    written: Number(response.headers.get("x-sql-rows-written")),
    body: await response.text(),
    session: response.headers.get("mcp-session-id"),
  };
}

const initialize = () =>
  cost({
    id: nextId++,
    method: "initialize",
    params: { protocolVersion: LEGACY_VERSION, capabilities: {}, clientInfo: { name: "costs", version: "1" } },
  });

/** A legacy session, initialized: its headers. */
async function session(): Promise<Record<string, string>> {
  const opened = await initialize();
  const headers = { "mcp-session-id": opened.session!, "mcp-protocol-version": LEGACY_VERSION };
  await cost({ method: "notifications/initialized" }, headers);
  return headers;
}

const legacyCall = (headers: Record<string, string>) =>
  cost({ id: nextId++, method: "tools/call", params: { name: "add", arguments: { a: 1, b: 2 } } }, headers);

const modern = (method: string, params: Record<string, unknown>, name?: string) =>
  cost(
    { id: nextId++, method, params: { ...params, _meta: MODERN_META } },
    { "mcp-protocol-version": "2026-07-28", "mcp-method": method, ...(name ? { "mcp-name": name } : {}) },
  );

describe("rows of SQLite per request on the Durable Object", () => {
  it("legacy: initialize and a tools/call in a session cost the same with 100 more sessions kept", async () => {
    // The object's first request of its life also makes sure of its tables: measured apart.
    const firstOfLife = await initialize();
    const firstInit = await initialize();
    const headers = await session();
    await legacyCall(headers); // the first call may set the alarm: measured apart from the steady ones
    const call = await legacyCall(headers);
    expect(call.status, call.body).toBe(200);
    expect(call.body).toContain('"3"');
    for (let i = 0; i < 100; i++) await session();
    const init = await initialize();
    const again = await legacyCall(headers);
    const figures = {
      firstOfLife: [firstOfLife.read, firstOfLife.written],
      initialize: [firstInit.read, firstInit.written],
      initializeAt100: [init.read, init.written],
      call: [call.read, call.written],
      callAt100: [again.read, again.written],
    };
    expect(init.read, JSON.stringify(figures)).toBe(firstInit.read);
    expect(again.read, JSON.stringify(figures)).toBe(call.read);
    expect(again.written, JSON.stringify(figures)).toBe(call.written);
    expect(call.read, JSON.stringify(figures)).toBeLessThanOrEqual(8);
    expect(call.written, JSON.stringify(figures)).toBeLessThanOrEqual(3);
    expect(init.read, JSON.stringify(figures)).toBeLessThanOrEqual(6);
    expect(init.written, JSON.stringify(figures)).toBeLessThanOrEqual(4);
    expect(firstOfLife.written, JSON.stringify(figures)).toBeLessThanOrEqual(30);
  }, 60_000);

  it("modern: a tools/call reads a few rows and writes none; a task's create and get", async () => {
    await modern("tools/call", { name: "add", arguments: { a: 1, b: 2 } }, "add");
    const call = await modern("tools/call", { name: "add", arguments: { a: 1, b: 2 } }, "add");
    expect(call.status, call.body).toBe(200);
    const created = await modern("tools/call", { name: "slow", arguments: { ms: 10 }, task: {} }, "slow");
    const taskId = (JSON.parse(created.body) as { result: { taskId: string } }).result.taskId;
    await new Promise((resolve) => setTimeout(resolve, 100));
    const get = await modern("tasks/get", { taskId }, taskId);
    const figures = {
      call: [call.read, call.written],
      create: [created.read, created.written],
      get: [get.read, get.written],
    };
    expect(call.written, JSON.stringify(figures)).toBe(0);
    expect(call.read, JSON.stringify(figures)).toBeLessThanOrEqual(4);
    expect(created.written, JSON.stringify(figures)).toBeLessThanOrEqual(6);
    expect(get.read, JSON.stringify(figures)).toBeLessThanOrEqual(6);
  }, 60_000);
});
