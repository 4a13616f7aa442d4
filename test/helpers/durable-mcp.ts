/**
 * test/fixtures/durable-mcp in real workerd: `defineMcpWorker` (mcp-h3/cloudflare) on two
 * SQLite-backed Durable Object classes, `/mcp` (no auth) and `/auth/mcp` (bearer auth).
 */
import { afterAll, beforeAll } from "vitest";
import { startDurableWorker, type DurableWorker } from "./workerd-durable.ts";

export function startDurableMcp(): Promise<DurableWorker> {
  return startDurableWorker({
    entry: new URL("../fixtures/durable-mcp/worker.ts", import.meta.url).pathname,
    classes: [
      { className: "McpObject", binding: "MCP_OBJECT", enableSql: true },
      { className: "AuthObject", binding: "AUTH_OBJECT", enableSql: true },
    ],
  });
}

/** The fixture, started before the file's tests and closed after them. */
export interface DurableMcpFile {
  /** The running workerd (its `url`, `restart()`). */
  worker(): DurableWorker;
  /** The MCP endpoint: `/mcp`, or `/auth/mcp` with `auth`. */
  mcpUrl(): string;
}

/** Starts the fixture for the calling test file (vitest hooks at the file's top level). */
export function durableMcpForFile(options: { auth?: boolean } = {}): DurableMcpFile {
  let running: DurableWorker | undefined;
  beforeAll(async () => {
    running = await startDurableMcp();
  }, 60_000);
  afterAll(() => running?.close());
  const worker = (): DurableWorker => {
    if (!running) throw new Error("the durable fixture is not started (call durableMcpForFile at a file's top level)");
    return running;
  };
  return { worker, mcpUrl: () => `${worker().url}${options.auth ? "/auth" : ""}/mcp` };
}
