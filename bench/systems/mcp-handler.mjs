/**
 * Vercel's mcp-handler 2.4 (a layer over SDK v2's createMcpHandler with the stateless legacy
 * fallback). It is a `(Request) => Promise<Response>` handler; on Node it is mounted through
 * `toNodeHandler` from @modelcontextprotocol/node (the README asks for a Web Request adapter).
 */
import { createServer } from "node:http";
import { createMcpHandler } from "mcp-handler";
import { toNodeHandler } from "@modelcontextprotocol/node";
import * as z from "zod";

export const info = {
  name: "mcp-handler",
  label: "mcp-handler",
  modern: true,
  nodeServer: "@modelcontextprotocol/node toNodeHandler + node:http",
  legacy: "stateless",
};

function createFetch() {
  return createMcpHandler(
    (server) => {
      server.registerTool(
        "echo",
        { description: "Echoes the text back", inputSchema: z.object({ text: z.string() }) },
        async ({ text }) => ({ content: [{ type: "text", text }] }),
      );
      server.registerTool(
        "progress",
        {
          description: "Reports `count` progress notifications, then answers",
          inputSchema: z.object({ count: z.number() }),
        },
        async ({ count }, ctx) => {
          const progressToken = ctx.mcpReq._meta?.progressToken;
          for (let i = 1; i <= count; i++) {
            await ctx.mcpReq.notify({
              method: "notifications/progress",
              params: { progressToken, progress: i, total: count },
            });
          }
          return { content: [{ type: "text", text: `done ${count}` }] };
        },
      );
    },
    { serverInfo: { name: "bench", version: "1.0.0" } },
  );
}

export async function create() {
  const handler = createFetch();
  return { fetch: (request) => handler(request) };
}

export async function createNodeServer() {
  const handler = createFetch();
  return createServer(toNodeHandler({ fetch: handler }));
}
