// The MCP server of the app: its definitions, served by the Durable Object every MCP request goes to.
import { defineTool } from "mcp-h3";
import { defineMcpWorker, type DurableObjectNamespace } from "mcp-h3/cloudflare";
import { tasks } from "mcp-h3/tasks";

export interface Env {
  MCP_OBJECT: DurableObjectNamespace;
}

const sleep = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));

export const mcp = defineMcpWorker<Env>({
  handler: (_env, stores) => ({
    name: "nitro-cloudflare-example",
    version: "1.0.0",
    tools: [
      defineTool({
        name: "add",
        description: "Adds two numbers",
        input: {
          type: "object",
          properties: { a: { type: "number" }, b: { type: "number" } },
          required: ["a", "b"],
        },
        handler: (_event, { a, b }) => String(Number(a) + Number(b)),
      }),
      defineTool({
        name: "slow",
        description: "Answers after ms milliseconds; may run as a task",
        input: { type: "object", properties: { ms: { type: "number" } }, required: ["ms"] },
        task: "optional",
        handler: async (_event, { ms }) => {
          await sleep(Number(ms));
          return `slept ${ms}`;
        },
      }),
    ],
    extensions: [tasks({ store: stores.tasks })],
  }),
});

export const McpObject = mcp.McpObject;
