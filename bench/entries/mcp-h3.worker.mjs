// Workers entry: mcp-h3, one tool, plain JSON Schema input (no zod), served by the handler's own fetch.
import { defineMcpHandler, defineTool } from "../../dist/index.mjs";

const handler = defineMcpHandler({
  name: "bench",
  version: "1.0.0",
  tools: [
    defineTool({
      name: "echo",
      description: "Echoes the text back",
      input: { type: "object", properties: { text: { type: "string" } }, required: ["text"] },
      handler: (_event, { text }) => text,
    }),
  ],
});

export default { fetch: handler.fetch };
