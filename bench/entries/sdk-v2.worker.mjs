// Workers entry: SDK v2 createMcpHandler, one tool (zod, which the SDK requires).
import { McpServer, createMcpHandler } from "@modelcontextprotocol/server";
import * as z from "zod";

const handler = createMcpHandler(() => {
  const server = new McpServer({ name: "bench", version: "1.0.0" });
  server.registerTool(
    "echo",
    { description: "Echoes the text back", inputSchema: z.object({ text: z.string() }) },
    async ({ text }) => ({ content: [{ type: "text", text }] }),
  );
  return server;
});

export default { fetch: handler.fetch };
