/** The fuzzer's servers: the same definitions on h3 v2 (through srvx) and on h3 v1 (through node:http), in this process. */
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { H3 } from "h3";
import { createApp, toNodeListener } from "h3-v1";
import { serve } from "srvx";
import {
  defineMcpHandler,
  defineTool,
  type AuthOptions,
  type McpEventHandler,
  type ToolDefinition,
} from "../../src/index.ts";
import { tasks } from "../../src/_entries/tasks.ts";
import { hostileDefinitions } from "../helpers/hostile-definitions.ts";

/** A running server under fuzz. */
export interface FuzzServer {
  name: "h3-v2" | "h3-v1";
  url: string;
  handler: McpEventHandler;
  close(): Promise<void>;
}

/** Tools whose failure is on purpose (a state that cannot be signed) stay out: the fuzzer judges the engine. */
const ON_PURPOSE = new Set(["circular-state", "bigint-state"]);

function fuzzHandler(auth: AuthOptions | undefined): McpEventHandler {
  // The definitions record their effects; the fuzzer keeps none (memory must come back to baseline).
  const effects = { push: () => 0 } as unknown as string[];
  const definitions = hostileDefinitions(effects);
  const tools = (definitions.tools as ToolDefinition[]).filter((tool) => !ON_PURPOSE.has(tool.name));
  tools.push(
    defineTool({
      name: "roots",
      handler: async (event) => `${(await event.context.mcp!.listRoots("roots")).roots.length} roots`,
    }),
  );
  // Tasks: a short job, and one that waits for an answer (tasks/update); kept 2 s, so the run's
  // tasks are gone (and their waiting handlers stopped) before the heap is measured again.
  tools.push(
    defineTool({
      name: "task_job",
      task: "optional",
      handler: async () => {
        await new Promise((resolve) => setTimeout(resolve, 5));
        return "job done";
      },
    }),
    defineTool({
      name: "task_ask",
      task: "optional",
      handler: async (event) => {
        const mcp = event.context.mcp!;
        await new Promise((resolve) => setTimeout(resolve, 1));
        const answer = await mcp.elicit("name", "Name?", { type: "object", properties: { name: { type: "string" } } });
        return String(answer.content?.name);
      },
    }),
  );
  return defineMcpHandler({
    name: "fuzz",
    version: "1.0.0",
    logging: true,
    extensions: [tasks({ defaultTtlMs: 2000, maxTtlMs: 2000, leaseMs: 600 })],
    // A mutated answer to a server→client request leaves the call waiting: not for long.
    inputTimeoutMs: 1000,
    auth,
    ...definitions,
    tools,
  });
}

/** Both servers; with `auth`, they validate bearer tokens with it. */
export async function startFuzzServers(auth?: AuthOptions): Promise<FuzzServer[]> {
  const v2Handler = fuzzHandler(auth);
  const v2 = serve({
    fetch: new H3().all("/mcp", v2Handler).fetch,
    port: 0,
    hostname: "127.0.0.1",
    silent: true,
    gracefulShutdown: false,
  });
  await v2.ready();
  const v2Port = (v2.node!.server!.address() as AddressInfo).port;

  const v1Handler = fuzzHandler(auth);
  const v1Server = createServer(toNodeListener(createApp().use("/mcp", v1Handler as never)));
  await new Promise<void>((resolve) => v1Server.listen(0, "127.0.0.1", resolve));
  const v1Port = (v1Server.address() as AddressInfo).port;

  return [
    {
      name: "h3-v2",
      url: `http://127.0.0.1:${v2Port}/mcp`,
      handler: v2Handler,
      close: async () => {
        await v2Handler.close();
        await v2.close(true);
      },
    },
    {
      name: "h3-v1",
      url: `http://127.0.0.1:${v1Port}/mcp`,
      handler: v1Handler,
      close: async () => {
        await v1Handler.close();
        v1Server.closeAllConnections();
        await new Promise<void>((resolve) => v1Server.close(() => resolve()));
      },
    },
  ];
}
