// Workers entry: mcp-handler, one tool (zod).
import { createMcpHandler } from "mcp-handler";
import * as z from "zod";

const handler = createMcpHandler(
  (server) => {
    server.registerTool(
      "echo",
      { description: "Echoes the text back", inputSchema: z.object({ text: z.string() }) },
      async ({ text }) => ({ content: [{ type: "text", text }] }),
    );
  },
  { serverInfo: { name: "bench", version: "1.0.0" } },
);

export default { fetch: handler };
