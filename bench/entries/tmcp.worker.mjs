// Workers entry: tmcp + transport-http with the zod adapter, one tool.
import { McpServer } from "tmcp";
import { HttpTransport } from "@tmcp/transport-http";
import { ZodJsonSchemaAdapter } from "@tmcp/adapter-zod";
import * as z from "zod";

const server = new McpServer(
  { name: "bench", version: "1.0.0", description: "bench" },
  { adapter: new ZodJsonSchemaAdapter(), capabilities: { tools: {} } },
);
server.tool(
  { name: "echo", description: "Echoes the text back", schema: z.object({ text: z.string() }) },
  async ({ text }) => ({ content: [{ type: "text", text }] }),
);
const transport = new HttpTransport(server, { path: "/mcp" });

export default {
  fetch: async (request) => (await transport.respond(request)) ?? new Response(null, { status: 404 }),
};
